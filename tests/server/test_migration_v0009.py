"""Migration v0009 (rated or friendly tables) upgrades a database of the
release before it: its tables never said they were rated, so they come out
friendly, in the storage and in the lobby's answer."""

from __future__ import annotations

from cardtable.server.storage import Storage
from tests.server.helpers import run_coroutine, running
from tests.server.test_migration_v0004 import write_at


async def _old_database_then_open(url: str) -> bool:
    await write_at(
        url,
        "v0008",
        "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
        " stand_in, status, created_ms) VALUES ('old1', 'marshmallow-test',"
        " '{\"players\": 2}', false, NULL, 0, 'random', 'finished', 5)",
        "INSERT INTO ct_seats (table_id, seat, kind, bot, name, token_hash)"
        " VALUES ('old1', 0, 'human', NULL, 'Ann', NULL), ('old1', 1, 'human', NULL, 'Bo', NULL)",
    )
    new = Storage(url)
    await new.open()  # migrates to the head
    try:
        stored = await new.load("old1")
        assert stored is not None
        return stored.facts.rated
    finally:
        await new.close()


def test_tables_of_the_release_before_come_out_friendly(any_db: str) -> None:
    assert run_coroutine(_old_database_then_open(any_db)) is False
    with running(any_db) as server:
        assert server.client.get("/api/tables/old1").json()["rated"] is False
