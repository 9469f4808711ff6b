"""Migration v0014 (chat moderation) upgrades a database of the release before
it without losing a line: every line said before it is shown (not removed),
and the reports table starts empty and takes reports."""

from __future__ import annotations

from sqlalchemy import func, select

from cardtable.server.db.schema import chat_reports
from cardtable.server.live.moderation import add_report, listed
from tests.server.db.test_migration_v0004 import migrated, old_table, write_at
from tests.server.helpers import run_coroutine


async def _old_database_then_open(url: str) -> tuple[list[tuple[int, str | None, bool]], int, int]:
    await write_at(
        url,
        "v0013",
        old_table("playing"),
        "INSERT INTO ct_chat (table_id, n, channel, seat, name, text, phrase, move, at_ms)"
        " VALUES ('old1', 0, 'players', 0, 'Ann', 'hello', NULL, 0, 7)",
    )
    async with migrated(url) as new:
        lines = [(line.n, line.text, line.removed) for line in await new.load_chat("old1")]
        async with new.engine.connect() as conn:
            before = await conn.scalar(select(func.count()).select_from(chat_reports))
        await add_report(new.engine, "old1", 0, "seat:1", "10.0.0.1", 8)
        (reported,) = await listed(new.engine)
    return lines, int(before or 0), reported.reports


def test_chat_lines_of_the_release_before_are_shown_and_can_be_reported(any_db: str) -> None:
    assert run_coroutine(_old_database_then_open(any_db)) == ([(0, "hello", False)], 0, 1)
