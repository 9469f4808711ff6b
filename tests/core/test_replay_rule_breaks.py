"""record-format "Rule break (exit 1)": a well-formed record whose moves,
rounds or result the rules do not allow. The message names the round and move
(1-based) and the seat, then says what was wrong; a result that differs names
no position (`round` and `move` null).
"""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.core.errors import IllegalMoveError
from cardtable.core.replay import RuleBreakError
from tests.core.helpers import finished_game, record_with, walk


def rule_break(record: dict[str, Any]) -> RuleBreakError:
    outcome = cardtable.replay(record)
    assert isinstance(outcome.error, RuleBreakError), outcome.error
    assert outcome.exit_code == 1
    return outcome.error


def test_an_illegal_move_names_round_move_seat_and_the_rules_reason() -> None:
    """The wrong seat (one that exists) is a rule break: round 2, move 5."""
    record = finished_game()
    move = record["rounds"][1]["moves"][4]
    wrong = (move["seat"] + 1) % 3
    move["seat"] = wrong
    state = walk(record, 2, 4)
    game = state.game
    _, parsed, _ = game.move_from_json(move, "move")
    with pytest.raises(IllegalMoveError) as info:
        state.apply_as(wrong, parsed)
    error = rule_break(record)
    assert (error.round, error.move, error.seat) == (2, 5, wrong)
    assert error.reason == str(info.value)
    assert str(error) == f"round 2, move 5 (seat {wrong}): {info.value}"
    assert cardtable.replay(record).summary() == {
        "error": {"round": 2, "move": 5, "message": str(error)}
    }


def test_a_move_after_the_end_of_its_round_is_a_rule_break() -> None:
    """Round 1 ends after 22 moves; a 23rd move in it cannot come."""
    record = finished_game()
    extra = record["rounds"][1]["moves"][1]
    record["rounds"][0]["moves"].append(extra)
    error = rule_break(record)
    assert (error.round, error.move, error.seat) == (1, 23, extra["seat"])
    assert str(error) == (
        f"round 1, move 23 (seat {extra['seat']}): the round is over; no move may follow"
    )


def test_a_move_after_the_end_of_the_game_is_a_rule_break() -> None:
    """MT-8.1: the game ends with round 6 (30 moves); no move follows it."""
    record = finished_game()
    record["rounds"][5]["moves"].append({"seat": 2, "play": "R1"})
    error = rule_break(record)
    assert (error.round, error.move, error.seat) == (6, 31, 2)
    assert str(error) == "round 6, move 31 (seat 2): the game is over; no move may follow"


def test_a_round_after_the_end_of_the_game_is_a_rule_break_without_a_move() -> None:
    record = finished_game()
    record["rounds"].append(record["rounds"][0])
    error = rule_break(record)
    assert (error.round, error.move, error.seat) == (7, None, None)
    assert str(error) == "round 7: the game ended in round 6; no round may follow it"


def test_every_round_but_the_last_must_be_complete() -> None:
    record = finished_game()
    del record["rounds"][2]["moves"][10:]
    to_move = walk(record, 3, 10).to_move
    error = rule_break(record)
    assert (error.round, error.move, error.seat) == (3, None, None)
    assert str(error) == (
        f"round 3: round 3 is not complete: seat {to_move} is still to move,"
        " so no new round may start"
    )


# (key, a wrong value, the value the moves give) for the game in helpers.
DIFFERENT_RESULTS = [
    ("finished", False, True),
    ("scores", [15, 22, 19], [15, 22, 18]),
    (
        "round_scores",
        [[4, 2, 0]],
        [[4, 2, 0], [6, 0, 1], [5, 3, 0], [0, 7, 5], [0, 4, 7], [0, 6, 5]],
    ),
    ("winners", [0], [1]),
    ("winners", [1, 2], [1]),
]


@pytest.mark.parametrize(("key", "wrong", "actual"), DIFFERENT_RESULTS)
def test_each_result_field_that_differs_is_a_rule_break_without_position(
    key: str, wrong: Any, actual: Any
) -> None:
    """Each field is compared on its own, whichever others the result holds."""
    assert finished_game()["result"][key] == actual
    for others in ("kept", "dropped"):
        record = record_with(f"result/{key}", wrong)
        if others == "dropped":
            record["result"] = {key: wrong}
        error = rule_break(record)
        assert (error.round, error.move, error.seat) == (None, None, None)
        message = f"result.{key} says {wrong}, but the moves give {actual}"
        assert error.reason == message
        assert str(error) == message


@pytest.mark.parametrize("key", ["finished", "scores", "round_scores", "winners"])
def test_a_result_that_agrees_is_no_rule_break(key: str) -> None:
    record = finished_game()
    record["result"] = {key: record["result"][key]}
    assert cardtable.replay(record).exit_code == 0


def test_winners_compare_as_a_set() -> None:
    """record-format: `winners` as a set — order and repetition do not matter."""
    assert cardtable.replay(record_with("result/winners", [1, 1])).exit_code == 0
