"""Migration v0004 (the lobby's creator and abandoned_ms columns) upgrades a
database of the release before it without losing a table."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text

from cardtable.server.db.storage import Storage
from tests.server.helpers import run_coroutine


def upgrade_to(revision: str) -> Callable[[Connection], None]:
    def run(connection: Connection) -> None:
        config = Config()
        config.set_main_option("script_location", "cardtable.server.db:migrations")
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    return run


def old_table(status: str, table_id: str = "old1", created_ms: int = 5, **more: str) -> str:
    """The INSERT of a two-player Marshmallow Test table as every release
    stored one; ``more``: further columns, as SQL literals."""
    columns = "".join(f", {name}" for name in more)
    values = "".join(f", {value}" for value in more.values())
    return (
        "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
        f" stand_in, status, created_ms{columns}) VALUES ('{table_id}', 'marshmallow-test',"
        f" '{{\"players\": 2}}', false, NULL, 0, 'random', '{status}', {created_ms}{values})"
    )


async def write_at(url: str, revision: str, *statements: str) -> None:
    """A database as the release at ``revision`` left it: the schema migrated
    that far, then ``statements`` (its rows) run in one transaction."""
    old = Storage(url)
    async with old.engine.begin() as conn:
        await conn.run_sync(upgrade_to(revision))
        for statement in statements:
            await conn.execute(text(statement))
    await old.engine.dispose()


@asynccontextmanager
async def migrated(url: str) -> AsyncIterator[Storage]:
    """The storage of ``url``, opened (which migrates it to the head), closed after."""
    storage = Storage(url)
    await storage.open()
    try:
        yield storage
    finally:
        await storage.close()


async def _old_database_then_open(url: str) -> tuple[Any, list[tuple[str, int]]]:
    old = Storage(url)
    async with old.engine.begin() as conn:
        await conn.run_sync(upgrade_to("v0002"))
        await conn.execute(
            text(
                "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
                " stand_in, status, created_ms) VALUES ('old1', 'marshmallow-test',"
                " '{\"players\": 2}', false, NULL, 0, 'random', 'waiting', 5)"
            )
        )
    await old.engine.dispose()
    new = Storage(url)
    await new.open()  # migrates to the head
    try:
        stored = await new.load("old1")
        assert stored is not None
        recent = await new.recent_creators(0)
        return (stored.facts.id, stored.facts.creator, stored.facts.abandoned_ms), recent
    finally:
        await new.close()


def test_a_table_of_the_release_before_survives_the_upgrade(any_db: str) -> None:
    table, recent = run_coroutine(_old_database_then_open(any_db))
    assert table == ("old1", None, None)
    assert recent == []  # no creator known: not counted as anyone's
