"""The hostile client of issue 17 against ``cardtable serve`` with its default limits.

    python benchmarks/bench_hostile_lobby.py [--creates 5000]

One address sends ``--creates`` (at most 20,000) ``POST /api/tables`` with two
human seats as fast as it can, then the script reports what was made, what a
second client still gets (the proxy is trusted only for this run, so
``X-Forwarded-For`` names the clients), the size of ``GET /api/tables``, a
cross-site request and an option over its maximum. 127.0.0.1 only, a fresh
SQLite file.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WAITING = {"game": "marshmallow-test", "seats": [{"kind": "human"}, {"kind": "human"}]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def http(
    port: int, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes, dict[str, str]]:
    """(status, body, headers with lower-case names) of one request."""
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **(headers or {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read(), _lower(response.headers.items())
    except urllib.error.HTTPError as error:
        return error.code, error.read(), _lower(error.headers.items())


def _lower(items: Any) -> dict[str, str]:
    return {str(k).lower(): str(v) for k, v in items}


def start(port: int, db: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "cardtable", "serve", "--port", str(port), "--db", db]
    process = subprocess.Popen(
        [*command, "--trusted-proxy", "127.0.0.1"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            http(port, "/api/games")
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not answer within 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--creates", type=int, default=5000)
    args = parser.parse_args()
    if not 1 <= args.creates <= 20_000:
        raise SystemExit("--creates: 1 to 20000")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start(port, f"sqlite:///{folder}/tables.sqlite3")
        try:
            attacker = {"X-Forwarded-For": "198.51.100.1"}
            began = time.perf_counter()
            codes = [http(port, "/api/tables", WAITING, attacker)[0] for _ in range(args.creates)]
            took = time.perf_counter() - began
            print(f"{args.creates} creates from one client in {took:.1f} s:", end="")
            print("".join(f" {codes.count(c)}×{c}" for c in sorted(set(codes))))
            status, body, headers = http(port, "/api/tables", WAITING, attacker)
            print(
                f"  the next: {status}, Retry-After {headers.get('retry-after')}: {body.decode()}"
            )
            other = http(port, "/api/tables", WAITING, {"X-Forwarded-For": "198.51.100.2"})
            print(f"another client creates: {other[0]}")
            listing = http(port, "/api/tables")[1]
            shown = len(json.loads(listing)["tables"])
            print(f"GET /api/tables: {len(listing)} bytes, {shown} tables")
            evil = {"Content-Type": "text/plain", "Origin": "http://evil.example"}
            print(
                "text/plain from http://evil.example:", http(port, "/api/tables", WAITING, evil)[0]
            )
            huge = {**WAITING, "options": {"target": 999_999_999_999}}
            status, body, _ = http(port, "/api/tables", huge, {"X-Forwarded-For": "198.51.100.3"})
            print(f"target 999999999999: {status} {body.decode()}")
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
