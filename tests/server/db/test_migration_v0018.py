"""Migration v0018 (turn-based games at rest) upgrades a database of the
release before it with its live tables kept and ``ct_parked`` empty and in
use (one row per table); its downgrade drops that table (and only it), after
which the release before brings every live table back at start as it did;
upgrading again works."""

from __future__ import annotations

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from cardtable.server.db.schema import parked, tables
from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.db.test_migration_v0015 import downgrade_to, table_names
from tests.server.helpers import run_coroutine

PARK = "INSERT INTO ct_parked (table_id, due_ms, line, parked_ms) VALUES ('old1', 5, '{}', 4)"


async def _upgrade_use_downgrade(
    url: str,
) -> tuple[int, bool, set[str], set[str], set[str], int, tuple[int, int]]:
    await write_at(url, "v0017", old_table("playing"))
    async with migrated(url) as new:
        async with new.engine.begin() as conn:
            empty = await conn.scalar(select(func.count()).select_from(parked))
            await conn.execute(text(PARK))
            upgraded = await conn.run_sync(table_names)
        try:
            async with new.engine.begin() as conn:
                await conn.execute(text(PARK))  # the same table again
            twice = True
        except IntegrityError:
            twice = False
        loaded = len(await new.load_live())  # parked: not brought back at start
    old = Storage(url)
    async with old.engine.begin() as conn:
        # Later migrations' tables go first, so that what v0018's own downgrade drops shows.
        await conn.run_sync(downgrade_to("v0018"))
        at_v0018 = await conn.run_sync(table_names)
        await conn.run_sync(downgrade_to("v0017"))
        downgraded = await conn.run_sync(table_names)
        kept = await conn.scalar(select(func.count()).select_from(tables))
    await old.engine.dispose()
    async with migrated(url) as again:
        back = len(await again.load_live())  # the row went with the table: live again
    return int(empty or 0), twice, upgraded, at_v0018, downgraded, int(kept or 0), (loaded, back)


def test_the_parked_table_comes_and_goes_with_the_migration(any_db: str) -> None:
    empty, twice, upgraded, at_v0018, downgraded, kept, loads = run_coroutine(
        _upgrade_use_downgrade(any_db)
    )
    assert empty == 0
    assert not twice  # one row per table
    assert "ct_parked" in upgraded and "ct_parked" not in downgraded
    assert at_v0018 - downgraded == {"ct_parked"}  # only it went
    assert kept == 1  # the game stayed
    assert loads == (0, 1)  # parked: not loaded at start; once the row is gone: loaded
