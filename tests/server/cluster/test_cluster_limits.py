"""The limits counted per client are one count across ``cardtable serve
--redis`` processes: requests spread over two processes (directly, or
through the proxy that round-robins them) are refused at the same total as
one process refuses them."""

from __future__ import annotations

import json
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server import topology
from tests.server.helpers import QUICK
from tests.server.processes import post

pytestmark = pytest.mark.usefixtures("needs_haproxy")  # the suite's timeout: see test_cluster.py

CREATES = 4  # creates per minute, the limit under test
WAITING = 2  # waiting tables per client
TOKENS = 2  # wrong seat tokens per minute
EXTRA = (
    "--lease-seconds", "2", "--bot-workers", "1",
    "--creates-per-minute", str(CREATES), "--waiting-per-client", str(WAITING),
    "--token-attempts-per-minute", str(TOKENS),
)  # fmt: skip
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
PEOPLE = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def two(postgres_url: str, redis_url: str) -> Iterator[tuple[list[int], int]]:
    """Two processes on one database and Redis, haproxy before them:
    (their ports, the proxy's)."""
    with (
        topology.serve_processes(postgres_url, 2, "--redis", redis_url, *EXTRA) as (ports, _),
        topology.haproxy(ports) as proxy,
    ):
        yield ports, proxy


def _create(port: int, seats: list[dict[str, str]]) -> tuple[int, Any]:
    """POST a new table to ``port``: (the status, the answer)."""
    body = {"game": "marshmallow-test", "options": QUICK["marshmallow-test"], "seats": seats}
    try:
        return 201, post(port, "/api/tables", body)
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_creates_spread_over_two_processes_are_limited_at_one_total(
    two: tuple[list[int], int],
) -> None:
    ports, _ = two
    answers = [_create(ports[i % 2], BOTS) for i in range(CREATES + 2)]
    assert [code for code, _ in answers] == [201] * CREATES + [429, 429]
    assert "tables in the last minute" in answers[-1][1]["error"]


def test_creates_through_the_proxy_are_limited_at_one_total(
    two: tuple[list[int], int],
) -> None:
    _, proxy = two
    codes = [_create(proxy, BOTS)[0] for _ in range(CREATES + 2)]
    assert codes == [201] * CREATES + [429, 429]


def test_waiting_tables_on_two_processes_count_together(two: tuple[list[int], int]) -> None:
    ports, _ = two
    answers = [_create(ports[i % 2], PEOPLE) for i in range(WAITING + 1)]
    assert [code for code, _ in answers] == [201] * WAITING + [429]
    assert f"you have {WAITING} tables waiting" in answers[-1][1]["error"]
    # The refused create is taken off the rate: a table of bots only still passes.
    assert _create(ports[0], BOTS)[0] == 201


def _first_and_close(port: int, table: str, token: str | None) -> tuple[dict[str, Any], int | None]:
    """A socket's first message, and its close code (``None``: it stayed open)."""
    query = f"?token={token}" if token else ""
    with connect(f"ws://127.0.0.1:{port}/ws/{table}{query}", open_timeout=30) as ws:
        first: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if first["type"] == "state":
            return first, None
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=30)
        assert closed.value.rcvd is not None
        return first, closed.value.rcvd.code


def test_wrong_tokens_on_two_processes_count_together_and_a_relayed_right_one_passes(
    two: tuple[list[int], int],
) -> None:
    ports, _ = two
    body = {"game": "marshmallow-test", "options": QUICK["marshmallow-test"], "seats": PEOPLE}
    table = post(ports[0], "/api/tables", body)["id"]
    token = post(ports[0], f"/api/tables/{table}/join", {"seat": 0, "name": "Ann"})["token"]
    # A spectator at the owner keeps the table there: sockets at the other process relay.
    with connect(f"ws://127.0.0.1:{ports[0]}/ws/{table}", open_timeout=30) as spectator:
        assert json.loads(spectator.recv(timeout=30))["type"] == "state"
        codes = [_first_and_close(ports[i % 2], table, "wrong")[1] for i in range(TOKENS + 2)]
        assert codes == [4403] * TOKENS + [4429, 4429]
        first, code = _first_and_close(ports[1], table, token)  # relayed, same address
        assert code is None and first["seat"] == 0
