"""The parts of a several-process deployment, started by the tests themselves:
Debian's ``redis-server`` and ``haproxy`` in a temp folder on free ports of
127.0.0.1, as :mod:`tests.server.pg` does for PostgreSQL.

The haproxy configuration is the one ``docs/deployment.md`` shows: it routes
every request that names a table (``/t/ID``, ``/ws/ID``, ``/api/tables/ID…``)
by a consistent hash of the id, so all of a table's sockets meet at one
process, and spreads the rest.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.server.processes import free_port

START_SECONDS = 20.0


def _answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _wait_listening(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while not _answers(port):
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else b""
            raise AssertionError(f"{what} exited: {output.decode()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} does not listen on port {port}")
        time.sleep(0.05)


def redis_binary() -> str | None:
    return shutil.which("redis-server")


def haproxy_binary() -> str | None:
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )


@contextmanager
def redis(port: int | None = None) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A Redis server with nothing on disk; yield (its process, its URL)."""
    binary = redis_binary()
    assert binary is not None
    port = port or free_port()
    folder = Path(tempfile.mkdtemp(prefix="cardtable-redis-"))
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--save", "", "--appendonly", "no", "--protected-mode", "no"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        _wait_listening(port, process, "redis-server")
        yield process, f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def haproxy_config(port: int, backends: list[int]) -> str:
    """The proxy of ``docs/deployment.md`` on ``port``, in front of ``backends``."""
    servers = "\n".join(
        f"    server s{i} 127.0.0.1:{backend} check inter 500ms fall 1 rise 1"
        for i, backend in enumerate(backends, 1)
    )
    return HAPROXY_CONFIG.format(port=port, servers=servers)


HAPROXY_CONFIG = """\
global
    maxconn 4000

defaults
    mode http
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    retries 3
    option redispatch 1

frontend cardtable
    bind 127.0.0.1:{port}
    default_backend servers

backend servers
    # The table a request is about, from its path: /t/ID, /ws/ID, /api/tables/ID/...
    http-request set-var(txn.table) path,field(3,/) if {{ path_reg ^/(t|ws)/[^/]+ }}
    http-request set-var(txn.table) path,field(4,/) if {{ path_reg ^/api/tables/[^/]+ }}
    # All of a table's requests go to one process; the others round-robin.
    # Consistent hashing: a process going down moves only its own tables.
    balance hash var(txn.table)
    hash-type consistent
{servers}
"""


@contextmanager
def haproxy(backends: list[int]) -> Iterator[int]:
    """haproxy in front of ``backends`` (ports on 127.0.0.1); yield its port."""
    binary = haproxy_binary()
    assert binary is not None
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="cardtable-haproxy-"))
    config = folder / "haproxy.cfg"
    config.write_text(haproxy_config(port, backends))
    process = subprocess.Popen(
        [binary, "-db", "-f", str(config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        _wait_listening(port, process, "haproxy")
        yield port
    finally:
        process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)
