"""SIGTERM stops ``cardtable serve`` as Ctrl-C does; SIGKILL leaves no worker behind.

The server plays against a ``medium`` bot, a search bot that thinks in the
worker pool, so the pool's processes exist when the signal comes.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.processes import descendants, free_port, play_acked, post, serving, wait_gone

pytestmark = pytest.mark.timeout(120, method="thread")

SERVICE_RESTART = 1012  # the close code that says "reconnect": the browser does
EXIT_SECONDS = 30.0  # bounds the waits below; nothing is asserted on time


def _table_with_a_search_bot(port: int) -> tuple[str, str]:
    table = post(
        port,
        "/api/tables",
        {
            "game": "marshmallow-test",
            "options": {"target": 200},  # no end within the moves played here
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium"}],
            "bot_delay_ms": 0,
        },
    )["id"]
    token = post(port, f"/api/tables/{table}/join", {"seat": 0, "name": "Ann"})["token"]
    return table, token


def _stored_moves(db: Path, table: str) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT data FROM ct_events WHERE table_id = ? AND kind = 'move' ORDER BY n", (table,)
        ).fetchall()
    return [json.loads(data) for (data,) in rows]


def test_sigterm_stores_every_acknowledged_move_and_leaves_no_process(tmp_path: Path) -> None:
    db, port, rng = tmp_path / "tables.sqlite3", free_port(), random.Random(3)
    with serving(port, f"sqlite:///{db}", "--bot-workers", "1") as server:
        table, token = _table_with_a_search_bot(port)
        with connect(f"ws://127.0.0.1:{port}/ws/{table}?token={token}") as ws:
            acked = play_acked(ws, 0, 4, rng)  # the bot answered in between: the pool runs
            children = descendants(server.pid)
            assert children, "the bot's worker pool should be running"
            server.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=EXIT_SECONDS)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SERVICE_RESTART
        assert server.wait(timeout=EXIT_SECONDS) == 0
    assert wait_gone(children, EXIT_SECONDS) == set()
    moves = _stored_moves(db, table)
    for seq, move in acked.items():
        assert moves[seq] == {"seat": 0, **move}


def test_a_killed_server_takes_its_worker_processes_with_it(tmp_path: Path) -> None:
    db, port, rng = tmp_path / "tables.sqlite3", free_port(), random.Random(4)
    with serving(port, f"sqlite:///{db}", "--bot-workers", "2") as server:
        table, token = _table_with_a_search_bot(port)
        with connect(f"ws://127.0.0.1:{port}/ws/{table}?token={token}") as ws:
            play_acked(ws, 0, 2, rng)
        children = descendants(server.pid)
        assert children, "the bot's worker pool should be running"
        server.send_signal(signal.SIGKILL)
        server.wait()
    assert wait_gone(children, EXIT_SECONDS) == set()
