"""The test topology's own parts: Redis answers, and haproxy sends every
request about one table to one backend."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from tests.server.helpers import run_coroutine
from tests.server.processes import free_port, serving
from tests.server.topology import documented_haproxy_config, haproxy, haproxy_binary

SLOW_HEADERS_DEADLINE = 120.0  # seconds; haproxy's timeout http-request is 10


def test_redis_answers(redis_url: str) -> None:
    async def ping() -> bool:
        client = aioredis.from_url(redis_url)
        try:
            return bool(await client.ping())
        finally:
            await client.aclose()

    assert run_coroutine(ping())


@contextmanager
def named_backend(name: str) -> Iterator[int]:
    """An HTTP server on a free port that answers every GET with ``name``."""

    class Answer(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()
            self.wfile.write(name.encode())

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _who(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
        return str(answer.read().decode())


@pytest.mark.usefixtures("needs_haproxy")
def test_haproxy_sends_a_tables_requests_to_one_backend() -> None:
    with (
        named_backend("a") as a,
        named_backend("b") as b,
        named_backend("c") as c,
        haproxy([a, b, c]) as port,
    ):
        where: dict[str, set[str]] = {}
        for i in range(12):
            table = f"table{i}"
            paths = [f"/ws/{table}", f"/t/{table}", f"/api/tables/{table}/join"]
            where[table] = {_who(port, path) for path in paths * 2}
        assert all(len(backends) == 1 for backends in where.values()), where
        # …and the tables are spread: more than one backend serves them.
        assert len(set().union(*where.values())) > 1
        # Quick match is every process's (one queue in Redis): its requests spread too.
        assert len({_who(port, "/api/quick") for _ in range(6)}) > 1


@pytest.mark.usefixtures("needs_haproxy")
def test_the_documented_proxy_configuration_is_valid_as_written(tmp_path: Path) -> None:
    config = tmp_path / "haproxy.cfg"
    config.write_text(documented_haproxy_config())
    binary = haproxy_binary()
    assert binary is not None
    checked = subprocess.run(
        [binary, "-c", "-f", str(config)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _create_from(proxy: int, source: str, forged: str | None) -> int:
    """A table created through the proxy by a client at ``source`` (an address
    of 127.0.0.0/8) that sends ``forged`` as its own X-Forwarded-For; the status."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", proxy, timeout=10, source_address=(source, 0)
    )
    headers = {"Content-Type": "application/json"}
    if forged is not None:
        headers["X-Forwarded-For"] = forged
    body = {
        "game": "marshmallow-test",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
    }
    try:
        connection.request("POST", "/api/tables", json.dumps(body), headers)
        return connection.getresponse().status
    finally:
        connection.close()


@contextmanager
def one_server_behind_the_proxy(db_url: str, *extra: str) -> Iterator[int]:
    """``cardtable serve`` allowing one create a minute per client (with
    ``extra`` options), behind the documented haproxy; yield the proxy's port."""
    port = free_port()
    with serving(port, db_url, "--creates-per-minute", "1", *extra), haproxy([port]) as proxy:
        yield proxy


@pytest.mark.usefixtures("needs_haproxy")
def test_a_client_behind_the_documented_proxy_cannot_forge_its_address(db_url: str) -> None:
    with one_server_behind_the_proxy(db_url, "--trusted-proxy", "127.0.0.1") as proxy:
        assert _create_from(proxy, "127.0.0.2", forged="203.0.113.1") == 201
        # Another forged address is still 127.0.0.2, whose one create is spent…
        assert _create_from(proxy, "127.0.0.2", forged="203.0.113.2") == 429
        assert _create_from(proxy, "127.0.0.2", forged="127.0.0.3, 203.0.113.3") == 429
        # …while the server counts the address the proxy wrote: another client's is its own.
        assert _create_from(proxy, "127.0.0.3", forged=None) == 201


@pytest.mark.usefixtures("needs_haproxy")
def test_without_trusted_proxy_everyone_behind_the_proxy_is_one_client(db_url: str) -> None:
    # uvicorn would otherwise believe an X-Forwarded-For from 127.0.0.1 of its own accord.
    with one_server_behind_the_proxy(db_url) as proxy:
        assert _create_from(proxy, "127.0.0.2", forged=None) == 201
        assert _create_from(proxy, "127.0.0.3", forged=None) == 429


@pytest.mark.usefixtures("needs_haproxy")
def test_the_proxy_closes_on_a_client_that_sends_its_headers_slowly() -> None:
    with (
        named_backend("a") as a,
        haproxy([a]) as port,
        socket.create_connection(("127.0.0.1", port)) as client,
    ):
        client.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        # Nothing more comes: the proxy gives up (10 s), well before this deadline.
        client.settimeout(SLOW_HEADERS_DEADLINE)
        answer = client.recv(64)
    assert answer.startswith(b"HTTP/1.1 408") or answer == b"", answer
