"""Turn-based games at rest: out of memory while nobody has them open.

A turn-based game lasts days, and its people look in now and then. Held in
memory all that time, a few thousand of them would fill a server; at rest they
cost their rows in the database only. Each lobby sweep
(:mod:`cardtable.server.live.lifecycle`) parks a turn-based table that

- plays, and waits for a person's move (no bot, stand-in or takeback is
  pending: nothing would happen at it meanwhile),
- has had no socket open for ``Limits.park_seconds`` (five minutes: a person
  who closes the tab and comes back finds it warm),
- and whose deadline is more than :data:`WAKE_BEFORE_MS` away.

Parking stores a ``ct_parked`` row, fenced by the table's lease like a move
(a process that lost the table cannot park it): when the table is due back
(an hour before its deadline, when "an hour left" is mailed) and its lobby
line, which "My games" and "Your turn" show meanwhile. Then the table leaves
memory and, with several processes, its lease is given back; the others'
sweeps pass a parked table over.

It comes back like a table after a restart, rebuilt from its record, when

- someone asks for it (a socket, its page, a request: :meth:`Hub.get`), or
- it falls due: each sweep wakes the due ones (:meth:`Parking.wake_due`);
  with several processes one claims it and the others pass it over.

The process that brings a table back deletes its row before it serves it,
so no move is ever made at a table that also reads as parked.
"""

from __future__ import annotations

import logging

from cardtable.server.live.hub import Hub, TableMoving
from cardtable.server.live.play import Play
from cardtable.server.tables.facts import HOUR_LEFT_MS
from cardtable.server.tables.listing import entry
from cardtable.server.tables.table import Table

log = logging.getLogger(__name__)

WAKE_BEFORE_MS = HOUR_LEFT_MS  # back in memory when "an hour left" is told
WAKES_PER_QUERY = 200  # due tables read at once; a sweep reads until none is left


def due_back_ms(table: Table, now_ms: int) -> int | None:
    """When parked ``table`` must come back, if it may be parked now (see the
    module; sockets and idle time aside)."""
    facts = table.facts
    seat = table.state.to_move
    deadline = facts.deadline_ms
    if not facts.turn_based or table.status != "playing" or seat is None or deadline is None:
        return None
    if table.controller(seat) is not None or table.takeback is not None:
        return None  # a bot or stand-in moves next, or people answer a takeback
    if table.overdue is not None:  # a stand-in's move for a late person is on its way
        return None
    due = deadline - WAKE_BEFORE_MS
    return due if due > now_ms else None


class Parking:
    """Which of this process's turn-based tables rest, and waking them."""

    def __init__(self, hub: Hub, play: Play) -> None:
        self.hub = hub
        self.play = play
        self.unwatched_since: dict[str, float] = {}  # table id -> clock time first seen so

    async def park_if_idle(self, table: Table, now: float) -> bool:
        """Park ``table`` if it may rest and nobody had it open for the
        settings' ``park_seconds``; whether it did."""
        if table.clients or due_back_ms(table, int(now * 1000)) is None:
            self.unwatched_since.pop(table.id, None)
            return False
        since = self.unwatched_since.setdefault(table.id, now)
        if now - since < self.hub.settings.limits.park_seconds:
            return False
        async with table.lock:  # between two writes, and after the last one
            due = due_back_ms(table, int(now * 1000))
            if table.clients or due is None or self.hub.tables.get(table.id) is not table:
                return False
            await self.hub.storage.park(table.id, due, entry(table), int(now * 1000))
            self.play.let_go(table)
        self.unwatched_since.pop(table.id, None)
        if self.hub.owners is not None:
            await self.hub.owners.parked(table.id)
        return True

    async def wake_due(self, now: float) -> list[Table]:
        """Bring back every parked table due by ``now`` (those another
        process takes are passed over); the ones this process now holds."""
        woken: list[Table] = []
        tried: set[str] = set()
        while True:
            due = await self.hub.storage.parked_due(int(now * 1000), WAKES_PER_QUERY + len(tried))
            fresh = [table_id for table_id in due if table_id not in tried]
            if not fresh:
                return woken
            for table_id in fresh:
                tried.add(table_id)
                try:
                    table = await self.hub.wake(table_id)
                except TableMoving:
                    continue  # another process is bringing it back
                if table is not None:
                    woken.append(table)

    def forget(self, live: set[str]) -> None:
        """Drop what is kept of tables that left memory some other way."""
        for gone in self.unwatched_since.keys() - live:
            del self.unwatched_since[gone]
