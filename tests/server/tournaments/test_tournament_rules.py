"""The tournament's rules as plain values: who fills the tables, how a deal
is scored in each form, and the standings with shared places."""

from __future__ import annotations

import pytest

from cardtable.server.tournaments.rules import (
    TournamentRefusal,
    check_new,
    deal_percentages,
    deal_seed,
    seat_tables,
    seats_needed,
    standings,
)

GOOD = {
    "name": "  Friday   cup ",
    "game": "myrummy-111",
    "players": 3,
    "deals": 6,
    "form": "swiss",
    "start_in_minutes": 10,
    "move_hours": None,
    "access": "invite",
    "rated": True,
    "bot": "medium",
}


def test_a_new_tournament_is_checked_and_its_name_tidied() -> None:
    new = check_new(GOOD, now_ms=1_000)
    assert new.name == "Friday cup"
    assert new.players == 3 and new.options["players"] == 3
    assert new.start_ms == 1_000 + 10 * 60_000
    assert (new.form, new.access, new.rated, new.bot) == ("swiss", "invite", True, "medium")


@pytest.mark.parametrize(
    ("field", "value", "key"),
    [
        ("name", " ", "name"),
        ("game", "chess", "game"),
        ("players", 9, "players"),
        ("deals", 0, "deals"),
        ("deals", 25, "deals"),
        ("form", "knockout", "form"),
        ("start_in_minutes", -1, "start"),
        ("start_in_minutes", 31 * 24 * 60, "start"),
        ("move_hours", 5, "moveHours"),
        ("access", "secret", "access"),
        ("bot", "random", "bot"),
    ],
)
def test_a_bad_field_is_refused_by_name(field: str, value: object, key: str) -> None:
    with pytest.raises(TournamentRefusal) as refused:
        check_new({**GOOD, field: value}, now_ms=0)
    assert refused.value.status == 400
    assert refused.value.body()["key"] == f"tournament.error.{key}"


def test_bots_fill_the_tables_to_a_multiple_of_the_players_and_two_tables_at_least() -> None:
    assert [seats_needed(n, 4) for n in (1, 7, 8, 9, 12)] == [8, 8, 8, 12, 12]
    assert seats_needed(3, 2) == 4


def test_duplicate_deals_are_alike_at_every_table_and_swiss_deals_are_not() -> None:
    assert deal_seed(7, "duplicate", 2, 0) == deal_seed(7, "duplicate", 2, 5)
    assert deal_seed(7, "duplicate", 2, 0) != deal_seed(7, "duplicate", 3, 0)
    assert deal_seed(7, "swiss", 2, 0) != deal_seed(7, "swiss", 2, 1)


def test_duplicate_scoring_compares_a_seat_with_the_same_seat_at_the_other_tables() -> None:
    # Seat 0 made +4 (6 against 2), +0 and −4 at three tables: 100%, 50%, 0%.
    points = [(6, 2), (3, 3), (1, 5)]
    assert deal_percentages("duplicate", points, low_wins=False) == [
        (100.0, 0.0),
        (50.0, 50.0),
        (0.0, 100.0),
    ]
    # Where the lowest score wins, the same points score the other way round.
    assert deal_percentages("duplicate", points, low_wins=True)[0] == (0.0, 100.0)


def test_swiss_scoring_compares_a_seat_with_its_own_table_only() -> None:
    assert deal_percentages("swiss", [(6, 2, 2), (0, 0, 9)], low_wins=False) == [
        (100.0, 25.0, 25.0),
        (25.0, 25.0, 100.0),
    ]


def test_swiss_seats_the_leaders_together_after_the_first_deal() -> None:
    totals = [10.0, 90.0, 50.0, 100.0, 0.0, 60.0]
    tables = seat_tables("swiss", 6, 2, 1, seed=3, totals=totals)
    assert [set(t) for t in tables] == [{3, 1}, {5, 2}, {0, 4}]
    # Every entrant sits once, and the first deal's draw is the seed's alone.
    first = seat_tables("swiss", 6, 2, 0, seed=3, totals=[0.0] * 6)
    assert sorted(e for t in first for e in t) == list(range(6))
    assert first == seat_tables("swiss", 6, 2, 0, seed=3, totals=[0.0] * 6)
    assert first != seat_tables("swiss", 6, 2, 0, seed=4, totals=[0.0] * 6)


def test_standings_sum_the_percentages_and_share_places_on_ties() -> None:
    scored = [((0, 1), (100.0, 0.0)), ((2, 3), (50.0, 50.0)), ((1, 0), (100.0, 0.0))]
    table = [(s.place, s.entrant, s.total, s.deals) for s in standings(4, scored)]
    assert table == [(1, 0, 100.0, 2), (1, 1, 100.0, 2), (3, 2, 50.0, 1), (3, 3, 50.0, 1)]
