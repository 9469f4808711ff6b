"""Migration v0011 (name skeletons) upgrades a database of the release before
it: each account gets its name's skeleton, but one that looks like an older
account's name keeps its name without one; from then on a look-alike of
either is refused."""

from __future__ import annotations

from sqlalchemy import select

from cardtable.server.db.schema import accounts
from cardtable.server.db.storage import Storage
from tests.server.accounts_helpers import account_server
from tests.server.db.test_migration_v0004 import write_at
from tests.server.helpers import run_coroutine


def _account(account_id: str, name: str, created_ms: int) -> str:
    return (
        "INSERT INTO ct_accounts (id, name, name_key, password_hash, created_ms)"
        f" VALUES ('{account_id}', '{name}', '{name.casefold()}', 'x', {created_ms})"
    )


async def _old_database_then_open(url: str) -> list[tuple[str, str | None]]:
    # Before v0011 "Dave" and "Dаve" (a Cyrillic a) could both sign up.
    await write_at(
        url, "v0010", _account("a2", "Dаve", 2), _account("a1", "Dave", 1), _account("a3", "Ann", 3)
    )
    new = Storage(url)
    await new.open()  # migrates to the head
    try:
        async with new.engine.connect() as conn:
            query = select(accounts.c.name, accounts.c.name_skeleton).order_by(accounts.c.id)
            return [(r.name, r.name_skeleton) for r in await conn.execute(query)]
    finally:
        await new.close()


def test_accounts_of_the_release_before_get_their_skeletons(any_db: str) -> None:
    rows = run_coroutine(_old_database_then_open(any_db))
    assert rows == [("Dave", "dave"), ("Dаve", None), ("Ann", "ann")]


def test_after_the_upgrade_a_look_alike_is_refused(db_url: str) -> None:
    run_coroutine(_old_database_then_open(db_url))
    with account_server(db_url) as server:
        refused = server.sign_up("Ｄave", status=409)
        assert "looks like 'Dave'" in refused["error"]
        server.sign_up("Anne")  # a name of its own
