"""Migration v0007 (puzzle ratings of signed-in people) upgrades a database made
by the release before it (at v0004) without losing a table or an account."""

from __future__ import annotations

from typing import Any

from sqlalchemy import inspect, text

from cardtable.server.db.storage import Storage
from tests.server.db.test_migration_v0004 import upgrade_to
from tests.server.helpers import run_coroutine


async def _old_database_then_open(url: str) -> tuple[set[str], set[str], Any]:
    old = Storage(url)
    async with old.engine.begin() as conn:
        await conn.run_sync(upgrade_to("v0004"))
        before = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        await conn.execute(
            text(
                "INSERT INTO ct_accounts (id, name, name_key, password_hash, created_ms)"
                " VALUES ('acc1', 'Ann', 'ann', 'x', 5)"
            )
        )
    await old.engine.dispose()
    new = Storage(url)
    await new.open()  # migrates to the head
    try:
        async with new.engine.begin() as conn:
            after = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            await conn.execute(
                text(
                    "INSERT INTO ct_puzzle_players (account_id, game, rating, deviation,"
                    " volatility, tries, solved, updated_ms)"
                    " VALUES ('acc1', 'marshmallow-test', 1500, 350, 0.06, 0, 0, 6)"
                )
            )
            account = (await conn.execute(text("SELECT name FROM ct_accounts"))).all()
        return before, after, account
    finally:
        await new.close()


def test_an_account_of_the_release_before_survives_the_upgrade(any_db: str) -> None:
    before, after, account = run_coroutine(_old_database_then_open(any_db))
    assert before <= after  # no table lost
    assert after - before >= {"ct_puzzle_players", "ct_puzzle_attempts"}
    assert [tuple(r) for r in account] == [("Ann",)]
