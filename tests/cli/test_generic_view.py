"""The terminal's reading of any game's view (issue 33): each field by its
shape, as the browser's generic board reads it (docs/browser.md's table), on a
few lines a person reads; and an engine's "seat N" said with the table's names."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.cli.generic_view import name_seats, notation, view_lines, words_of

NAMES = ["Ann", "Bob", "Cleo"]


def lines(view: dict[str, Any], seat: int | None = 0) -> list[str]:
    return view_lines(view, NAMES, seat)


def test_the_round_and_the_hand_come_first_and_own_way_fields_are_not_repeated() -> None:
    view = {"seat": 0, "players": 3, "to_move": 1, "hand": [5, 17, 30], "round_number": 2}
    assert lines(view) == ["Round 2", "Your hand: 5 17 30"]


def test_a_spectator_has_no_hand_line() -> None:
    assert lines({"hand": [], "round": 1}, seat=None) == ["Round 1"]


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("hand_sizes", [2, 3, 0], "Hand sizes: Ann 2 · Bob 3 · Cleo 0"),
        ("out", [True, False, False], "Out: Ann yes · Bob no · Cleo no"),
        ("trick", [[2, "B1"], [0, "A3"]], "Trick: Cleo B1 · Ann A3"),
        ("trick", [{"seat": 1, "card": 27, "face": "up"}], "Trick: Bob 27"),
        ("pile", [12, None, "X"], "Pile: 12 ▒ X"),
        ("stock", [], "Stock: none"),
        ("direction", "down", "Direction: down"),
        ("drawn", False, "Drawn: no"),
        ("dealer", None, "Dealer: —"),
    ],
)
def test_each_field_by_its_shape(key: str, value: Any, shown: str) -> None:
    assert lines({key: value}) == [shown]


def test_a_score_sheet_shows_its_latest_rounds_by_name() -> None:
    rows = [[1, 0, 2], [0, 3, 0], [5, 1, 1], [2, 2, 2]]
    assert lines({"round_scores": rows}) == [
        "Round scores:",
        "  round 2: Ann 0 · Bob 3 · Cleo 0",
        "  round 3: Ann 5 · Bob 1 · Cleo 1",
        "  round 4: Ann 2 · Bob 2 · Cleo 2",
    ]


def test_past_tricks_piles_per_seat_sections_and_histories() -> None:
    view = {
        "tricks": [[[0, "A1"], [1, "A2"], [2, "A3"]], [[1, "B1"], [2, "B4"], [0, "C1"]]],
        "melds": [["A1", "A2"], [], [None, None]],
        "piles": [[1, 2], [3]],
        "table": {"trump": "C", "led": None},
        "log": [{"seat": 0, "move": {"play": 5}}, {"seat": 1, "move": {"draw": True}}],
    }
    assert lines(view) == [
        "Tricks: 2, the last: Bob B1 · Cleo B4 · Ann C1",
        "Melds: Ann A1 A2 · Bob none · Cleo ▒ ▒",
        "Piles: 1 2 | 3",
        "Table:",
        "  Trump: C",
        "  Led: —",
        "Log: 2 in all, latest: seat 0, move play 5; seat 1, move draw",
    ]


def test_notation_reads_a_move_with_a_further_choice() -> None:
    assert notation({"play": 30, "direction": "down"}) == "play 30, direction down"
    assert notation({"draw": True, "declare": False, "slot": None}) == "draw"


def test_words_of_a_key() -> None:
    assert words_of("hand_sizes") == words_of("handSizes") == "Hand sizes"


def test_a_refusal_names_the_seats_as_the_table_does() -> None:
    said = name_seats("it is seat 2's turn, not seat 0's; seat 12 is no seat", NAMES, own=0)
    assert said == "it is Cleo's turn, not your seat's; seat 12 is no seat"
    assert name_seats("seat 1 does not hold 7", NAMES) == "Bob does not hold 7"
