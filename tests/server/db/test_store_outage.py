"""The database away (issue 27, item 8): HTTP answers 503 with a sentence and
``Retry-After``, a move is refused with ``retry_ms`` and goes in when sent
again once PostgreSQL is back, and the log holds no traceback for it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from sqlalchemy.exc import DBAPIError, IntegrityError

from cardtable.server.db.storage import unreachable
from tests.server.helpers import running, sqlite_url
from tests.server.pg import PostgresServer, fresh_database


class _Starting(Exception):
    sqlstate = "57P03"  # cannot_connect_now: the server is starting up


class _Unique(Exception):
    sqlstate = "23505"  # unique_violation: a statement of ours was wrong


def test_only_an_unreachable_database_counts_as_away() -> None:
    assert unreachable(ConnectionRefusedError(111, "Connect call failed"))
    assert unreachable(OSError("Multiple exceptions: [Errno 111] Connect call failed"))
    assert not unreachable(OSError(28, "No space left on device"))
    assert unreachable(DBAPIError("SELECT 1", None, _Starting()))
    assert unreachable(DBAPIError("SELECT 1", None, Exception(), connection_invalidated=True))
    assert not unreachable(IntegrityError("INSERT", None, _Unique()))
    assert not unreachable(DBAPIError("SELECT 1", None, _Unique()))
    assert not unreachable(ValueError("a bug of ours"))


def test_while_postgresql_is_down_writes_answer_503_and_a_move_waits_for_it(
    postgres_alone: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    url = fresh_database(postgres_alone.bin_dir, postgres_alone.url)
    with running(url) as server:
        table_id = server.create("marshmallow-test", ["human", "random"])
        token = server.join(table_id, 0)
        with server.connect(table_id, token) as conn:
            state = conn.until_state(lambda m: m["to_move"] == 0)
            move = state["legal"][0]
            postgres_alone.stop()
            caplog.clear()
            body = {"game": "marshmallow-test", "seats": [{"kind": "human"}, {"kind": "human"}]}
            created = server.client.post("/api/tables", json=body)
            assert created.status_code == 503, created.text
            assert created.headers["Retry-After"] == "5"
            assert "database" in created.json()["error"]
            # What the lobby holds in memory is still served.
            assert server.client.get("/api/tables").status_code == 200

            conn.move(move)
            refused = conn.until(lambda m: m["type"] in ("ack", "error"))
            assert refused["type"] == "error" and refused["retry_ms"] > 0, refused
            assert conn.until_state(lambda m: True)["seq"] == state["seq"]  # nothing moved

            postgres_alone.start()
            conn.move(move, seq=state["seq"])  # what the page does after retry_ms
            answer = conn.until(lambda m: m["type"] in ("ack", "error"))
            assert answer == {"type": "ack", "seq": state["seq"] + 1}
    tracebacks = [r for r in caplog.records if r.exc_info and r.levelno >= logging.ERROR]
    assert not tracebacks, [r.getMessage() for r in tracebacks]


def test_a_refusal_that_is_not_an_outage_says_nothing_of_retrying(tmp_path: Path) -> None:
    """Only the database being away carries ``retry_ms``: a stale move does not."""
    with running(sqlite_url(tmp_path)) as server:
        table_id = server.create("marshmallow-test", ["human", "human"])
        token = server.join(table_id, 0)
        with server.connect(table_id, token) as conn:
            state = conn.until_state(lambda m: True)
            conn.move({"play": "R1"}, seq=state["seq"] + 5)
            refused = conn.until(lambda m: m["type"] == "error")
            assert "retry_ms" not in refused
