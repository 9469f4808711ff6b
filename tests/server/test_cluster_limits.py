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

from tests.server import topology
from tests.server.helpers import QUICK
from tests.server.processes import post

pytestmark = pytest.mark.usefixtures("needs_haproxy")  # the suite's timeout: see test_cluster.py

CREATES = 4  # creates per minute, the limit under test
WAITING = 2  # waiting tables per client
EXTRA = (
    "--lease-seconds", "2", "--bot-workers", "1",
    "--creates-per-minute", str(CREATES), "--waiting-per-client", str(WAITING),
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
