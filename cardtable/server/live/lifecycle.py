"""Keeping the lobby clean: waiting tables expire, deserted games end.

Every ``sweep_seconds`` (``serve --sweep-seconds``, 30 unless set; and
whenever a test calls :meth:`Lifecycle.sweep`)
each live table is looked at against the settings' clock
(:attr:`cardtable.server.guard.limits.Limits.clock`):

- a table still waiting for players ``waiting_seconds`` after it was made,
  none of its people connected, expires: it is stored as ``expired``, leaves
  memory and the lobby, and no seat of it can be taken any more;
- a playing table whose people are all disconnected is paused (it does not
  move, :meth:`cardtable.server.live.play.Play.review`) and not listed; once they
  have all been away ``abandoned_seconds``, its stand-in bot takes every
  absent seat and plays the game to its end, and the table stores when this
  began (``abandoned_ms``), so its page and record say it was finished so.
  Anyone who comes back takes their seat back as usual.

A turn-based table (``move_hours``) is never deserted: its people come and
go. When the person to move is past their deadline (when their turn began
plus the table's hours per move), :meth:`Play.on_deadline` does what the
table chose. One nobody has open is parked (it leaves memory), and parked
ones come back when their deadline nears (:mod:`cardtable.server.live.parking`).
A turn-based table waiting for people expires after
:data:`TURN_BASED_WAITING_SECONDS` instead: invited friends may answer a
day later.

How long a table has been deserted is counted from when this process first
saw it so; after a restart the count starts again, which can only delay
(never hasten) an ending.
"""

from __future__ import annotations

import logging

from cardtable.server.db.storage import unreachable
from cardtable.server.guard.limits import WINDOW
from cardtable.server.live.hub import Hub
from cardtable.server.live.parking import Parking
from cardtable.server.live.play import Play
from cardtable.server.periodic import Periodic
from cardtable.server.tables.table import Table

log = logging.getLogger(__name__)

ABANDONED = "abandoned"  # a Seat.stand_in reason: everyone left, stand-ins finish the game
TURN_BASED_WAITING_SECONDS = 7 * 24 * 3600.0  # a week for a turn-based table's seats to fill


class Lifecycle:
    """The sweeps of one server process."""

    def __init__(self, hub: Hub, play: Play) -> None:
        self.hub = hub
        self.play = play
        self.deserted_since: dict[str, float] = {}  # table id -> clock time first seen deserted
        self.parking = Parking(hub, play)
        every = hub.settings.limits.sweep_seconds
        self._sweeps = Periodic(every, self.sweep, "the lobby sweep", outage=unreachable)

    @property
    def clock_now(self) -> float:
        return self.hub.settings.limits.clock()

    async def start(self) -> None:
        """Recall the last minute's creates (the create limit), sweep now (a
        restart resumes the stand-ins of deserted games), then every
        ``sweep_seconds``."""
        since_ms = int((self.clock_now - WINDOW) * 1000)
        self.hub.gate.remember_creates(await self.hub.storage.recent_creators(since_ms))
        await self.sweep()
        self._sweeps.start()

    async def stop(self) -> None:
        await self._sweeps.stop()

    async def sweep(self) -> None:
        """Expire, pause and end tables as the clock says (see the module)."""
        now = self.clock_now
        await self.parking.wake_due(now)  # then acted on below, as every table here
        for table in list(self.hub.tables.values()):
            if table.status == "waiting":
                await self._expire_if_old(table, now)
            elif table.status == "playing" and table.facts.turn_based:
                await self.play.on_deadline(table)
                self.play.watch(table)  # a deadline an hour away (accounts/notices.py)
                await self.parking.park_if_idle(table, now)
            elif table.status == "playing" and table.has_humans:
                await self._end_if_deserted(table, now)
            else:
                self.deserted_since.pop(table.id, None)
        for gone in self.deserted_since.keys() - self.hub.tables.keys():
            del self.deserted_since[gone]  # left memory some other way
        self.parking.forget(set(self.hub.tables))

    async def _expire_if_old(self, table: Table, now: float) -> None:
        waiting = self.hub.settings.limits.waiting_seconds
        if table.facts.turn_based:
            waiting = max(waiting, TURN_BASED_WAITING_SECONDS)
        if now - table.facts.created_ms / 1000 < waiting:
            return
        if table.humans_present:  # someone sits there waiting for the others: not yet
            return
        async with table.lock:
            if table.status != "waiting":  # the last seat was taken meanwhile
                return
            await self.hub.storage.set_table(table.id, status="expired")
            table.facts.status = "expired"
        self.play.changed(table)
        if not table.clients:
            self.hub.tables.pop(table.id, None)

    async def _end_if_deserted(self, table: Table, now: float) -> None:
        if table.humans_present:
            self.deserted_since.pop(table.id, None)
            return
        if table.facts.abandoned_ms is None:
            since = self.deserted_since.setdefault(table.id, now)
            if now - since < self.hub.settings.limits.abandoned_seconds:
                return
            abandoned_ms = int(now * 1000)
            await self.hub.storage.set_table(table.id, abandoned_ms=abandoned_ms)
            table.facts.abandoned_ms = abandoned_ms
            self.deserted_since.pop(table.id, None)
        # Also after a restart: every absent seat gets its stand-in again.
        absent = [
            i
            for i, seat in enumerate(table.seats)
            if seat.human and not seat.connections and seat.stand_in is None
        ]
        for i in absent:
            table.seats[i].stand_in = ABANDONED
            table.note("stand_in", i)
        if absent:
            self.play.changed(table)
