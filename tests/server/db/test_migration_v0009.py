"""Migration v0009 (rated or friendly tables) upgrades a database of the
release before it: its tables never said they were rated, so they come out
friendly, in the storage and in the lobby's answer."""

from __future__ import annotations

from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.helpers import run_coroutine, running


async def _old_database_then_open(url: str) -> bool:
    await write_at(
        url,
        "v0008",
        old_table("finished"),
        "INSERT INTO ct_seats (table_id, seat, kind, bot, name, token_hash)"
        " VALUES ('old1', 0, 'human', NULL, 'Ann', NULL), ('old1', 1, 'human', NULL, 'Bo', NULL)",
    )
    async with migrated(url) as new:
        stored = await new.load("old1")
    assert stored is not None
    return stored.facts.rated


def test_tables_of_the_release_before_come_out_friendly(any_db: str) -> None:
    assert run_coroutine(_old_database_then_open(any_db)) is False
    with running(any_db) as server:
        assert server.client.get("/api/tables/old1").json()["rated"] is False
