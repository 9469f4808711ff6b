"""The analysis queue shared by several server processes, in PostgreSQL.

With ``cardtable serve --redis`` every process takes the next ``pending``
seat of ``ct_analyses`` whoever asked for it: it claims the row with
``SELECT … FOR UPDATE SKIP LOCKED`` (two processes never take the same row
at once, and neither waits for the other's lock), writing its name and a
time until which the row is its own (the database's clock). While it works it
renews that time and writes its progress; a process that dies stops renewing,
so once the time has passed another process takes the seat again. A result
is written only while the row is still pending and claimed by this process:
a process that lost its claim (stalled past it) writes nothing.

The asking process answers ``GET …/analysis`` from the row, as any process
does: a claim still running reads as ``running`` with its progress.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, ColumnElement, func, literal_column, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from cardtable.server.db.schema import analyses
from cardtable.server.db.storage import DB_NOW_MS, AnalysisRow

__all__ = ["AnalysisQueue", "Claim"]

Claim = tuple[AnalysisRow, int]  # the claimed row and the database's clock then (ms)


class AnalysisQueue:
    """This process's side of the shared queue: claim, renew, finish."""

    def __init__(self, engine: AsyncEngine, owner: str, claim_seconds: float) -> None:
        self.engine = engine
        self.owner = owner
        self.claim_ms = int(claim_seconds * 1000)

    async def claim(self) -> AnalysisRow | None:
        """Take the oldest pending seat nobody holds (or whose holder stopped
        renewing); ``None`` when there is none."""
        now = literal_column(DB_NOW_MS, BigInteger)
        free = select(analyses).where(
            analyses.c.status == "pending",
            or_(analyses.c.claimed_until_ms.is_(None), analyses.c.claimed_until_ms < now),
        )
        query = (
            free.order_by(analyses.c.requested_ms, analyses.c.table_id, analyses.c.seat)
            .limit(1)
            .with_for_update(skip_locked=True)
        )
        async with self.engine.begin() as conn:
            found = (await conn.execute(query)).mappings().first()
            if found is None:
                return None
            await conn.execute(
                update(analyses)
                .where(_key(found["table_id"], found["seat"]))
                .values(claimed_by=self.owner, claimed_until_ms=now + self.claim_ms, progress=0)
            )
        return AnalysisRow(
            found["table_id"],
            found["seat"],
            "pending",
            float(found["budget"]),
            found["seed"],
            found["requested_ms"],
        )

    async def renew(self, row: AnalysisRow, progress: int) -> bool:
        """Keep the claim on ``row`` and record its progress; ``False`` when it
        is no longer this process's (it ran out and another took it)."""
        now = literal_column(DB_NOW_MS, BigInteger)
        async with self.engine.begin() as conn:
            done = await conn.execute(
                update(analyses)
                .where(_key(row.table_id, row.seat), *self._mine())
                .values(claimed_until_ms=now + self.claim_ms, progress=progress)
            )
        return bool(done.rowcount)

    async def finish(self, row: AnalysisRow, status: str, **values: str) -> bool:
        """Store the seat as ``done`` or ``failed`` (with its result or error)
        if it is still this process's claim; whether it was."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                update(analyses)
                .where(_key(row.table_id, row.seat), *self._mine())
                .values(
                    status=status, claimed_by=None, claimed_until_ms=None, progress=None, **values
                )
            )
        return bool(done.rowcount)

    async def waiting(self) -> int:
        """Seats pending in the whole deployment (what a new request is weighed against)."""
        query = select(func.count()).select_from(analyses).where(analyses.c.status == "pending")
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def states(self) -> tuple[list[tuple[str, int]], dict[tuple[str, int], int]]:
        """The pending seats in the order they are taken, and the progress of
        those whose claim still runs."""
        now = literal_column(DB_NOW_MS, BigInteger)
        query = (
            select(
                analyses.c.table_id,
                analyses.c.seat,
                analyses.c.progress,
                analyses.c.claimed_until_ms > now,
            )
            .where(analyses.c.status == "pending")
            .order_by(analyses.c.requested_ms, analyses.c.table_id, analyses.c.seat)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        order = [(r[0], r[1]) for r in rows]
        running = {(r[0], r[1]): r[2] or 0 for r in rows if r[3]}
        return order, running

    def _mine(self) -> tuple[ColumnElement[bool], ...]:
        return (analyses.c.status == "pending", analyses.c.claimed_by == self.owner)


def _key(table_id: str, seat: int) -> ColumnElement[bool]:
    return (analyses.c.table_id == table_id) & (analyses.c.seat == seat)
