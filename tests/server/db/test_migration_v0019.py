"""Migration v0019 (Web Push) upgrades a database of the release before it
with every account kept, ``ct_push_subscriptions`` empty and in use (one
row per push endpoint) and a push switch per kind; its downgrade drops that
table (and only it) and those switches, and upgrading again works."""

from __future__ import annotations

from sqlalchemy import Connection, func, inspect, select, text
from sqlalchemy.exc import IntegrityError

from cardtable.server.db.migrations.versions.v0019_push import PUSH_SWITCHES
from cardtable.server.db.schema import accounts, push_subscriptions
from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.db.test_migration_v0015 import ACCOUNT, downgrade_to, table_names
from tests.server.helpers import run_coroutine

SUBSCRIBE = (
    "INSERT INTO ct_push_subscriptions"
    " (account_id, endpoint, p256dh, auth, lang, base_url, created_ms)"
    " VALUES ('a1', 'https://push.example/1', 'k', 'a', 'en', 'https://x', 1)"
)


async def _upgrade_use_downgrade(
    url: str,
) -> tuple[int, bool, set[str], set[str], int, set[str]]:
    await write_at(
        url, "v0018", old_table("playing"), ACCOUNT.format(id="a1", name="Ann", key="ann")
    )
    async with migrated(url) as new:
        async with new.engine.begin() as conn:
            empty = await conn.scalar(select(func.count()).select_from(push_subscriptions))
            await conn.execute(text(SUBSCRIBE))
            switches = await conn.run_sync(push_switches)
        try:
            async with new.engine.begin() as conn:
                await conn.execute(text(SUBSCRIBE))  # the same endpoint again
            twice = True
        except IntegrityError:
            twice = False
    old = Storage(url)
    async with old.engine.begin() as conn:
        # Later migrations' tables go first, so that what v0019's own downgrade drops shows.
        await conn.run_sync(downgrade_to("v0019"))
        upgraded = await conn.run_sync(table_names)
        await conn.run_sync(downgrade_to("v0018"))
        downgraded = await conn.run_sync(table_names)
        switches_after = await conn.run_sync(push_switches)
        kept = await conn.scalar(select(func.count()).select_from(accounts))
    await old.engine.dispose()
    async with migrated(url) as again, again.engine.connect() as conn:
        back = await conn.run_sync(table_names)
    assert switches == set(PUSH_SWITCHES) and switches_after == set()
    return int(empty or 0), twice, upgraded, downgraded, int(kept or 0), back


def push_switches(conn: Connection) -> set[str]:
    """The push switches among ``ct_notice_addresses``' columns."""
    columns = inspect(conn).get_columns("ct_notice_addresses")
    return {c["name"] for c in columns if c["name"].startswith("push_")}


def test_the_push_table_comes_and_goes_with_the_migration(any_db: str) -> None:
    empty, twice, upgraded, downgraded, kept, back = run_coroutine(_upgrade_use_downgrade(any_db))
    assert empty == 0
    assert not twice  # one row per endpoint
    assert upgraded - downgraded == {"ct_push_subscriptions"}  # only it went
    assert kept == 1  # the accounts stayed
    assert "ct_push_subscriptions" in back
