"""Migration v0015 (friends) upgrades a database of the release before it with
every account kept and the three new tables empty and in use; its downgrade
drops them (and only them), and upgrading again works."""

from __future__ import annotations

from collections.abc import Callable

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, func, inspect, select, text

from cardtable.server.db.schema import accounts, follows
from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.helpers import run_coroutine

NEW = {"ct_follows", "ct_blocks", "ct_invites"}
ACCOUNT = (
    "INSERT INTO ct_accounts (id, name, name_key, name_skeleton, password_hash, created_ms)"
    " VALUES ('{id}', '{name}', '{key}', '{key}', 'x', 1)"
)


def downgrade_to(revision: str) -> Callable[[Connection], None]:
    def run(connection: Connection) -> None:
        config = Config()
        config.set_main_option("script_location", "cardtable.server.db:migrations")
        config.attributes["connection"] = connection
        command.downgrade(config, revision)

    return run


def table_names(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _upgrade_use_downgrade(
    url: str,
) -> tuple[int, set[str], set[str], set[str], int, set[str]]:
    await write_at(
        url,
        "v0014",
        old_table("waiting"),
        ACCOUNT.format(id="a1", name="Ann", key="ann"),
        ACCOUNT.format(id="b2", name="Bob", key="bob"),
    )
    async with migrated(url) as new, new.engine.begin() as conn:
        empty = await conn.scalar(select(func.count()).select_from(follows))
        await conn.execute(
            text(
                "INSERT INTO ct_follows (follower_id, followed_id, created_ms)"
                " VALUES ('a1', 'b2', 5)"
            )
        )
        await conn.execute(
            text(
                "INSERT INTO ct_invites (invitee_id, inviter_id, table_id, created_ms)"
                " VALUES ('b2', 'a1', 'old1', 5)"
            )
        )
        upgraded = await conn.run_sync(table_names)
    old = Storage(url)
    async with old.engine.begin() as conn:
        # Later migrations' tables go first, so that what v0015's own downgrade drops shows.
        await conn.run_sync(downgrade_to("v0015"))
        at_v0015 = await conn.run_sync(table_names)
        await conn.run_sync(downgrade_to("v0014"))
        downgraded = await conn.run_sync(table_names)
        kept = await conn.scalar(select(func.count()).select_from(accounts))
    await old.engine.dispose()
    async with migrated(url) as again, again.engine.connect() as conn:
        back = await conn.run_sync(table_names)
    return int(empty or 0), upgraded, at_v0015, downgraded, int(kept or 0), back


def test_friends_tables_come_and_go_with_the_migration(any_db: str) -> None:
    empty, upgraded, at_v0015, downgraded, kept, back = run_coroutine(
        _upgrade_use_downgrade(any_db)
    )
    assert empty == 0
    assert upgraded >= NEW
    assert not downgraded & NEW
    assert at_v0015 - downgraded == NEW  # only they went
    assert kept == 2  # the accounts stayed
    assert back >= NEW
