"""Stepping through a finished game: the views after any number of moves.

Built from the table's stored events (its record) like ``cardtable replay``,
and offered only once the game is over, when nothing in it is secret any more.
"""

from __future__ import annotations

from typing import Any

from cardtable.core.game import State
from cardtable.server.table import Refused, Table

Seat = int | str | None  # a seat, "all", or None for the spectator's view


def replay_step(table: Table, step: int, seat: Seat) -> dict[str, Any]:
    """``{step, steps, seat, move, view | views}`` after ``step`` moves."""
    if table.status != "finished":
        raise Refused("a replay is shown once the game is over")
    steps = table.seq
    if not 0 <= step <= steps:
        raise Refused(f"step {step} is outside this game: 0 to {steps}")
    n = table.game.num_players
    if isinstance(seat, int) and not 0 <= seat < n:
        raise Refused(f"there is no seat {seat}: seats are 0 to {n - 1}")
    game = table.game
    state = game.new_state()
    done = 0
    last: dict[str, Any] | None = None
    ended: State | None = None  # the end of the latest round completed so far
    moved = False
    for kind, data in table.journal.events:
        if kind == "deal":
            if moved:
                ended = state.clone()
            state.deal(game.deal_from_json(data, "deal"))
            moved = False
            continue
        if done == step:
            break
        mover, move, chance = game.move_from_json(data, "move")
        state.apply_as(mover, move, **chance)
        done += 1
        last = data
        moved = True
    if state.finished:
        ended = state
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
