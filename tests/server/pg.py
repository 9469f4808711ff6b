"""A throwaway PostgreSQL server for the tests: Debian's binaries, a temp
folder, a free port on 127.0.0.1, trust authentication.

``initdb`` refuses to run as root, so as root the server runs as ``nobody``.
"""

from __future__ import annotations

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


@contextmanager
def postgres(bin_dir: Path) -> Iterator[str]:
    """Start a server; yield its SQLAlchemy URL (database ``postgres``)."""
    folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
        run_as = ["runuser", "-u", "nobody", "--"]
    data, port = folder / "data", _free_port()

    def run(*args: str) -> None:
        subprocess.run([*run_as, *args], check=True, capture_output=True, cwd=folder)

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "--no-sync")
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"),
            "-w", "start")  # fmt: skip
        try:
            yield f"postgresql+asyncpg://{USER}@127.0.0.1:{port}/postgres"
        finally:
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


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
