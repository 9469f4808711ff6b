"""Migration v0012 (one rematch per table) upgrades a database that holds
two rematches of one table (made by two processes before it): the one the
finished table names stays its rematch, the other keeps its game but not the
link, and from then on the database refuses a second rematch."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from cardtable.server.db.schema import tables
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.helpers import run_coroutine


def _table(
    table_id: str, created_ms: int, rematch_of: str = "NULL", rematch_id: str = "NULL"
) -> str:
    return old_table("finished", table_id, created_ms, rematch_of=rematch_of, rematch_id=rematch_id)


async def _two_rematches_then_open(url: str) -> dict[str, tuple[Any, Any]]:
    await write_at(
        url,
        "v0011",
        _table("old1", 1, rematch_id="'late'"),  # names the later of its two rematches
        _table("early", 2, rematch_of="'old1'"),
        _table("late", 3, rematch_of="'old1'"),
        _table("old2", 4),  # a crash between the rematch's insert and this row's update
        _table("lone", 5, rematch_of="'old2'"),
    )
    async with migrated(url) as new:
        async with new.engine.connect() as conn:
            rows = await conn.execute(select(tables.c.id, tables.c.rematch_of, tables.c.rematch_id))
            found = {r.id: (r.rematch_of, r.rematch_id) for r in rows}
        with pytest.raises(IntegrityError):
            async with new.engine.begin() as conn:
                await conn.execute(text(_table("third", 6, rematch_of="'old1'")))
        return found


def test_two_rematches_of_one_table_become_one_and_a_third_is_refused(any_db: str) -> None:
    assert run_coroutine(_two_rematches_then_open(any_db)) == {
        "old1": (None, "late"),
        "early": (None, None),
        "late": ("old1", None),
        "old2": (None, "lone"),
        "lone": ("old2", None),
    }
