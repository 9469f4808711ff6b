"""Migration v0016 (turn-based tables) upgrades a database of the release
before it with every table real-time (no hours per move, no deadline) and
every seat undropped; its downgrade drops the four columns (and only them),
and upgrading again works."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, inspect

from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.db.test_migration_v0015 import downgrade_to
from tests.server.helpers import run_coroutine

NEW = {
    ("ct_tables", "move_hours"),
    ("ct_tables", "on_timeout"),
    ("ct_tables", "turn_started_ms"),
    ("ct_seats", "dropped_ms"),
}
SEAT = "INSERT INTO ct_seats (table_id, seat, kind, name) VALUES ('old1', {seat}, 'human', 'P')"


def columns(connection: Connection) -> set[tuple[str, str]]:
    found = inspect(connection)
    return {
        (table, c["name"]) for table in ("ct_tables", "ct_seats") for c in found.get_columns(table)
    }


async def _upgrade_downgrade_upgrade(url: str) -> tuple[Any, ...]:
    await write_at(url, "v0015", old_table("playing"), SEAT.format(seat=0), SEAT.format(seat=1))
    async with migrated(url) as new:
        stored = await new.load("old1")
    old = Storage(url)
    async with old.engine.begin() as conn:
        # Later migrations' columns go first, so that what v0016's own downgrade drops shows.
        await conn.run_sync(downgrade_to("v0016"))
        upgraded = await conn.run_sync(columns)
        await conn.run_sync(downgrade_to("v0015"))
        downgraded = await conn.run_sync(columns)
    await old.engine.dispose()
    async with migrated(url) as again, again.engine.connect() as conn:
        back = await conn.run_sync(columns)
    return stored, upgraded, downgraded, back


def test_the_tables_of_the_release_before_stay_real_time(any_db: str) -> None:
    stored, upgraded, downgraded, back = run_coroutine(_upgrade_downgrade_upgrade(any_db))
    assert stored is not None
    facts = stored.facts
    assert (facts.move_hours, facts.on_timeout, facts.turn_started_ms) == (None, None, None)
    assert not facts.turn_based and facts.deadline_ms is None
    assert [s.dropped_ms for s in facts.seats] == [None, None]
    assert upgraded >= NEW
    assert upgraded - downgraded == NEW  # only they went
    assert back >= NEW
