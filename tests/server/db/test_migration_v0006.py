"""Migration v0006 (the table chat, ``ct_chat``) upgrades a database of the
release before it without losing a table, and that table can chat at once."""

from __future__ import annotations

from typing import Any

from cardtable.server.db.storage import Storage
from cardtable.server.tables.chat import ChatLine
from tests.server.db.test_migration_v0004 import write_at
from tests.server.helpers import run_coroutine


async def _old_database_then_open(url: str) -> tuple[Any, ...]:
    await write_at(
        url,
        "v0004",
        "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
        " stand_in, status, created_ms, creator) VALUES ('old1', 'marshmallow-test',"
        " '{\"players\": 2}', false, NULL, 0, 'random', 'waiting', 5, '10.0.0.1')",
        "INSERT INTO ct_seats (table_id, seat, kind, bot, name, token_hash)"
        " VALUES ('old1', 0, 'human', NULL, 'Ann', 'ab'),"
        " ('old1', 1, 'bot', 'easy', NULL, NULL)",
    )
    new = Storage(url)
    await new.open()  # migrates to the head
    try:
        before = await new.load("old1")
        assert before is not None
        line = ChatLine(0, "players", 0, "Ann", "hello", None, 0, 7)
        await new.add_chat("old1", line)
        after = await new.load("old1")
        assert after is not None
        return (
            before.facts.creator,
            [s.name for s in before.facts.seats],
            before.chat,
            after.chat == [line],
            await new.load_chat("old1") == [line],
        )
    finally:
        await new.close()


def test_a_table_of_the_release_before_survives_the_upgrade_and_chats(any_db: str) -> None:
    creator, names, chat_before, loaded, replayed = run_coroutine(_old_database_then_open(any_db))
    assert (creator, names, chat_before) == ("10.0.0.1", ["Ann", None], [])
    assert loaded and replayed
