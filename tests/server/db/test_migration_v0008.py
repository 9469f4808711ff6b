"""Migration v0008 (table leases, events' epochs) upgrades a database of the
release before it without losing a table, and gives every table a free lease."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from cardtable.server.db.schema import events, leases
from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import write_at
from tests.server.helpers import run_coroutine


async def _old_database_then_open(url: str) -> tuple[Any, ...]:
    await write_at(
        url,
        "v0004",
        "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
        " stand_in, status, created_ms) VALUES ('old1', 'marshmallow-test',"
        " '{\"players\": 2}', false, NULL, 0, 'random', 'playing', 5)",
        "INSERT INTO ct_events (table_id, n, kind, data) VALUES ('old1', 0, 'deal', '{}')",
    )
    new = Storage(url)
    await new.open()  # migrates to the head
    try:
        stored = await new.load("old1")
        assert stored is not None
        async with new.engine.connect() as conn:
            lease = tuple((await conn.execute(select(leases))).one())
            epochs = (await conn.execute(select(events.c.epoch))).scalars().all()
        return stored.facts.id, stored.events, lease, list(epochs)
    finally:
        await new.close()


def test_a_table_of_the_release_before_survives_the_upgrade(any_db: str) -> None:
    table, stored_events, lease, epochs = run_coroutine(_old_database_then_open(any_db))
    assert (table, stored_events) == ("old1", [("deal", {})])
    assert lease == ("old1", None, 0, 0)  # free: the first process to need it claims it
    assert epochs == [None]
