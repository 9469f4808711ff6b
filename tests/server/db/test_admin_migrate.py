"""``cardtable admin migrate``: an operator brings a database up to this
release by hand (after a backup, before starting the processes), without
losing a table; a server it cannot reach gets one error line."""

from __future__ import annotations

import subprocess

from alembic.config import Config
from alembic.script import ScriptDirectory

from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import write_at
from tests.server.helpers import run_coroutine


def _head() -> str:
    config = Config()
    config.set_main_option("script_location", "cardtable.server.db:migrations")
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


async def _stored_ids(url: str) -> list[str]:
    storage = Storage(url)
    await storage.open()
    try:
        stored = await storage.load("old1")
        return [] if stored is None else [stored.facts.id]
    finally:
        await storage.close()


def test_admin_migrate_brings_an_old_database_to_the_newest_revision(any_db: str) -> None:
    run_coroutine(
        write_at(
            any_db,
            "v0007",
            "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
            " stand_in, status, created_ms) VALUES ('old1', 'marshmallow-test',"
            " '{\"players\": 2}', false, NULL, 0, 'random', 'finished', 5)",
        )
    )
    plain = any_db.replace("+aiosqlite", "").replace("+asyncpg", "")
    done = subprocess.run(
        ["cardtable", "admin", "migrate", "--db", plain],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"the database is at revision {_head()}, this release's newest"
    assert run_coroutine(_stored_ids(any_db)) == ["old1"]


def test_admin_migrate_says_in_one_line_when_the_database_does_not_answer() -> None:
    done = subprocess.run(
        ["cardtable", "admin", "migrate", "--db", "postgresql://nobody:secret@127.0.0.1:1/none"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: migrate postgresql+asyncpg://nobody@127.0.0.1:1/none: ")
    assert len(done.stderr.strip().splitlines()) == 1 and "secret" not in done.stderr
