"""record-format "Malformed (exit 2)": every part of a record that is not
well formed is refused with one sentence that says where (a path into the
JSON) and why, and with the round and move (1-based) when it sits in a round.

Checked through the public API, ``cardtable.replay``, whose error is what
``cardtable replay`` prints and puts in its ``--json`` object.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import OptionError, RecordError
from tests.core.helpers import DELETE, SEATS, record_with


def option_reason(**options: Any) -> str:
    """The reason the game itself gives for bad options."""
    with pytest.raises(OptionError) as info:
        cardtable.load("marshmallow-test", **options)
    return info.value.reason


KNOWN = ", ".join(cardtable.game_names())

# (path, value, the whole message, round, move)
MALFORMED: list[tuple[str, Any, str, int | None, int | None]] = [
    ("format", DELETE, "format: missing (required)", None, None),
    ("game", DELETE, "game: missing (required)", None, None),
    ("options", DELETE, "options: missing (required)", None, None),
    ("rounds", DELETE, "rounds: missing (required)", None, None),
    (
        "format",
        "cardtable-record/2",
        "format: expected 'cardtable-record/1', got 'cardtable-record/2'",
        None,
        None,
    ),
    ("game", "chess", f"game: unknown game 'chess'; known games: {KNOWN}", None, None),
    ("game", 5, f"game: unknown game 5; known games: {KNOWN}", None, None),
    ("options", [3], "options: options must be an object, not a list", None, None),
    ("options/players", DELETE, "options.players: missing (required)", None, None),
    (
        "options/target",
        0,
        f"options.target: {option_reason(players=SEATS, target=0)}",
        None,
        None,
    ),
    ("players", "Ann", "players: players must be a list, not a string", None, None),
    ("players", ("Ann", "Bob", "Cleo"), "players: players must be a list, not tuple", None, None),
    ("players", ["Ann", "Bob"], "players: 2 names for 3 seats", None, None),
    (
        "players/1",
        5,
        "players[1]: a player's name must be a string, not an integer",
        None,
        None,
    ),
    ("players/2", True, "players[2]: a player's name must be a string, not a boolean", None, None),
    ("players/0", None, "players[0]: a player's name must be a string, not null", None, None),
    ("rounds", {}, "rounds: rounds must be a list, not an object", None, None),
    ("rounds/1", [], "rounds[1]: a round must be an object, not a list", 2, None),
    ("rounds/1/extra", 1, "rounds[1].extra: unknown field", 2, None),
    ("rounds/0/deal", DELETE, "rounds[0].deal: missing (required)", 1, None),
    ("rounds/2/moves", DELETE, "rounds[2].moves: missing (required)", 3, None),
    ("rounds/2/moves", None, "rounds[2].moves: moves must be a list, not null", 3, None),
    ("rounds/0/moves", "R7", "rounds[0].moves: moves must be a list, not a string", 1, None),
    ("result", [1], "result: result must be an object, not a list", None, None),
    ("result/winner", [1], "result.winner: unknown field", None, None),
    (
        "result/finished",
        1,
        "result.finished: finished must be true or false, not an integer",
        None,
        None,
    ),
    (
        "result/finished",
        "yes",
        "result.finished: finished must be true or false, not a string",
        None,
        None,
    ),
    (
        "result/scores",
        "15",
        "result.scores: a list of points must be a list, not a string",
        None,
        None,
    ),
    ("result/scores", [15, 22], "result.scores: 2 entries for 3 seats", None, None),
    (
        "result/scores/1",
        2.5,
        "result.scores[1]: points must be an integer, not a number",
        None,
        None,
    ),
    (
        "result/scores/2",
        False,
        "result.scores[2]: points must be an integer, not a boolean",
        None,
        None,
    ),
    (
        "result/round_scores",
        {},
        "result.round_scores: round_scores must be a list, not an object",
        None,
        None,
    ),
    ("result/round_scores/1", [6, 0], "result.round_scores[1]: 2 entries for 3 seats", None, None),
    (
        "result/round_scores/4/2",
        "7",
        "result.round_scores[4][2]: points must be an integer, not a string",
        None,
        None,
    ),
    ("result/winners", 1, "result.winners: winners must be a list, not an integer", None, None),
    (
        "result/winners",
        [0, "1"],
        "result.winners[1]: a seat must be an integer, not a string",
        None,
        None,
    ),
    (
        "result/winners",
        [True],
        "result.winners[0]: a seat must be an integer, not a boolean",
        None,
        None,
    ),
    ("result/winners", [-1], "result.winners[0]: seat -1 outside 0…2", None, None),
    ("result/winners", [1, 3], "result.winners[1]: seat 3 outside 0…2", None, None),
]


@pytest.mark.parametrize(
    ("path", "value", "message", "round_", "move"),
    MALFORMED,
    ids=[f"{case[0]}={case[1]!r}" for case in MALFORMED],
)
def test_malformed_part_is_refused_saying_where_and_why(
    path: str, value: Any, message: str, round_: int | None, move: int | None
) -> None:
    outcome = cardtable.replay(record_with(path, value))
    assert isinstance(outcome.error, RecordError)
    assert str(outcome.error) == message
    assert (outcome.error.round, outcome.error.move) == (round_, move)
    assert outcome.exit_code == 2
    assert outcome.summary() == {"error": {"round": round_, "move": move, "message": message}}


def test_a_record_that_is_not_an_object_is_malformed() -> None:
    outcome = cardtable.replay(json.loads("[1, 2]"))
    assert isinstance(outcome.error, RecordError)
    assert outcome.error.where == ""  # the path of the whole document
    assert str(outcome.error) == "a record must be an object, not a list"
    assert outcome.exit_code == 2


def test_a_malformed_move_reports_the_games_complaint_at_its_round_and_move() -> None:
    """The game defines its moves (record-format "Common shape"); replay adds
    the position: rounds[1].moves[2] is round 2, move 3."""
    bad_move = {"seat": 0, "play": "X4"}
    outcome = cardtable.replay(record_with("rounds/1/moves/2", bad_move))
    game = cardtable.load("marshmallow-test", players=SEATS)
    with pytest.raises(RecordError) as info:
        game.move_from_json(bad_move, "rounds[1].moves[2]")
    expected = RecordError(info.value.where, info.value.reason, round=2, move=3)
    assert outcome.error == expected
    assert str(outcome.error) == f"rounds[1].moves[2].play: {info.value.reason}"


@pytest.mark.parametrize("winners", [[0], [SEATS - 1], []])
def test_a_seat_inside_0_to_n_minus_1_is_well_formed(winners: list[int]) -> None:
    """Seats are 0-based: 0 and n-1 pass the form check; the result then only
    may differ from the moves (exit 1), but it is not malformed."""
    outcome = cardtable.replay(record_with("result/winners", winners))
    assert not isinstance(outcome.error, RecordError)
    assert outcome.exit_code != 2


@pytest.mark.parametrize(("path", "value"), [("players", None), ("result", None)])
def test_optional_parts_may_be_null(path: str, value: None) -> None:
    outcome = cardtable.replay(record_with(path, value))
    assert outcome.error is None
    assert outcome.exit_code == 0
