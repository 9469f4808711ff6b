"""The server's log (cardtable/server/logs.py): each line has its time,
level, process and table, as text or, with ``--log-json``, as JSON; and
``cardtable serve`` refuses request heads of 100 kB and 1 MB."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.logs import log_config
from tests.server.helpers import running
from tests.server.processes import free_port, launch_serve, wait_until_serving

TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"
LOG_SECONDS = 30.0  # a line the server owes appears in its log before this


def handler_of(config: dict[str, Any], stream: io.StringIO) -> logging.Handler:
    """The handler that ``config`` (:func:`log_config`) describes, writing to ``stream``."""
    spec = config["handlers"]["stderr"]
    handler = logging.StreamHandler(stream)
    handler.setFormatter(config["formatters"][spec["formatter"]]["()"]())
    for name in spec["filters"]:
        handler.addFilter(config["filters"][name]["()"]())
    handler.setLevel(config["root"]["level"])
    return handler


@pytest.fixture
def configure() -> Iterator[Any]:
    """Puts the handler of :func:`log_config` on the root logger of this test
    process; yields a function that does so and returns what it wrote.

    Not ``dictConfig`` itself: it is made for a process's start, and it closes
    every handler the process has (pytest's among them), which broke the
    tests that ran after these in the whole suite. The real process below
    (``--log-json``) applies the configuration whole."""
    root = logging.getLogger()
    added: list[logging.Handler] = []

    def configure(json_lines: bool) -> io.StringIO:
        stream = io.StringIO()
        added.append(handler_of(log_config(json_lines), stream))
        root.addHandler(added[-1])
        return stream

    yield configure
    for handler in added:
        root.removeHandler(handler)


def _failed_chat_line(db_url: str) -> str:
    """A chat line whose storing fails at a table: the id of that table."""
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        token = server.join(table, 0)

        async def broken(*args: Any) -> None:
            raise RuntimeError("the disk is full")

        server.hub.storage.add_chat = broken  # type: ignore[method-assign,assignment]
        with server.connect(table, token) as conn:
            conn.send({"type": "chat", "text": "hello"})
            assert "could not store" in conn.until(lambda m: m["type"] == "error")["message"]
    return table


def test_a_text_line_has_time_level_process_and_table(db_url: str, configure: Any) -> None:
    written = configure(False)
    table = _failed_chat_line(db_url)
    lines = written.getvalue().splitlines()
    head = (
        rf"{TIME} ERROR pid={os.getpid()} table={re.escape(table)} cardtable.server.live.play:"
        rf" table {re.escape(table)}: storing a chat line failed"
    )
    at = next(i for i, line in enumerate(lines) if "storing a chat line failed" in line)
    assert re.fullmatch(head, lines[at]), lines[at]
    assert lines[at + 1] == "Traceback (most recent call last):"  # the traceback follows


def test_json_lines_carry_the_same_fields(db_url: str, configure: Any) -> None:
    written = configure(True)
    table = _failed_chat_line(db_url)
    records = [json.loads(line) for line in written.getvalue().splitlines()]
    found = next(r for r in records if "storing a chat line failed" in r["message"])
    assert re.fullmatch(TIME, found.pop("time"))
    assert "RuntimeError: the disk is full" in found.pop("exception")
    assert found == {
        "level": "ERROR",
        "process": os.getpid(),
        "table": table,
        "logger": "cardtable.server.live.play",
        "message": f"table {table}: storing a chat line failed",
    }


def _send_head(port: int, pad: int) -> bytes:
    """A GET whose headers come to ``pad`` bytes or more: the answer's first
    bytes, or ``b""`` if the server closed the connection before reading it all."""
    head = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * pad + b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=LOG_SECONDS) as s:
        try:
            s.sendall(head)
            return s.recv(64)
        except OSError:  # refused while it was still being sent
            return b""


def _logged(path: Path, want: Any) -> dict[str, Any]:
    """The first JSON line of the log at ``path`` for which ``want`` holds."""
    deadline = time.monotonic() + LOG_SECONDS
    while True:
        for line in path.read_text().splitlines():
            if line.startswith("{") and want(record := json.loads(line)):
                return dict(record)
        assert time.monotonic() < deadline, path.read_text()
        time.sleep(0.1)


def test_serve_refuses_big_request_heads_and_logs_json(tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "serve.log"
    with log.open("wb") as out:
        process = launch_serve(
            port, f"sqlite:///{tmp_path / 't.db'}", "--bot-workers", "1", "--log-json", output=out
        )
        try:
            wait_until_serving(port, process)
            assert _send_head(port, 100).startswith(b"HTTP/1.1 200")
            for pad in (100_000, 1_000_000):
                answer = _send_head(port, pad)
                assert answer == b"" or re.match(rb"HTTP/1.1 4(00|31) ", answer), answer
            # 1 MB comes in pieces: uvicorn refuses it before it is read whole.
            found = _logged(log, lambda r: r["logger"] == "uvicorn.error")
        finally:
            process.kill()
            process.wait()
    assert found["level"] == "WARNING" and found["process"] == process.pid
    assert re.fullmatch(TIME, found["time"]) and found["table"] is None
