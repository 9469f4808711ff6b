"""One finished table has at most one rematch, however many processes are
asked for it: the database refuses a second one (a unique index on
``ct_tables.rematch_of``), and the process that lost answers with the first
one's table. Two in-process servers on one database stand for two processes
(neither is told about the other, as with a lease that ran out)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import func, select

from cardtable.server.db.schema import tables
from tests.server.helpers import Server, running
from tests.server.web.test_lobby import finished_duel


def _rematch(server: Server, table: str, token: str) -> str:
    answer = server.client.post(f"/api/tables/{table}/rematch", json={"token": token})
    assert answer.status_code == 200, answer.text
    made: str = answer.json()["id"]
    return made


def _rematches_of(server: Server, table: str) -> int:
    async def count() -> int:
        query = select(func.count()).where(tables.c.rematch_of == table)
        async with server.hub.storage.engine.connect() as conn:
            return int(await conn.scalar(query) or 0)

    counted: int = server.client.portal.call(count)  # type: ignore[union-attr]
    return counted


def test_a_process_that_read_the_table_before_the_rematch_answers_with_it(any_db: str) -> None:
    with running(any_db) as first:
        table, tokens = finished_duel(first)
        with running(any_db) as second, second.connect(table):
            # A spectator keeps the finished table in the second process's memory,
            # as it was before anybody asked for the rematch.
            made = _rematch(first, table, tokens[0])
            assert _rematch(second, table, tokens[1]) == made
            assert _rematch(second, table, tokens[0]) == made
            assert _rematches_of(first, table) == 1
            seen = second.client.get(f"/api/tables/{table}").json()
            assert seen["rematch"] == made


def test_two_processes_asked_at_the_same_moment_make_one_table(any_db: str) -> None:
    with running(any_db) as first:
        table, tokens = finished_duel(first)
        with running(any_db) as second, second.connect(table), first.connect(table):
            start = threading.Barrier(2)

            def ask(who: tuple[Server, str]) -> Any:
                start.wait()
                return _rematch(who[0], table, who[1])

            with ThreadPoolExecutor(max_workers=2) as pool:
                answers = list(pool.map(ask, [(first, tokens[0]), (second, tokens[1])]))
            assert answers[0] == answers[1]
            assert _rematches_of(first, table) == 1
            for server in (first, second):
                assert server.client.get(f"/api/tables/{table}").json()["rematch"] == answers[0]
