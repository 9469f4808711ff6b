"""The parts of a several-process deployment, started by the tests themselves:
Debian's ``redis-server`` and ``haproxy`` in a temp folder on free ports of
127.0.0.1, as :mod:`tests.server.pg` does for PostgreSQL.

The haproxy configuration is read from ``docs/deployment.md`` itself: it routes
every request that names a table (``/t/ID``, ``/ws/ID``, ``/api/tables/ID…``)
by a consistent hash of the id, so all of a table's sockets meet at one
process, and spreads the rest.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tests.server.pg import binaries, fresh_database, postgres
from tests.server.processes import ROOT, free_port, launch_serve, wait_until_serving

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


DEPLOYMENT_PAGE = ROOT / "docs" / "deployment.md"


def documented_haproxy_config() -> str:
    """The haproxy configuration ``docs/deployment.md`` shows, as written there."""
    page = DEPLOYMENT_PAGE.read_text(encoding="utf-8")
    found = re.search(r"^```haproxy\n(.*?)^```$", page, re.MULTILINE | re.DOTALL)
    assert found is not None, f"{DEPLOYMENT_PAGE} shows no haproxy configuration"
    return found.group(1)


def haproxy_config(port: int, backends: list[int]) -> str:
    """The proxy of ``docs/deployment.md`` on ``port`` of 127.0.0.1, in front of
    ``backends``: the page's own text with only its ``bind`` line and its
    ``server`` lines' addresses replaced (their health-check options kept), so
    that the page and the tests cannot disagree."""
    servers = [f"    server s{i} 127.0.0.1:{backend} " for i, backend in enumerate(backends, 1)]
    lines: list[str] = []
    for line in documented_haproxy_config().splitlines():
        if line.strip().startswith("bind "):
            lines.append(f"    bind 127.0.0.1:{port}")
        elif line.strip().startswith("server "):
            options = line.split(maxsplit=3)[3]  # server NAME ADDRESS OPTIONS…
            lines += [server + options for server in servers]
            servers = []  # the page's servers, all replaced by the first
        else:
            lines.append(line)
    assert not servers, "the page's haproxy configuration lists no server"
    return "\n".join(lines) + "\n"


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


@contextmanager
def serve_processes(
    db: str, n: int, *extra: str, logs_to_files: bool = False
) -> Iterator[tuple[list[int], list[subprocess.Popen[bytes]]]]:
    """``n`` ``cardtable serve`` processes on ``db`` (with ``extra`` options),
    answering; yield (their ports, their processes), every one killed on
    exit. The first migrates the database alone, then the others start.
    ``logs_to_files``: what they print goes to temp files, not pipes (a pipe
    nobody reads fills up and stops a long-running server), and a failure in
    the body carries each one's last lines (what the servers were doing)."""
    ports = [free_port() for _ in range(n)]
    logs: list[IO[bytes]] = []
    with ExitStack() as stack:
        processes: list[subprocess.Popen[bytes]] = []

        def kill_all() -> None:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                process.wait()

        stack.callback(kill_all)

        def launch(port: int) -> subprocess.Popen[bytes]:
            if not logs_to_files:
                return launch_serve(port, db, *extra)
            logs.append(stack.enter_context(tempfile.TemporaryFile()))
            return launch_serve(port, db, *extra, output=logs[-1])

        processes.append(launch(ports[0]))
        wait_until_serving(ports[0], processes[0])
        processes += [launch(port) for port in ports[1:]]
        for port, process in zip(ports, processes, strict=True):
            wait_until_serving(port, process)
        try:
            yield ports, processes
        except Exception as failure:
            for port, log in zip(ports, logs, strict=False):
                failure.add_note(f"--- the server on port {port}, its last lines:\n{_tail(log)}")
            if logs and not any(note.startswith(BUSIEST) for note in failure.__notes__):
                failure.add_note(_busiest())  # once, however many of these are nested
            raise


BUSIEST = "--- the busiest processes"


def _busiest() -> str:
    """The processes with the largest share of a core since they started,
    with their scheduling class: a server's workers are idle-class (``IDL``)
    and make no progress while normal tasks keep both cores busy, so a slow
    failure says whether that was so."""
    ps = shutil.which("ps")
    if ps is None:
        return "--- (no ps here to show the busiest processes)"
    columns = "pid,ppid,cls,ni,pcpu,etime,args"
    shown = subprocess.run(
        [ps, "-eo", columns, "--sort=-pcpu"], capture_output=True, text=True, check=False
    )
    return f"{BUSIEST} (share of a core since each started):\n" + "\n".join(
        line[:160] for line in shown.stdout.splitlines()[:9]
    )


def _tail(log: IO[bytes], size: int = 3000) -> str:
    """The last ``size`` bytes of what a server wrote to ``log``, as text."""
    log.seek(0, os.SEEK_END)
    log.seek(max(0, log.tell() - size))
    return log.read().decode(errors="replace")


@dataclass
class Topology:
    """A whole several-process deployment on this machine."""

    db: str  # the PostgreSQL database's URL
    ports: list[int]  # the cardtable serve processes'
    processes: list[subprocess.Popen[bytes]]
    proxy: int  # haproxy's port, in front of them


@contextmanager
def started(n: int, *extra: str) -> Iterator[Topology]:
    """A fresh PostgreSQL database, Redis, ``n`` ``cardtable serve --redis``
    processes (with ``extra`` options, printing to temp files) and haproxy
    in front of them, all on 127.0.0.1 — what the benchmarks run."""
    bin_dir = binaries()
    if bin_dir is None:
        raise SystemExit("PostgreSQL is not installed: scripts/install-test-deps.sh installs it")
    if redis_binary() is None or haproxy_binary() is None:
        raise SystemExit("redis-server or haproxy is missing: scripts/install-test-deps.sh")
    with ExitStack() as stack:
        db = fresh_database(bin_dir, stack.enter_context(postgres(bin_dir)))
        _, redis_url = stack.enter_context(redis())
        serving = serve_processes(db, n, "--redis", redis_url, *extra, logs_to_files=True)
        ports, processes = stack.enter_context(serving)
        yield Topology(db, ports, processes, stack.enter_context(haproxy(ports)))
