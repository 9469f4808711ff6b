"""Table leases in PostgreSQL: which server process owns which table.

A process owns a table while its row in ``ct_leases`` names it and has not
run out (``expires_ms``, on the database's clock). Claiming takes rows that
are free (no owner) or expired with ``SELECT … FOR UPDATE SKIP LOCKED`` —
two processes claiming at once never wait on each other, and never take the
same row — and adds one to the row's **epoch**. Every write about the table
carries the epoch (:class:`cardtable.server.db.storage.Storage`), so after a
claim the previous owner's writes are refused however late they come: a
process paused past its lease (``SIGSTOP``, a long GC, a network split)
cannot write over its successor's moves.

Only tables that are waiting or playing are claimed: a finished table is
read-only, any process may show it. A sweep's claim passes over a parked
turn-based table (``ct_parked``, :mod:`cardtable.server.live.parking`): it
is claimed by name only, when someone asks for it or it falls due.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterable

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from cardtable.server.db.storage import DB_NOW_MS

# Claim: free or expired leases of live tables, oldest expiry first, taken
# row by row past those another transaction holds.
_CLAIM = f"""
WITH free AS (
    SELECT l.table_id FROM ct_leases l JOIN ct_tables t ON t.id = l.table_id
    WHERE t.status IN ('waiting', 'playing')
      AND (l.expires_ms < {DB_NOW_MS} - :idle_ms OR (l.owner IS NULL AND :idle_ms = 0))
      AND (CAST(:table_id AS TEXT) IS NULL OR l.table_id = :table_id)
      AND (CAST(:table_id AS TEXT) IS NOT NULL
           OR NOT EXISTS (SELECT 1 FROM ct_parked p WHERE p.table_id = l.table_id))
    ORDER BY l.expires_ms
    LIMIT :limit
    FOR UPDATE OF l SKIP LOCKED
)
UPDATE ct_leases SET owner = :owner, epoch = ct_leases.epoch + 1,
    expires_ms = {DB_NOW_MS} + :lease_ms
FROM free WHERE ct_leases.table_id = free.table_id
RETURNING ct_leases.table_id, ct_leases.epoch
"""
# Rows locked in table order, as a write's fence locks them (no deadlock).
_RENEW = f"""
UPDATE ct_leases SET expires_ms = {DB_NOW_MS} + :lease_ms
WHERE table_id IN (
    SELECT table_id FROM ct_leases WHERE owner = :owner ORDER BY table_id FOR UPDATE
)
RETURNING table_id, epoch
"""
_RELEASE = f"UPDATE ct_leases SET owner = NULL, expires_ms = {DB_NOW_MS} WHERE owner = :owner"
_STATUS = f"""
SELECT t.status, CASE WHEN l.expires_ms >= {DB_NOW_MS} THEN l.owner END,
    l.expires_ms - {DB_NOW_MS}
FROM ct_tables t LEFT JOIN ct_leases l ON l.table_id = t.id WHERE t.id = :table_id
"""


def process_name() -> str:
    """A name no other process of the deployment has: host, pid and a random tail."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"


class Leases:
    """This process's side of ``ct_leases``: claim, renew, release."""

    def __init__(self, engine: AsyncEngine, owner: str, lease_seconds: float) -> None:
        self.engine = engine
        # Claims, renewals and releases are one statement each, run outside a
        # transaction so that PostgreSQL commits them as they end: the lease
        # rows they lock are free again at once, not a round trip (and a turn
        # of this process's event loop) later when a COMMIT would arrive. The
        # appends fenced on those rows wait that much less (docs/server.md).
        self.statements = engine.execution_options(isolation_level="AUTOCOMMIT")
        self.owner = owner
        self.lease_ms = int(lease_seconds * 1000)

    async def claim(
        self, table_id: str | None = None, limit: int = 100, idle_seconds: float = 0.0
    ) -> dict[str, int]:
        """Claim ``table_id`` (or up to ``limit`` tables) if free or expired;
        {table id: the new epoch} of those now this process's. With
        ``idle_seconds``, only leases that ran out (or were released) at
        least that long ago: a sweep leaves a moving table to the process its
        people reconnect to, and takes the ones nobody asks for."""
        async with self.statements.connect() as conn:
            rows = await conn.execute(
                text(_CLAIM),
                {
                    "table_id": table_id,
                    "limit": limit,
                    "idle_ms": int(idle_seconds * 1000),
                    "owner": self.owner,
                    "lease_ms": self.lease_ms,
                },
            )
            return {r[0]: r[1] for r in rows.all()}

    async def renew(self) -> dict[str, int]:
        """Extend every lease this process holds; {table id: epoch} of them
        (a table missing from it was lost)."""
        async with self.statements.connect() as conn:
            rows = await conn.execute(
                text(_RENEW), {"owner": self.owner, "lease_ms": self.lease_ms}
            )
            return {r[0]: r[1] for r in rows.all()}

    async def release(self, table_ids: Iterable[str] | None = None) -> None:
        """Give up the leases of ``table_ids`` (None: all of them) at once, so
        another process claims those tables without waiting for them to run out."""
        query = _RELEASE
        params: dict[str, object] = {"owner": self.owner}
        if table_ids is not None:
            ids = list(table_ids)
            if not ids:
                return
            query += " AND table_id = ANY(:ids)"
            params["ids"] = ids
        async with self.statements.connect() as conn:
            await conn.execute(text(query), params)

    async def status(self, table_id: str) -> tuple[str | None, str | None, float]:
        """(the table's status, the process whose lease on it runs now, the
        seconds that lease has left); None for a table that does not exist,
        or a lease that is free or ran out."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(text(_STATUS), {"table_id": table_id})).first()
        if row is None:
            return None, None, 0.0
        return row[0], row[1], max(0.0, (row[2] or 0) / 1000)

    async def holder(self, table_id: str) -> str | None:
        """The process holding ``table_id``'s lease now (None: free or expired)."""
        return (await self.status(table_id))[1]
