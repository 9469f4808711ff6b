"""The one record walk (cardtable/core/walk.py): hooks in order, stopping, errors."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.core.game import State
from cardtable.core.replay import parse_record
from cardtable.core.walk import STOP, Flow, RecordedMove, RuleBreakError, Visitor, walk
from tests.core.helpers import finished_game
from tests.core.helpers import walk as walk_by_hand


class Log(Visitor[list[tuple[Any, ...]]]):
    """Every hook as it comes, with where it is."""

    def __init__(self) -> None:
        self.log: list[tuple[Any, ...]] = []

    def begin_game(self, state: State) -> None:
        self.log.append(("begin_game", state.awaiting_deal))

    def begin_round(self, round: int, state: State) -> None:
        self.log.append(("begin_round", round, state.round_number))

    def before_move(self, move: RecordedMove, state: State) -> None:
        self.log.append(("before", move.round, move.move, move.step, state.moves_in_round))

    def after_move(self, move: RecordedMove, state: State) -> None:
        self.log.append(("after", move.step, state.moves_in_round))

    def end_round(self, round: int, state: State) -> None:
        self.log.append(("end_round", round))

    def end_game(self, state: State) -> None:
        self.log.append(("end_game", state.finished))

    def result(self) -> list[tuple[Any, ...]]:
        return self.log


def test_hooks_come_in_record_order_with_rounds_moves_and_steps_counted() -> None:
    record = finished_game()
    log = walk(parse_record(record), Log())
    expected: list[tuple[Any, ...]] = [("begin_game", True)]
    step = 0
    for r, round_ in enumerate(record["rounds"], start=1):
        expected.append(("begin_round", r, r))
        for m in range(1, len(round_["moves"]) + 1):
            # The state before a move has the round's earlier moves applied, and one more after.
            expected += [("before", r, m, step, m - 1), ("after", step, m)]
            step += 1
        expected.append(("end_round", r))
    expected.append(("end_game", True))
    assert log == expected


def test_a_record_that_stops_inside_a_round_ends_that_round_and_the_game() -> None:
    record = finished_game()
    del record["rounds"][2:]
    del record["rounds"][1]["moves"][3:]
    del record["result"]
    log = walk(parse_record(record), Log())
    last_step = len(record["rounds"][0]["moves"]) + 2
    assert log[-3:] == [("after", last_step, 3), ("end_round", 2), ("end_game", False)]


class StopAt(Visitor[State]):
    def __init__(self, step: int) -> None:
        self.step = step
        self.state: State | None = None
        self.after: list[int] = []

    def begin_game(self, state: State) -> None:
        self.state = state

    def before_move(self, move: RecordedMove, state: State) -> Flow | None:
        return STOP if move.step == self.step else None

    def after_move(self, move: RecordedMove, state: State) -> None:
        self.after.append(move.step)

    def end_game(self, state: State) -> None:
        raise AssertionError("a stopped walk has no end")

    def result(self) -> State:
        assert self.state is not None
        return self.state


@pytest.mark.parametrize(("round", "moves"), [(1, 0), (1, 7), (2, 0), (3, 5)])
def test_stop_leaves_the_state_before_that_move(round: int, moves: int) -> None:
    record = finished_game()
    step = sum(len(r["moves"]) for r in record["rounds"][: round - 1]) + moves
    visitor = StopAt(step)
    state = walk(parse_record(record), visitor)
    assert visitor.after == list(range(step))
    assert state.view(None) == walk_by_hand(record, round, moves).view(None)


def test_a_rule_break_propagates_by_default_with_where_it_is() -> None:
    record = finished_game()
    record["rounds"][1]["moves"][4]["seat"] = (record["rounds"][1]["moves"][4]["seat"] + 1) % 3
    with pytest.raises(RuleBreakError) as info:
        walk(parse_record(record), Log())
    assert (info.value.round, info.value.move) == (2, 5)


class Keep(Log):
    def handle_error(self, error: RuleBreakError) -> None:
        self.log.append(("error", error.round, error.move))

    def end_game(self, state: State) -> None:
        raise RuleBreakError("the result differs", round=None, move=None)


def test_a_visitor_that_handles_errors_gets_them_and_the_walk_ends() -> None:
    record = finished_game()
    record["rounds"].append(record["rounds"][0])  # a round after the game's end
    log = walk(parse_record(record), Keep())
    assert log[-2:] == [("end_round", 6), ("error", 7, None)]
    # A fault raised by end_game itself goes the same way.
    log = walk(parse_record(finished_game()), Keep())
    assert log[-2:] == [("end_round", 6), ("error", None, None)]
