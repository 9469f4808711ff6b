"""Taking back a move at a friendly table: when it may be asked, and the
state it returns to (``docs/server.md``, "Take-backs").

A person may take back their last move while nobody has moved since, once
every other person at the table accepted (bots and stand-ins accept at
once). The table returns to the state before the move, rebuilt from the
record without it, which every seat has seen already: a move that drew on
chance, that a deal followed, or that showed the asker something hidden
(a card drawn from a stock the deal fixed) is never taken back, so nobody
can look at a card and try again. Rated tables never allow it.
"""

from __future__ import annotations

import random
import time
from typing import Any

from cardtable.core.errors import RefusalParam
from cardtable.core.game import State
from cardtable.core.registry import manifest
from cardtable.core.replay import load_record
from cardtable.server.tables.journal import TAKEBACK, Event, Journal
from cardtable.server.tables.table import Refused, Table

DEFAULT_SECONDS = 60  # how long the others have to answer where the table has no turn timer
SAMPLES = 8  # resampled hidden cards tried before a move counts as showing nothing new


def _refused(key: str, message: str, **params: RefusalParam) -> Refused:
    """A refusal the browser words from its catalog (``key``, ``params``)."""
    return Refused(message, key=f"takeback.{key}", params=params)


def _last_move(table: Table, seat: int) -> dict[str, Any]:
    """The record JSON of ``seat``'s move that may be taken back, or why none may."""
    events = table.journal.events
    moves = [data for kind, data in events if kind == "move"]
    if not moves:
        raise _refused("nothing", "there is no move to take back yet")
    last = moves[-1]
    if last.get("seat") != seat:
        raise _refused(
            "moved", "only the last move can be taken back, and it is not yours", seat=seat
        )
    if events[-1][0] != "move":
        raise _refused("deal", "a new deal followed your move: it can no longer be taken back")
    return last


def undone_state(table: Table, seat: int | None, rng: random.Random) -> State:
    """The table's state without ``seat``'s last move, or :class:`Refused`
    saying why that move may not be taken back; ``rng`` resamples hidden
    cards for the secrecy check and deals the rebuilt state's next rounds."""
    if seat is None:
        raise _refused("spectator", "spectators have no move to take back")
    if table.facts.rated:
        raise _refused("rated", "moves are never taken back at a rated table")
    if table.facts.tournament is not None:  # the other tables play the same cards without one
        raise _refused("tournament", "moves are never taken back in a tournament")
    if table.status != "playing":
        raise _refused("over", "no take-back now: the game is not being played")
    if table.takeback is not None:
        raise _refused("pending", "a take-back is already waiting for its answers")
    last = _last_move(table, seat)
    game = table.game
    _, move, chance = game.move_from_json(last, "move")
    if chance:
        raise _refused("chance", "your move drew on chance: it can no longer be taken back")
    standing = Journal(table.journal.events[:-1])
    before = load_record(standing.record(game.name, game.options_json), rng)
    _check_nothing_shown(table, before, seat, move, rng)
    return before


def _check_nothing_shown(
    table: Table, before: State, seat: int, move: Any, rng: random.Random
) -> None:
    """Refuse unless the move showed ``seat`` nothing hidden: played from
    states that match what the seat saw before it, with the hidden cards
    resampled, it must leave the seat the same view each time."""
    found = manifest(table.game.name)
    if not found.has("determinize"):
        raise _refused("unchecked", "this game cannot check that a take-back reveals nothing")
    determinize = found.part("determinize")
    seen = table.state.view(seat).to_json()
    view = before.view(seat)
    for _ in range(SAMPLES):
        twin: State = determinize(table.game, view, rng)
        try:
            twin.apply_as(seat, move)
        except Exception:  # a twin the move does not fit: it depended on a hidden card
            twin = before  # counts as showing something (its view differs below)
        if twin.view(seat).to_json() != seen:
            raise _refused("hidden", "your move showed you a hidden card: it cannot be taken back")


def takeback_event(seat: int) -> Event:
    """The event stored for a take-back by ``seat`` (``journal.py`` reads it)."""
    return (TAKEBACK, {"seat": seat})


def adopt_takeback(table: Table, before: State, new: list[Event]) -> None:
    """Make ``before`` (from :func:`undone_state`) the table's state, its
    take-back event ``new`` having been stored."""
    table.state = before
    table.journal.commit(new)


def answer_seconds(table: Table) -> int:
    """How long the others have to accept: the turn timer, or a minute."""
    return table.facts.turn_seconds or DEFAULT_SECONDS


def may_ask(table: Table, seat: int | None) -> bool:
    """Whether the browser offers ``seat`` a take-back now (a cheap look; the
    server's full check, :func:`undone_state`, may still refuse it)."""
    events = table.journal.events
    return (
        seat is not None
        and not table.facts.rated
        and table.facts.tournament is None
        and table.status == "playing"
        and table.takeback is None
        and bool(events)
        and events[-1][0] == "move"
        and events[-1][1].get("seat") == seat
    )


def takeback_json(table: Table) -> dict[str, Any] | None:
    """The pending request as the ``state`` message shows it, or ``None``."""
    asked = table.takeback
    if asked is None:
        return None
    return {
        "seat": asked.seat,
        "waiting": sorted(asked.waiting),
        "deadline_ms": asked.deadline_ms,
        "server_ms": int(time.time() * 1000),
    }
