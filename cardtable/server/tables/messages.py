"""What the server says to a client, built only from views and public table facts.

:func:`game_part` is everything that depends on the game: the seat's
``view(seat)``, and for the seat to move its legal moves and the engine's
refusal of each other move of the game's action space
(:func:`cardtable.core.engine.explain`: the rules' own checks, or a trial on
a clone for a plugin on the bare protocol). It reads the state only through
``view``, ``legal_moves`` and ``explain``, so a state whose unseen cards are
swapped gives the same message (the tests check this for every message of
many random games).
"""

from __future__ import annotations

import json
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.core.engine import explain
from cardtable.core.errors import RefusalParam
from cardtable.core.game import Game, State
from cardtable.core.registry import manifest
from cardtable.server.tables.chat import ChatLine
from cardtable.server.tables.outcomes import change_json, final_ranks, outcome_of
from cardtable.server.tables.table import Table
from cardtable.server.tables.takeback import may_ask, takeback_json


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error(
    message: str,
    rule: str | None = None,
    key: str | None = None,
    params: Mapping[str, RefusalParam] | None = None,
    about: str | None = None,
    retry_ms: int | None = None,
) -> str:
    """An ``error`` message; a refusal by the rules also names its ``key`` and
    ``params``, from which a client words it in its reader's language;
    ``about`` names what it answers when that is not a move (``"chat"``), so
    the page shows it there; ``retry_ms`` tells the client to send the same
    message again after that long (the database was away)."""
    body: dict[str, Any] = {
        "type": "error",
        "message": message,
        "rule": rule or None,
        "key": key,
        "params": dict(params) if params else {},
    }
    if about is not None:
        body["about"] = about
    if retry_ms is not None:
        body["retry_ms"] = retry_ms
    return dumps(body)


def chat_message(lines: Sequence[ChatLine], history: bool = False) -> str:
    """The ``chat`` message: new lines, or (``history``) every line a client may
    read, sent as it (re)connects."""
    return dumps({"type": "chat", "history": history, "lines": [line.to_json() for line in lines]})


def chat_removed_message(ns: Sequence[int]) -> str:
    """The ``chat-removed`` message: an operator removed these lines (their numbers)."""
    return dumps({"type": "chat-removed", "lines": list(ns)})


def reported_message(n: int) -> str:
    """The ``reported`` message: this client's report of line ``n`` is stored."""
    return dumps({"type": "reported", "n": n})


