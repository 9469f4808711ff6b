"""The analysis queue shared by several processes, on the real PostgreSQL:
two processes' claims never take one seat twice, a claim whose holder stopped
renewing is taken again, and the old holder can then neither renew nor store."""

from __future__ import annotations

import asyncio

from sqlalchemy import select, text, update

from cardtable.server.db.analysis_queue import AnalysisQueue
from cardtable.server.db.schema import analyses
from cardtable.server.db.storage import AnalysisRow, Storage
from tests.server.helpers import run_coroutine

SEATS = 6


async def _with_pending(url: str) -> Storage:
    storage = Storage(url, owner="setup")
    await storage.open()
    async with storage.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
                " stand_in, status, created_ms) VALUES ('t1', 'marshmallow-test',"
                " '{\"players\": 2}', false, NULL, 0, 'random', 'finished', 5)"
            )
        )
    for seat in range(SEATS):
        row = AnalysisRow("t1", seat, "pending", 0.1, 0, 100 + seat)
        await storage.put_analysis(row, new=True)
    return storage


async def _two_processes_claim(url: str) -> list[tuple[str, int] | None]:
    storage = await _with_pending(url)
    try:
        queues = [AnalysisQueue(storage.engine, name, 60) for name in ("a", "b")]
        claims = await asyncio.gather(*(queues[i % 2].claim() for i in range(2 * SEATS)))
        async with storage.engine.connect() as conn:
            holders = (await conn.execute(select(analyses.c.claimed_by))).scalars().all()
        assert set(holders) <= {"a", "b"} and len(holders) == SEATS  # every seat held
        return [None if c is None else (c.table_id, c.seat) for c in claims]
    finally:
        await storage.close()


def test_two_processes_claiming_at_once_take_every_seat_once(postgres_url: str) -> None:
    claims = run_coroutine(_two_processes_claim(postgres_url))
    taken = [c for c in claims if c is not None]
    assert sorted(taken) == [("t1", seat) for seat in range(SEATS)]
    assert claims.count(None) == SEATS


async def _taken_over(url: str) -> tuple[bool, bool, bool, bool, str | None, str]:
    storage = await _with_pending(url)
    try:
        dead, alive = (
            AnalysisQueue(storage.engine, "dead", 60),
            AnalysisQueue(storage.engine, "alive", 60),
        )
        first = await dead.claim()
        assert first is not None and first.seat == 0
        # The dead holder stops renewing: its claim runs out.
        async with storage.engine.begin() as conn:
            await conn.execute(
                update(analyses).where(analyses.c.seat == 0).values(claimed_until_ms=0)
            )
        again = await alive.claim()
        assert again is not None
        renewed_by_dead = await dead.renew(first, 3)
        renewed_by_alive = await alive.renew(again, 3)
        stored_by_dead = await dead.finish(first, "done", result='"stale"')
        stored_by_alive = await alive.finish(again, "done", result='"fresh"')
        async with storage.engine.connect() as conn:
            row = (await conn.execute(select(analyses).where(analyses.c.seat == 0))).one()
        return (
            renewed_by_dead,
            renewed_by_alive,
            stored_by_dead,
            stored_by_alive,
            row.claimed_by,
            f"{again.seat}:{row.status}:{row.result}",
        )
    finally:
        await storage.close()


def test_a_claim_that_ran_out_is_taken_again_and_its_old_holder_is_refused(
    postgres_url: str,
) -> None:
    dead_renew, alive_renew, dead_store, alive_store, holder, row = run_coroutine(
        _taken_over(postgres_url)
    )
    assert (dead_renew, alive_renew) == (False, True)
    assert (dead_store, alive_store) == (False, True)
    assert holder is None
    assert row == '0:done:"fresh"'
