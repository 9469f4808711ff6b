"""The lobby's open tables when several processes share the database: every
process lists every table, not only the ones it serves.

Which tables, in which order, comes from PostgreSQL, the one truth: tables
waiting or playing, public, whose lease runs (some live process serves
them), newest first, filtered by game and player count, past the cursor.
What a line says that only the owner knows — who is connected, how many
watch, the move number, and whether the table is listed at all (a game
whose people all left is paused, and hidden) — each owner writes to Redis
at every heartbeat: ``cardtable:lobby:<table id>``, the table's lobby line
as one process lists it, expiring after three leases (a dead owner's lines
go with it). A table of another process shows once its owner has written
its line, within a third of the lease; this process's own tables come from
memory, as with one process. Each process writes, at the same beat, how many
sockets its tables have open (``cardtable:online:<process>``, expiring
likewise): the lobby's count of people online is their sum. Redis holds
nothing durable: while it is away each process lists and counts its own
tables only.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from sqlalchemy import text

from cardtable.server.db.storage import DB_NOW_MS, LIVE
from cardtable.server.live.hub import Hub
from cardtable.server.tables.listing import Entry, entries, entry, filters, listed, online, page

log = logging.getLogger(__name__)

KEY = "cardtable:lobby:"
ONLINE_KEY = "cardtable:online:"
# Rows read from the database for one page: some of them are another
# process's paused tables (not listed), so more than a page is looked at.
ROWS_PER_PAGE = 4

_OPEN = f"""
SELECT t.id, t.created_ms FROM ct_tables t JOIN ct_leases l ON l.table_id = t.id
WHERE t.status IN ('waiting', 'playing') AND NOT t.private
  AND l.owner IS NOT NULL AND l.expires_ms >= {DB_NOW_MS}
  AND (CAST(:game AS TEXT) IS NULL OR t.game = :game)
  AND (CAST(:players AS INTEGER) IS NULL
       OR (SELECT count(*) FROM ct_seats s WHERE s.table_id = t.id) = :players)
  AND (CAST(:rated AS BOOLEAN) IS NULL OR t.rated = :rated)
  AND (CAST(:status AS TEXT) IS NULL OR t.status = :status)
  AND (CAST(:after_ms AS BIGINT) IS NULL OR (t.created_ms, t.id) < (:after_ms, :after_id))
ORDER BY t.created_ms DESC, t.id DESC
LIMIT :rows
"""


class SharedLobby:
    """This process's part of the lobby across processes."""

    def __init__(self, hub: Hub, redis: aioredis.Redis, lease_seconds: float, name: str) -> None:
        self.hub = hub
        self.redis = redis
        self.expire_ms = int(lease_seconds * 3000)
        self.name = name  # this process's, as its leases name it

    async def publish(self) -> None:
        """Write the lobby line of every live table this process serves."""
        held = self.hub.storage.epochs
        lines = self.redis.pipeline(transaction=False)
        for table in self.hub.tables.values():
            if table.id in held and table.status in LIVE:
                line = {"listed": listed(table), "line": entry(table)}
                lines.set(KEY + table.id, json.dumps(line), px=self.expire_ms)
        lines.set(ONLINE_KEY + self.name, online(self.hub.tables.values()), px=self.expire_ms)
        await lines.execute()

    async def online(self) -> int:
        """Sockets open at every process's tables: each other process's count
        as it last wrote it, this process's own as it is now."""
        here = online(self.hub.tables.values())
        try:
            keys = [k async for k in self.redis.scan_iter(match=ONLINE_KEY + "*", count=100)]
            counts = await self.redis.mget(keys) if keys else []
        except RedisError:
            log.warning("Redis is away: the lobby counts this process's people only")
            return here
        mine = (ONLINE_KEY + self.name).encode()
        others = [int(c) for k, c in zip(keys, counts, strict=True) if k != mine and c is not None]
        return here + sum(others)

    async def tables_page(self, query: Mapping[str, str]) -> dict[str, Any]:
        """``GET /api/tables`` over every process's tables."""
        wanted = filters(query)
        found: list[Entry] = entries(self.hub.tables.values(), wanted)
        rows_wanted = wanted.limit * ROWS_PER_PAGE
        after_ms, after_id = wanted.after or (None, None)
        async with self.hub.storage.engine.connect() as conn:
            result = await conn.execute(
                text(_OPEN),
                {
                    "game": wanted.game,
                    "players": wanted.players,
                    "rated": wanted.rated,
                    "status": wanted.status,
                    "after_ms": after_ms,
                    "after_id": after_id,
                    "rows": rows_wanted,
                },
            )
            rows = [(r[1], r[0]) for r in result.all()]
        others = [key for key in rows if key[1] not in self.hub.tables]
        found += await self._lines(others)
        if len(rows) < rows_wanted:
            return page(found, wanted.limit)
        # Tables older than the last row read were not looked at: the page
        # ends there (this process's own ones included), the next goes on.
        boundary = rows[-1]
        return page([e for e in found if e[0] >= boundary], wanted.limit, boundary)

    async def live_lines(self, ids: list[str]) -> list[dict[str, Any]]:
        """The lobby lines of those of ``ids`` that are live, listed or not
        (``GET /api/live-tables``): this process's from memory, others' as
        their owners last wrote them."""
        here = [entry(t) for i in ids if (t := self.hub.tables.get(i)) and t.status in LIVE]
        others = [i for i in ids if i not in self.hub.tables]
        if not others:
            return here
        try:
            stored = await self.redis.mget([KEY + table_id for table_id in others])
        except RedisError:
            log.warning("Redis is away: a person's tables of other processes are not shown")
            return here
        return here + [json.loads(raw)["line"] for raw in stored if raw is not None]

    async def _lines(self, keys: list[tuple[int, str]]) -> list[Entry]:
        """Other processes' lobby lines of ``keys`` that they list."""
        if not keys:
            return []
        try:
            stored = await self.redis.mget([KEY + table_id for _, table_id in keys])
        except RedisError:
            log.warning("Redis is away: the lobby lists this process's tables only")
            return []
        found = []
        for key, raw in zip(keys, stored, strict=True):
            if raw is not None and (line := json.loads(raw))["listed"]:
                found.append((key, line["line"]))
        return found
