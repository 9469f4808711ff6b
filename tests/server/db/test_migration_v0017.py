"""Migration v0017 (e-mail notifications) upgrades a database of the release
before it with every account kept and the two new tables empty and in use
(one notice per account, kind, table and turn: the unique key that makes a
deadline's notice once across processes); its downgrade drops them (and only
them), and upgrading again works."""

from __future__ import annotations

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from cardtable.server.db.schema import accounts, notices
from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.db.test_migration_v0015 import ACCOUNT, downgrade_to, table_names
from tests.server.helpers import run_coroutine

NEW = {"ct_notice_addresses", "ct_notices"}
NOTICE = (
    "INSERT INTO ct_notices (account_id, kind, table_id, turn_ms, created_ms)"
    " VALUES ('a1', 'deadline_soon', 'old1', 7, 8)"
)


async def _upgrade_use_downgrade(
    url: str,
) -> tuple[int, bool, set[str], set[str], set[str], int, set[str]]:
    await write_at(
        url, "v0016", old_table("playing"), ACCOUNT.format(id="a1", name="Ann", key="ann")
    )
    async with migrated(url) as new:
        async with new.engine.begin() as conn:
            empty = await conn.scalar(select(func.count()).select_from(notices))
            await conn.execute(text(NOTICE))
            upgraded = await conn.run_sync(table_names)
        try:
            async with new.engine.begin() as conn:
                await conn.execute(text(NOTICE))  # the same notice again
            twice = True
        except IntegrityError:
            twice = False
    old = Storage(url)
    async with old.engine.begin() as conn:
        # Later migrations' tables go first, so that what v0017's own downgrade drops shows.
        await conn.run_sync(downgrade_to("v0017"))
        at_v0017 = await conn.run_sync(table_names)
        await conn.run_sync(downgrade_to("v0016"))
        downgraded = await conn.run_sync(table_names)
        kept = await conn.scalar(select(func.count()).select_from(accounts))
    await old.engine.dispose()
    async with migrated(url) as again, again.engine.connect() as conn:
        back = await conn.run_sync(table_names)
    return int(empty or 0), twice, upgraded, at_v0017, downgraded, int(kept or 0), back


def test_notice_tables_come_and_go_with_the_migration(any_db: str) -> None:
    empty, twice, upgraded, at_v0017, downgraded, kept, back = run_coroutine(
        _upgrade_use_downgrade(any_db)
    )
    assert empty == 0
    assert not twice  # one notice per account, kind, table and turn
    assert upgraded >= NEW
    assert not downgraded & NEW
    assert at_v0017 - downgraded == NEW  # only they went
    assert kept == 1  # the accounts stayed
    assert back >= NEW
