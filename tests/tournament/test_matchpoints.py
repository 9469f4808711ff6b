"""Duplicate scoring by hand (issue 31): results, matchpoints, standings."""

from __future__ import annotations

import pytest

from cardtable.arena.duplicate import Contender
from cardtable.tournament.duplicate import TableDeal, TournamentSpec, scored, seating, standings
from cardtable.tournament.matchpoints import matchpoint_percentages, seat_results


def test_a_result_is_the_points_less_the_mean_of_the_others() -> None:
    assert seat_results([10, 4, 4]) == [6.0, -3.0, -3.0]
    assert seat_results([3, 3]) == [0.0, 0.0]


@pytest.mark.parametrize(
    ("results", "percentages"),
    [
        ([5.0, 1.0], [100.0, 0.0]),
        ([2.0, 2.0, 2.0], [50.0, 50.0, 50.0]),
        # 2 for each beaten, 1 for each tie, of 2 for each other table (here 6).
        ([4.0, 1.0, 1.0, -3.0], [100.0, 50.0, 50.0, 0.0]),
        ([1.0, 3.0, 1.0, 2.0], [100 / 6, 100.0, 100 / 6, 400 / 6]),
        ([7.0], [50.0]),
    ],
)
def test_matchpoints_by_hand(results: list[float], percentages: list[float]) -> None:
    assert matchpoint_percentages(results) == pytest.approx(percentages)


def test_standings_sum_each_entrants_percentages_over_its_deals() -> None:
    """Two tables of two, two deals; every number worked out by hand."""
    spec = TournamentSpec("marshmallow-test", (("players", 2),), (Contender("x"),) * 4, 1)
    tables = scored(
        [
            # deal 0: seat 0 results +6 (table 0) and -2 (table 1); seat 1: -6 and +2
            TableDeal(0, 0, (0, 1), (8, 2)),
            TableDeal(0, 1, (2, 3), (3, 5)),
            # deal 1: a tie in every seat
            TableDeal(1, 0, (1, 0), (4, 4)),
            TableDeal(1, 1, (3, 2), (1, 1)),
        ]
    )
    assert [t.percentages for t in tables] == [
        (100.0, 0.0),
        (0.0, 100.0),
        (50.0, 50.0),
        (50.0, 50.0),
    ]
    ranked = standings(spec, tables)
    assert [(s.entrant, s.total, s.deals) for s in ranked] == [
        (0, 150.0, 2),
        (3, 150.0, 2),
        (1, 50.0, 2),
        (2, 50.0, 2),
    ]
    assert ranked[0].name == "x #1"


@pytest.mark.parametrize(("entrants", "players"), [(8, 4), (6, 2), (9, 3)])
def test_the_movement_balances_the_seats_and_seats_everyone_once_a_deal(
    entrants: int, players: int
) -> None:
    held = {e: [0] * players for e in range(entrants)}
    for deal in range(3 * players):
        tables = seating(entrants, players, deal, seed=5)
        seated = [e for table in tables for e in table]
        assert sorted(seated) == list(range(entrants))  # each entrant at one seat
        for table in tables:
            for seat, entrant in enumerate(table):
                held[entrant][seat] += 1
    assert all(counts == [3] * players for counts in held.values())  # each seat 3 times