def game_part(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """The view-derived part of a ``state`` message for ``seat``."""
    view = state.view(seat).to_json()
    to_move = state.to_move
    legal: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    if seat is not None and seat == to_move:
        moves = state.legal_moves()
        legal = [m.to_json() for m in moves]
        allowed = {m.index for m in moves}
        refused = [
            {
                "move": e.move.to_json(),
                "reason": e.reason,
                "rule": e.rule,
                "key": e.key,
                "params": e.params or {},
            }
            for e in explain(state, seat)
            if not e.legal and e.move.index not in allowed
        ]
    return {
        "seat": seat,
        "view": view,
        "to_move": to_move,
        "legal": legal,
        "refused": refused,
        "finished": state.finished,
        "scores": list(state.scores),
        "winners": list(state.winners),
        "lowest_wins": manifest(game.name).lowest_wins,
    }


def _cached_part(table: Table, seat: int | None) -> dict[str, Any]:
    """:func:`game_part`, computed once per move and seat (other broadcasts reuse it)."""
    if table.parts_seq != table.seq:
        table.parts.clear()
        table.parts_seq = table.seq
    part = table.parts.get(seat)
    if part is None:
        part = table.parts[seat] = game_part(table.game, table.state, seat)
    return part


class RoundEnds:
    """The states at the end of each completed round of a game's stored
    events: the moment after a round's last move, before the next deal (and
    the final state, once the game is over). Summaries are drawn from their
    views.

    It walks the events as they grow: a table's next message costs one step
    per new event, however long the game (replaying every event for every
    message would grow with the game again)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state = game.new_state()
        self.walked = 0  # events applied so far
        self.takebacks = 0  # the journal's take-backs when this walk began
        self.moved = False  # a move since the last deal
        self.ended: list[State] = []
        self.views: dict[int | None, dict[str, Any]] = {}  # of ended[-1], by seat

    def advance(self, events: Sequence[tuple[str, Any]]) -> None:
        game, state = self.game, self.state
        for kind, data in events[self.walked :]:
            if kind == "deal":
                if self.moved:
                    self._ended(state.clone())
                state.deal(game.deal_from_json(data, "deal"))
                self.moved = False
                continue
            mover, move, chance = game.move_from_json(data, "move")
            state.apply_as(mover, move, **chance)
            self.moved = True
        self.walked = len(events)
        if state.finished and self.moved and not (self.ended and self.ended[-1] is state):
            self._ended(state)

    def _ended(self, state: State) -> None:
        self.ended.append(state)
        self.views = {}


def ended_rounds(game: Game, events: Sequence[tuple[str, Any]]) -> list[State]:
    """:attr:`RoundEnds.ended` of a whole list of events."""
    walk = RoundEnds(game)
    walk.advance(events)
    return walk.ended


# table -> its round ends, walked as far as its journal was when last asked
_ROUND_ENDS: weakref.WeakKeyDictionary[Table, RoundEnds] = weakref.WeakKeyDictionary()


def round_end(table: Table, seat: int | None) -> dict[str, Any] | None:
    """``view(seat)`` at the end of the latest completed round (``None`` in the
    first round), so the client can explain that round's scores (who went out,
    the declarer's hand, each best run). Built through ``view`` like the rest of
    the message: it holds only what the seat saw when the round ended."""
    events = table.journal.events
    walk = _ROUND_ENDS.get(table)
    # A take-back removed a walked move: walk again from the start.
    if walk is None or walk.walked > len(events) or walk.takebacks != table.journal.takebacks:
        walk = _ROUND_ENDS[table] = RoundEnds(table.game)
        walk.takebacks = table.journal.takebacks
    walk.advance(events)
    if not walk.ended:
        return None
    view = walk.views.get(seat)
    if view is None:
        view = walk.views[seat] = walk.ended[-1].view(seat).to_json()
    return view


def seats_json(table: Table) -> list[dict[str, Any]]:
    return [
        {
            "seat": i,
            "kind": s.facts.kind,
            "bot": s.facts.bot,
            "name": s.facts.name,
            "taken": s.taken,
            "connected": s.connections > 0,
            "bot_playing": s.stand_in is not None,
            # Turn-based: dropped for running out of time, a bot plays the seat to the end.
            "dropped": s.facts.dropped_ms is not None,
        }
        for i, s in enumerate(table.seats)
    ]


def _timer_json(table: Table) -> dict[str, Any] | None:
    """The move's clock: a real-time turn timer, or a turn-based deadline
    while a person's move is due (counted in hours: ``turn_based``)."""
    server_ms = int(time.time() * 1000)
    timer = table.timer
    if timer is not None:
        return {"seat": timer.seat, "deadline_ms": timer.deadline_ms, "server_ms": server_ms}
    seat, deadline = table.state.to_move, table.facts.deadline_ms
    if table.status != "playing" or seat is None or deadline is None:
        return None
    if table.controller(seat) is not None:
        return None  # a bot moves
    return {"seat": seat, "deadline_ms": deadline, "server_ms": server_ms, "turn_based": True}


def state_message(table: Table, seat: int | None) -> str:
    """The ``state`` message for a client at ``seat`` (``None``: a spectator)."""
    message: dict[str, Any] = {
        "type": "state",
        "table": table.id,
        "game": table.game.name,
        "status": table.status,
        "seq": table.seq,
        **_cached_part(table, seat),
        "round_end": round_end(table, seat),
        "seats": seats_json(table),
        "spectators": table.spectators,
        "timer": _timer_json(table),
        "log": list(table.log),
        "rematch": table.facts.rematch_id,
        # A take-back asked for and still waiting (takeback.py), and whether this seat may ask.
        "takeback": takeback_json(table),
        "may_take_back": may_ask(table, seat),
        # Once a rated game is over: each rated seat's change (rating_rules.change_json).
        "ratings": [change_json(c) for c in table.facts.ratings],
        "ended": None,
        # The tournament whose deal this table plays (tournaments/), if any.
        "tournament": _tournament_json(table),
    }
    ended = table.journal.ended
    if ended is not None:
        message.update(_ended_json(table, ended))
    elif table.status == "finished" and not table.state.finished:
        message.update(_deal_over_json(table))
    return dumps(message)


def _tournament_json(table: Table) -> dict[str, Any] | None:
    """The tournament a table plays a deal of: its id, and its name, the
    deal (from 0) and how many there are where its director has said so."""
    if table.facts.tournament is None:
        return None
    return table.tournament_label or {"id": table.facts.tournament}


def _deal_over_json(table: Table) -> dict[str, Any]:
    """A tournament's table whose deal (its game's first round) is over:
    the table is finished though its game would go on, so ``finished`` is
    true, nobody is to move, and ``winners`` are those with the deal's best
    points (its lowest, in a game whose lowest score wins)."""
    scores = list(table.state.scores)
    best = min(scores) if manifest(table.game.name).lowest_wins else max(scores)
    return {
        "finished": True,
        "to_move": None,
        "legal": [],
        "refused": [],
        "winners": [seat for seat, score in enumerate(scores) if score == best],
    }


def _ended_json(table: Table, ended: dict[str, Any]) -> dict[str, Any]:
    """A turn-based game ended because a person's move time ran out
    (``on_timeout: "end"``): the table is over although its rules did not
    end the game, so ``finished`` is true, nobody is to move, ``ended``
    names the late seat and ``winners`` are those ranked first as the
    ratings rank them (the late person last, the others by their scores)."""
    late = ended["seat"]
    ranks = final_ranks(outcome_of(table, table.state, ended["at_ms"], ran_out=late))
    return {
        "finished": True,
        "to_move": None,
        "legal": [],
        "refused": [],
        "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
        "ended": {"seat": late, "reason": "timeout", "at_ms": ended["at_ms"]},
    }


def table_info(table: Table) -> dict[str, Any]:
    """``GET /api/tables/{id}``: the public facts of a table (no view, no token)."""
    facts = table.facts
    return {
        "id": table.id,
        "game": facts.game,
        "options": table.game.options_json,
        "status": table.status,
        "private": facts.private,
        "rated": facts.rated,
        "turn_seconds": facts.turn_seconds,
        # Turn-based: hours per move (None: real time) and what running out does.
        "move_hours": facts.move_hours,
        "on_timeout": facts.on_timeout,
        "bot_delay_ms": facts.bot_delay_ms,
        "stand_in": facts.stand_in,
        "seq": table.seq,
        "seats": seats_json(table),
        "spectators": table.spectators,
        "rematch": facts.rematch_id,
        "rematch_of": facts.rematch_of,
        # Its people all stayed away, so stand-ins were sent to finish it (lifecycle.py).
        "finished_by_stand_ins": facts.abandoned_ms is not None,
        "url": f"/t/{table.id}",
    }
