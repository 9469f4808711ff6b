"""Migration v0020 (tournaments) upgrades a database of the release before
it with its tables kept (none of them a tournament's), the four tournament
tables empty and in use, and ``ct_tables.tournament_id``; its downgrade
drops exactly those, and upgrading again works."""

from __future__ import annotations

from sqlalchemy import Connection, func, inspect, select, text
from sqlalchemy.exc import IntegrityError

from cardtable.server.db.migrations.versions.v0020_tournaments import TOURNAMENT_TABLES
from cardtable.server.db.schema import tables, tournaments
from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.db.test_migration_v0015 import ACCOUNT, downgrade_to, table_names
from tests.server.helpers import run_coroutine

CREATE = (
    "INSERT INTO ct_tournaments (id, name, game, options, form, deals, start_ms, access,"
    " rated, bot, creator_id, creator_name, status, seed, created_ms) VALUES ('t1', 'Cup',"
    " 'marshmallow-test', '{}', 'duplicate', 2, 5, 'open', false, 'easy', 'a1', 'Ann',"
    " 'upcoming', 7, 1)"
)
ENTER = (
    "INSERT INTO ct_tournament_entrants (tournament_id, id, account_id, name, entered_ms)"
    " VALUES ('t1', {n}, 'a1', 'Ann', 1)"
)


def tournament_column(conn: Connection) -> bool:
    return "tournament_id" in {c["name"] for c in inspect(conn).get_columns("ct_tables")}


async def _upgrade_use_downgrade(url: str) -> dict[str, object]:
    await write_at(
        url, "v0019", old_table("playing"), ACCOUNT.format(id="a1", name="Ann", key="ann")
    )
    out: dict[str, object] = {}
    async with migrated(url) as new:
        async with new.engine.begin() as conn:
            out["empty"] = await conn.scalar(select(func.count()).select_from(tournaments))
            out["old_table"] = (await conn.execute(select(tables.c.tournament_id))).scalar()
            await conn.execute(text(CREATE))
            await conn.execute(text(ENTER.format(n=0)))
        try:
            async with new.engine.begin() as conn:
                await conn.execute(text(ENTER.format(n=1)))  # one account, entered twice
            out["twice"] = True
        except IntegrityError:
            out["twice"] = False
    old = Storage(url)
    async with old.engine.begin() as conn:
        out["upgraded"] = await conn.run_sync(table_names)
        await conn.run_sync(downgrade_to("v0019"))
        out["downgraded"] = await conn.run_sync(table_names)
        out["column_after"] = await conn.run_sync(tournament_column)
        out["kept"] = await conn.scalar(select(func.count()).select_from(tables))
    await old.engine.dispose()
    async with migrated(url) as again, again.engine.connect() as conn:
        out["back"] = await conn.run_sync(table_names)
        out["column_back"] = await conn.run_sync(tournament_column)
    return out


def test_the_tournament_tables_come_and_go_with_the_migration(any_db: str) -> None:
    out = run_coroutine(_upgrade_use_downgrade(any_db))
    assert out["empty"] == 0 and out["old_table"] is None
    assert out["twice"] is False  # an account enters a tournament once
    assert out["upgraded"] - out["downgraded"] == set(TOURNAMENT_TABLES)  # type: ignore[operator]
    assert out["column_after"] is False and out["kept"] == 1
    assert set(TOURNAMENT_TABLES) <= out["back"] and out["column_back"] is True  # type: ignore[operator]
