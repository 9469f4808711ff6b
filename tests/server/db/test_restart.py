"""Nothing acknowledged is lost: tables continue after a restart, even after kill -9."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

import cardtable
from tests.server.helpers import QUICK, play_moves, play_out, running
from tests.server.processes import get, post

pytestmark = pytest.mark.timeout(300, method="thread")

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_tables_continue_after_a_restart_on_the_same_database(db_url: str, game: str) -> None:
    rng = random.Random(5)
    with running(db_url) as server:
        people = server.create(game, ["human", "easy"])
        token = server.join(people, 0, "Ann")
        robots = server.create(game, ["easy", "random"], bot_delay_ms=20)
        with server.connect(people, token) as ann:
            before = play_moves(ann, 3, rng)
        with server.connect(robots) as watcher:
            watcher.until_state(lambda m: m["seq"] >= 3)
        robot_events = list(server.table(robots).journal.events)
        assert not server.table(robots).state.finished
    with running(db_url) as server:
        with server.connect(people, token) as ann:
            assert ann.seat == 0
            assert ann.state is not None
            assert (ann.state["seq"], ann.state["view"]) == (before["seq"], before["view"])
            final = play_out(ann, {0: ann}, rng)
        assert final["finished"]
        with server.connect(robots) as watcher:
            assert watcher.state is not None and watcher.state["seq"] >= len(robot_events) - 1
            watcher.until_state(lambda m: m["finished"])
        record = server.record(robots)
        assert cardtable.replay(record).error is None
        events = [
            event
            for r in record["rounds"]
            for event in [("deal", r["deal"]), *(("move", m) for m in r["moves"])]
        ]
        assert events[: len(robot_events)] == robot_events


# --- kill -9: the server as a user runs it ---------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``cardtable serve`` in its own process; killed with SIGKILL on exit."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardtable",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{db}",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # why: tests/server/processes.py's launch_serve
    )
    try:
        for _ in range(600):  # wait until it answers (imports take a while on a busy machine)
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1)
                break
            except OSError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                time.sleep(0.1)
        yield process
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()


def test_kill_9_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db, port, rng = tmp_path / "tables.sqlite3", free_port(), random.Random(9)
    acked: dict[int, dict[str, Any]] = {}  # seq before the move -> the move
    with serve(db, port) as first:
        table = post(
            port,
            "/api/tables",
            {
                "game": "marshmallow-test",
                "options": QUICK["marshmallow-test"],
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                "bot_delay_ms": 0,
            },
        )["id"]
        token = post(port, f"/api/tables/{table}/join", {"seat": 0, "name": "Ann"})["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/{table}?token={token}") as ws:
            while len(acked) < 4:
                message = json.loads(ws.recv())
                if message["type"] == "state" and message["to_move"] == 0:
                    if message["seq"] in acked:
                        continue
                    move = rng.choice(message["legal"])
                    ws.send(json.dumps({"type": "move", "seq": message["seq"], "move": move}))
                    while (answer := json.loads(ws.recv()))["type"] != "ack":
                        assert answer["type"] == "state", answer
                    acked[message["seq"]] = move
            first.send_signal(signal.SIGKILL)  # at once after the last acknowledgement
            first.wait()
    with serve(db, port):
        info = get(port, f"/api/tables/{table}")
        assert info["seq"] >= max(acked) + 1
        sent: set[int] = set()
        with connect(f"ws://127.0.0.1:{port}/ws/{table}?token={token}") as ws:
            while True:
                message = json.loads(ws.recv())
                assert message["type"] != "error", message
                if message["type"] != "state":
                    continue
                assert message["seat"] == 0
                if message["finished"]:
                    break
                if message["to_move"] == 0 and message["seq"] not in sent:
                    move = rng.choice(message["legal"])
                    ws.send(json.dumps({"type": "move", "seq": message["seq"], "move": move}))
                    sent.add(message["seq"])
        record = get(port, f"/api/tables/{table}/record")
    moves = [m for r in record["rounds"] for m in r["moves"]]
    for seq, move in acked.items():
        assert moves[seq] == {"seat": 0, **move}
    assert cardtable.replay(record).error is None
