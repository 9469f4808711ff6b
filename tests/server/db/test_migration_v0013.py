"""Migration v0013 (the address each account seat was taken from) upgrades a
database of the release before it without losing a seat: the seats held
before it have no address, so they count for ratings as before."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from cardtable.server.db.schema import account_seats
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.helpers import run_coroutine


async def _old_database_then_open(url: str) -> list[tuple[Any, ...]]:
    await write_at(
        url,
        "v0012",
        old_table("playing"),
        "INSERT INTO ct_accounts (id, name, name_key, password_hash, created_ms)"
        " VALUES ('acc1', 'Ann', 'ann', 'x', 1)",
        "INSERT INTO ct_account_seats (table_id, seat, account_id) VALUES ('old1', 0, 'acc1')",
    )
    async with migrated(url) as new, new.engine.connect() as conn:
        return [tuple(r) for r in await conn.execute(select(account_seats))]


def test_account_seats_of_the_release_before_keep_their_owner_without_an_address(
    any_db: str,
) -> None:
    assert run_coroutine(_old_database_then_open(any_db)) == [("old1", 0, "acc1", None)]
