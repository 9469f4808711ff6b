"""Stepping through a finished game: the views after any number of moves.

Built from the table's stored events (its record) by the record walk
``cardtable replay`` makes (:mod:`cardtable.core.walk`), and offered only
once the game is over, when nothing in it is secret any more.
"""

from __future__ import annotations

from typing import Any

from cardtable.core.game import State
from cardtable.core.replay import parse_record
from cardtable.core.walk import STOP, Flow, RecordedMove, Visitor, walk
from cardtable.server.tables.table import Refused, Table

Seat = int | str | None  # a seat, "all", or None for the spectator's view


def replay_step(table: Table, step: int, seat: Seat) -> dict[str, Any]:
    """``{step, steps, seat, move, view | views}`` after ``step`` moves."""
    if table.status != "finished":
        raise Refused("a replay is shown once the game is over")
    steps = table.journal.moves  # the moves that stand (a take-back removed its move)
    if not 0 <= step <= steps:
        raise Refused(f"step {step} is outside this game: 0 to {steps}")
    n = table.game.num_players
    if isinstance(seat, int) and not 0 <= seat < n:
        raise Refused(f"there is no seat {seat}: seats are 0 to {n - 1}")
    events = table.journal.events
    parsed = parse_record(table.journal.record(table.game.name, table.game.options_json))
    walked = _StepTo(step)
    state = walk(parsed, walked)
    ended = state if state.finished else walked.ended
    moves = [data for kind, data in events if kind == "move"]
    last = moves[step - 1] if step else None
    out: dict[str, Any] = {"step": step, "steps": steps, "seat": seat, "move": last}
    # The round summary of the replay: as at the table, the latest completed
    # round as the chosen seat saw it when it ended (all hands open for "all").
    viewer = seat if isinstance(seat, int) else None
    out["round_end"] = None if ended is None else ended.view(viewer).to_json()
    if seat == "all":
        out["views"] = [state.view(s).to_json() for s in range(n)]
    else:
        out["view"] = state.view(seat if isinstance(seat, int) else None).to_json()
    return out


class _StepTo(Visitor[State]):
    """Walks the record up to its move number ``step`` (0-based), not played:
    the state after ``step`` moves, and after the deal of a round that
    begins just then."""

    def __init__(self, step: int) -> None:
        self.step = step
        self.state: State | None = None
        self.ended: State | None = None  # the end of the latest round completed so far
        self._round_end: State | None = None  # the end of the round walked last

    def begin_round(self, round: int, state: State) -> None:
        # A new deal: the round walked before it is complete.
        self.ended = self._round_end

    def end_round(self, round: int, state: State) -> None:
        self._round_end = state.clone()

    def begin_game(self, state: State) -> None:
        self.state = state

    def before_move(self, move: RecordedMove, state: State) -> Flow | None:
        return STOP if move.step == self.step else None

    def result(self) -> State:
        assert self.state is not None  # begin_game comes first
        return self.state
