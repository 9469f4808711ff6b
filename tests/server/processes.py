"""``cardtable serve`` as a user runs it: its own process on a free port, its
descendants read from ``/proc``, and a player who sends moves and counts
acknowledgements over a real WebSocket."""

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
from typing import IO, Any

from websockets.sync.client import ClientConnection

ROOT = Path(__file__).resolve().parents[2]
# Imports and migrations on a busy 2-core machine: a start was seen to take
# over 60 s at a load of 15-24; only a process that never answers reaches it.
STARTUP_SECONDS = 180.0
PROC = Path("/proc")
RECV_SECONDS = 30.0  # a message the server owes (a bot's move, an ack) comes before this


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_until_serving(port: int, process: subprocess.Popen[bytes] | None = None) -> None:
    """Return once ``GET /api/games`` on ``port`` answers."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=2)
            return
        except OSError:
            if process is not None and process.poll() is not None:
                output = process.stdout.read() if process.stdout else b""
                raise AssertionError(f"cardtable serve exited: {output.decode()}") from None
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing answers on port {port}") from None
            time.sleep(0.1)


def launch_serve(
    port: int, db: str, *extra: str, output: IO[bytes] | int = subprocess.PIPE
) -> subprocess.Popen[bytes]:
    """``cardtable serve --port PORT --db DB EXTRA…``, started (not yet
    answering); what it prints goes to ``output`` (a pipe nobody reads fills
    up and stops the server: give a file for long runs)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--db", db, *extra],
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT,
        # A session of its own, as a service manager gives a deployed server.
        # Where Linux schedules by session (autogroup), the server's idle-class
        # workers then yield only to the server itself, not to whatever else
        # keeps this run busy (measured: docs/testing.md).
        start_new_session=True,
    )


def start_serve(port: int, db: str, *extra: str) -> subprocess.Popen[bytes]:
    """:func:`launch_serve`, answering."""
    process = launch_serve(port, db, *extra)
    wait_until_serving(port, process)
    return process


@contextmanager
def serving(port: int, db: str, *extra: str) -> Iterator[subprocess.Popen[bytes]]:
    """:func:`start_serve`; killed with SIGKILL on exit if still running."""
    process = start_serve(port, db, *extra)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait()


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (children, their children…)."""
    parents: dict[int, int] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                parents[int(entry.name)] = stat[1]
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def wait_gone(pids: set[int], seconds: float) -> set[int]:
    """Wait up to ``seconds`` for every one of ``pids`` to end; those still alive."""
    deadline = time.monotonic() + seconds
    while (left := {p for p in pids if alive(p)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of ``pid`` from ``/proc/PID/stat``; None once it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name in parentheses may hold spaces
    return fields[0], int(fields[1])


def post(port: int, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def get(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return json.load(response)


def play_acked(
    ws: ClientConnection,
    seat: int,
    moves: int,
    rng: random.Random,
    first: dict[str, Any] | None = None,
) -> dict[int, dict[str, Any]]:
    """Play ``moves`` moves for ``seat``, each waited for until acknowledged
    (``first``: a message already read from ``ws``); {seq before the move: the move}."""
    acked: dict[int, dict[str, Any]] = {}
    while len(acked) < moves:
        message, first = first or json.loads(ws.recv(timeout=RECV_SECONDS)), None
        assert message["type"] != "error", message
        if message["type"] != "state" or message["to_move"] != seat or message["seq"] in acked:
            continue
        assert not message["finished"], "the game ended before the moves were played"
        move = rng.choice(message["legal"])
        ws.send(json.dumps({"type": "move", "seq": message["seq"], "move": move}))
        while (answer := json.loads(ws.recv(timeout=RECV_SECONDS)))["type"] != "ack":
            assert answer["type"] == "state", answer
        acked[message["seq"]] = move
    return acked
