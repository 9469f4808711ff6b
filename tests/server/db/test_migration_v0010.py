"""Migration v0010 (analysis claims) upgrades a database of the release
before it without losing an analysis: every row comes back unclaimed."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from cardtable.server.db.schema import analyses
from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import write_at
from tests.server.helpers import run_coroutine


async def _old_database_then_open(url: str) -> tuple[Any, ...]:
    await write_at(
        url,
        "v0007",
        "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
        " stand_in, status, created_ms) VALUES ('old1', 'marshmallow-test',"
        " '{\"players\": 2}', false, NULL, 0, 'random', 'finished', 5)",
        "INSERT INTO ct_analyses (table_id, seat, status, budget, seed, requested_ms)"
        " VALUES ('old1', 1, 'pending', 0.25, 0, 7)",
    )
    new = Storage(url)
    await new.open()  # migrates to the head
    try:
        rows = await new.load_analyses("old1")
        async with new.engine.connect() as conn:
            claims = (
                await conn.execute(
                    select(analyses.c.claimed_by, analyses.c.claimed_until_ms, analyses.c.progress)
                )
            ).all()
        return [(r.table_id, r.seat, r.status, r.requested_ms) for r in rows], [
            tuple(c) for c in claims
        ]
    finally:
        await new.close()


def test_an_analysis_of_the_release_before_survives_the_upgrade_unclaimed(any_db: str) -> None:
    rows, claims = run_coroutine(_old_database_then_open(any_db))
    assert rows == [("old1", 1, "pending", 7)]
    assert claims == [(None, None, None)]
