"""The test topology's own parts: Redis answers, and haproxy sends every
request about one table to one backend."""

from __future__ import annotations

import socket
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import redis.asyncio as aioredis

from tests.server.helpers import run_coroutine
from tests.server.processes import ROOT
from tests.server.topology import haproxy, haproxy_config

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


def test_the_deployment_page_shows_the_proxy_configuration_the_tests_use() -> None:
    page = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    assert f"```haproxy\n{haproxy_config(80, [8001, 8002, 8003])}```" in page


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
