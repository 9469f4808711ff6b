"""A throwaway PostgreSQL server for the tests: Debian's binaries, a temp
folder, a free port on 127.0.0.1, trust authentication.

``initdb`` refuses to run as root, so as root the server runs as ``nobody``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

USER = "cardtable"


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's newest, else on PATH."""
    for initdb in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True):
        return Path(initdb).parent
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    """One server in a temp folder: started, stopped (as a crash would:
    ``-m immediate``) and started again on the same port and data."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.folder, nobody.pw_uid, nobody.pw_gid)
            self.run_as = ["runuser", "-u", "nobody", "--"]
        self.data, self.port = self.folder / "data", _free_port()
        self.url = f"postgresql+asyncpg://{USER}@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.run_as, *args], check=True, capture_output=True, cwd=self.folder)

    def init(self) -> None:
        self._run(str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", USER,
                  "--auth=trust", "--no-sync")  # fmt: skip

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-o", options,
                  "-l", str(self.folder / "log"), "-w", "start")  # fmt: skip

    def stop(self) -> None:
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def postgres_server(bin_dir: Path) -> Iterator[PostgresServer]:
    """A started server, stopped and removed afterwards."""
    server = PostgresServer(bin_dir)
    try:
        server.init()
        server.start()
        try:
            yield server
        finally:
            with contextlib.suppress(subprocess.CalledProcessError):  # stopped by the test
                server.stop()
    finally:
        server.remove()


@contextmanager
def postgres(bin_dir: Path) -> Iterator[str]:
    """Start a server; yield its SQLAlchemy URL (database ``postgres``)."""
    with postgres_server(bin_dir) as server:
        yield server.url


def fresh_database(bin_dir: Path, url: str) -> str:
    """A new, empty database on the server of ``url``; its URL."""
    name = "t_" + secrets.token_hex(6)
    host, port = url.split("@", 1)[1].split("/", 1)[0].split(":")
    subprocess.run(
        [str(bin_dir / "createdb"), "-h", host, "-p", port, "-U", USER, name],
        check=True,
        capture_output=True,
    )
    return url.rsplit("/", 1)[0] + "/" + name
