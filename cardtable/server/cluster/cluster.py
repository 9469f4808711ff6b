"""This process among others on one PostgreSQL, joined by Redis.

Each live table is served by the one process holding its lease
(:mod:`cardtable.server.db.leases`). This module keeps that true for this
process:

- **Heartbeat** (every third of the lease): renew every lease held; a table
  whose lease is gone (this process was paused past it and another claimed
  it) is let go at once: its clients are told to reconnect. Then claim
  tables whose leases are free (a process stopped and released them) or ran
  out (a process died), and rebuild them from their events as a restart does.
- **A table asked for here** (a socket or request that names it) is
  claimed if free; if another live process holds it, that process is asked
  over Redis (``cardtable:to:<process>``, op ``release``) to hand it over,
  and does so between two moves: all of a table's sockets then meet at the
  process the proxy sends them to (``docs/deployment.md`` routes by table
  id). An owner with sockets of its own at the table keeps it (op ``keep``)
  and the socket is relayed instead (:mod:`cardtable.server.cluster.relay`);
  a seat Play now finds there is asked of it
  (:mod:`cardtable.server.cluster.remote_seats`).
- **A graceful stop** releases every lease after the last write, so the
  tables move without waiting for their leases to run out.

Redis carries those requests and relayed frames (and the lobby's lines and
the quick-match queue this class holds: :mod:`cardtable.server.cluster.open_tables`,
:mod:`cardtable.server.quick.redis_store`): nothing durable lives there, and
while it is down tables still move after a lease runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from cardtable.core.errors import CardtableError
from cardtable.server.cluster.open_tables import SharedLobby
from cardtable.server.cluster.relay import Relays, process_channel
from cardtable.server.cluster.remote_seats import RemoteSeats
from cardtable.server.db.leases import Leases
from cardtable.server.db.storage import LIVE
from cardtable.server.live.hub import Hub, ServedElsewhere, TableMoving
from cardtable.server.live.play import Play
from cardtable.server.quick.redis_store import SharedQueue
from cardtable.server.redis_channel import listen
from cardtable.server.tables.table import Reader, Table

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

log = logging.getLogger(__name__)

CLAIMS_PER_BEAT = 20  # tables one sweep takes over at most: a failover spreads over processes
POLL_SECONDS = 0.05  # how often a table asked for is tried again while it moves
HELD_POLL_SECONDS = 0.25  # …while another process's lease on it runs
ASK_AGAIN_SECONDS = 0.5


class Cluster:
    """Leases, heartbeat and hand-overs of this process's tables."""

    def __init__(self, hub: Hub, play: Play, redis_url: str) -> None:
        storage = hub.storage
        assert storage.owner is not None, "a cluster's storage names its process"
        self.hub, self.play = hub, play
        self.name = storage.owner
        self.lease_seconds = hub.settings.lease_seconds
        self.leases = Leases(storage.engine, self.name, self.lease_seconds)
        self.redis = aioredis.from_url(redis_url)
        # A table whose lease ran out is left this long to the process its
        # people reconnect to (the proxy's choice) before a sweep takes it;
        # at start (no sweep yet) every free table is taken.
        self.idle_seconds = 0.0
        self._tasks: list[asyncio.Task[None]] = []
        self._acquiring: dict[str, asyncio.Lock] = {}
        self._taking: set[str] = set()  # claimed, being rebuilt: not in the hub yet
        self._kept: dict[str, str] = {}  # table -> the process that answered "keep"
        self.relays = Relays(hub, play, self.redis, self.name, self.leases)
        self.seats = RemoteSeats(hub, play, self.redis)
        self.lobby = SharedLobby(hub, self.redis, self.lease_seconds, self.name)
        self.quick = SharedQueue(self.redis)
        hub.owners = self

    async def start(self) -> list[Table]:
        """Claim what is free now; then keep the leases and take requests."""
        taken = await self._claim_free()
        self.idle_seconds = self.lease_seconds
        self.relays.start()
        self.quick.start()
        self._tasks = [
            asyncio.create_task(self._beat(), name="cluster-heartbeat"),
            asyncio.create_task(self._sweep(), name="cluster-claims"),
            asyncio.create_task(
                listen(self.redis, process_channel(self.name), self._on_data),
                name="cluster-handovers",
            ),
        ]
        return taken

    async def stop(self) -> None:
        """After the last write (the caller stopped play): release every lease."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.relays.stop()
        await self.seats.stop()
        await self.quick.stop()
        try:
            await self.leases.release()
        except Exception:  # the database is gone: the leases run out instead
            log.exception("releasing this process's leases failed")
        self.hub.storage.epochs.clear()
        await self.redis.aclose()

    # --- a table asked for here ---------------------------------------------
    async def acquire(self, table_id: str) -> Table | None:
        lock = self._acquiring.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:  # one claim per table at a time in this process
                return await self._acquire(table_id)
        finally:
            if not lock.locked():
                self._acquiring.pop(table_id, None)

    async def _acquire(self, table_id: str) -> Table | None:
        loop = asyncio.get_running_loop()
        # Long enough for a dead holder's lease to run out, and a little more.
        deadline = loop.time() + self.lease_seconds + 2
        asked_at = -ASK_AGAIN_SECONDS
        while True:
            if (held := self.hub.tables.get(table_id)) is not None:
                return held  # the heartbeat took it meanwhile
            claimed = await self.leases.claim(table_id)
            if claimed:
                return await self._take(table_id, claimed[table_id])
            status, holder, left = await self.leases.status(table_id)
            if status not in LIVE:
                return None  # finished, expired or unknown: read from the database
            # Asked again now and then: a request can be lost (Redis restarting,
            # the holder still subscribing).
            if holder is not None and self._kept.get(table_id) == holder:
                del self._kept[table_id]
                raise ServedElsewhere(table_id, holder)
            again = loop.time() - asked_at >= ASK_AGAIN_SECONDS
            if holder is not None and holder != self.name and again:
                await self._ask_release(holder, table_id)
                asked_at = loop.time()
            if loop.time() > deadline:
                raise TableMoving(table_id)
            # Held: look again when its lease runs out, or soon after asking
            # for it (a hand-over takes one move's time); a free lease that
            # another claim holds for a moment: at once.
            await asyncio.sleep(POLL_SECONDS if holder is None else min(left, HELD_POLL_SECONDS))

    async def _ask_release(self, holder: str, table_id: str) -> None:
        try:
            await self.relays.send(holder, {"op": "release", "table": table_id, "from": self.name})
        except (RedisError, OSError) as exc:  # then its lease must run out first
            log.warning("cannot ask %s for table %s over Redis: %s", holder, table_id, exc)

    async def _take(self, table_id: str, epoch: int) -> Table | None:
        """Rebuild ``table_id``, claimed at ``epoch``, and serve it from now."""
        storage = self.hub.storage
        storage.epochs[table_id] = epoch
        self._taking.add(table_id)
        try:
            stored = await storage.load(table_id)
            if stored is None or stored.facts.status not in LIVE:
                raise CardtableError("it is not live any more")
            await storage.unpark(table_id)  # if it was parked: before any move is made
            table = await self.hub.adopt(stored)
        except Exception:
            log.exception("table %s: cannot take it over; giving its lease back", table_id)
            storage.epochs.pop(table_id, None)
            with contextlib.suppress(Exception):
                await self.leases.release([table_id])
            return None
        finally:
            self._taking.discard(table_id)
        self.play.review(table)
        return table

    async def wake(self, table_id: str) -> Table | None:
        lock = self._acquiring.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                if (held := self.hub.tables.get(table_id)) is not None:
                    return held
                claimed = await self.leases.claim(table_id)
                if not claimed:
                    return None  # another process holds it (and wakes it)
                return await self._take(table_id, claimed[table_id])
        finally:
            if not lock.locked():
                self._acquiring.pop(table_id, None)

    async def seat_at(self, holder: str, table_id: str, seat: int, name: str) -> str:
        return await self.seats.take(holder, table_id, seat, name)

    async def parked(self, table_id: str) -> None:
        await self.leases.release([table_id])

    async def tables_page(self, query: Mapping[str, str]) -> dict[str, Any]:
        return await self.lobby.tables_page(query)

    async def online(self) -> int:
        return await self.lobby.online()

    async def live_lines(self, ids: list[str]) -> list[dict[str, Any]]:
        return await self.lobby.live_lines(ids)

    # --- heartbeat ------------------------------------------------------------
    async def _beat(self) -> None:
        # A task of its own: taking tables over (a failover's burst of
        # rebuilds) never delays the renewal of the leases already held.
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await self._renew()
            except Exception:  # the database is away: try again at the next beat
                log.exception("lease heartbeat failed")
            try:
                await self.lobby.publish()
            except RedisError:  # Redis is away: the lines expire, each lists its own
                log.warning("writing the lobby's lines to Redis failed")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                self.play.start(await self._claim_free())
            except Exception:
                log.exception("claiming free tables failed")

    async def _renew(self) -> None:
        epochs = self.hub.storage.epochs
        # What was held before the renewal: a table claimed while it runs is
        # missing from its answer without being lost.
        before = dict(epochs)
        held = await self.leases.renew()
        for table_id, epoch in before.items():
            if epochs.get(table_id) != epoch or table_id in self._taking:
                continue  # let go, claimed again or being rebuilt meanwhile
            table = self.hub.tables.get(table_id)
            if held.get(table_id) != epoch:
                log.warning("table %s: its lease went to another process", table_id)
                if table is not None:
                    self.play.let_go(table)
                epochs.pop(table_id, None)
            elif table is None or table.status not in LIVE:
                epochs.pop(table_id, None)  # finished or out of memory: no lease needed
                await self.leases.release([table_id])

    async def _claim_free(self) -> list[Table]:
        taken = []
        free = await self.leases.claim(limit=CLAIMS_PER_BEAT, idle_seconds=self.idle_seconds)
        for table_id, epoch in free.items():
            table = await self._take(table_id, epoch)
            if table is not None:
                taken.append(table)
        return taken

    # --- hand-overs -------------------------------------------------------------
    async def _on_data(self, data: bytes) -> None:
        await self._on_message(json.loads(data))

    async def _on_message(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == "release":
            await self._hand_over(str(message.get("table")), str(message.get("from")))
        elif op == "keep":
            self._kept[str(message.get("table"))] = str(message.get("from"))
        elif op == "seat":
            self.seats.on_seat(message)
        else:
            await self.relays.on_message(message)

    async def relay(
        self,
        ws: WebSocket,
        table_id: str,
        token: str | None,
        address: str,
        holder: str,
        reader: Reader,
    ) -> None:
        await self.relays.relay(ws, table_id, token, address, holder, reader)

    async def _hand_over(self, table_id: str, asker: str) -> None:
        """Let ``asker`` have ``table_id``: between two moves, so that every
        write of this process is in before the lease is given back. A table
        with sockets here stays: ``asker`` relays its socket instead."""
        table = self.hub.tables.get(table_id)
        if table is None:
            return
        if table.clients:
            await self.relays.send(asker, {"op": "keep", "table": table_id, "from": self.name})
            return
        async with table.lock:
            if self.hub.tables.get(table_id) is not table:
                return
            self.play.let_go(table)
            await self.leases.release([table_id])
