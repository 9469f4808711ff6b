"""The lobby that is alive across processes (issue 29, item 1): every process
lists the games in play of every other (never a private one), counts the
people at every process's tables, and finds a person's own live tables
wherever they are served."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from tests.server.cluster.test_cluster import (
    AGAINST_A_BOT,
    WAIT_SECONDS,
    Cluster,
    _join,
    _new_table,
    _socket,
    running_cluster,
)
from tests.server.helpers import QUICK
from tests.server.processes import get, post

pytestmark = pytest.mark.usefixtures("needs_haproxy")


@pytest.fixture
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    with running_cluster(postgres_url, redis_url) as running:
        yield running


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    """The test's sockets, closed after it (before its processes stop)."""
    with ExitStack() as sockets:
        yield sockets


def _everywhere(cluster: Cluster, path: str, done: Callable[[Any], bool]) -> list[Any]:
    """``GET path`` of each process, polled until ``done`` holds for every
    answer (an owner writes its lines and counts at each heartbeat)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        answers = [get(port, path) for port in cluster.ports]
        if all(done(a) for a in answers):
            return answers
        assert time.monotonic() < deadline, f"not every process says it: {answers}"
        time.sleep(0.1)


def test_games_in_play_people_online_and_own_tables_across_processes(
    cluster: Cluster, stack: ExitStack
) -> None:
    owner = cluster.ports[1]
    public = _new_table(owner, "myrummy-111", AGAINST_A_BOT, QUICK["myrummy-111"])
    hidden = post(
        owner,
        "/api/tables",
        {"game": "myrummy-111", "options": QUICK["myrummy-111"], "seats": AGAINST_A_BOT,
         "private": True, "bot_delay_ms": 0},
    )["id"]  # fmt: skip
    waiting = _new_table(cluster.ports[2], "marshmallow-test", [{"kind": "human"}] * 2)
    for table in (public, hidden):
        stack.enter_context(_socket(owner, table, _join(owner, table, 0, "Ann")))
    stack.enter_context(_socket(owner, public))  # a spectator

    def in_play(answer: dict[str, Any]) -> bool:  # once its owner wrote the spectator in
        return [(t["id"], t["spectators"]) for t in answer["tables"]] == [(public, 1)]

    for answer in _everywhere(cluster, "/api/tables?status=playing", in_play):
        line = answer["tables"][0]
        assert line["play"]["round"] == 1 and len(line["play"]["scores"]) == 2
    waits = _everywhere(cluster, "/api/tables?status=waiting", lambda a: bool(a["tables"]))
    assert all([t["id"] for t in a["tables"]] == [waiting] for a in waits)
    # Three sockets, all at process 1: every process counts them.
    _everywhere(cluster, "/api/online", lambda a: a["online"] == 3)
    # Ann's own tables, the private one too, found from any process.
    mine = _everywhere(
        cluster, f"/api/live-tables?ids={public},{hidden}", lambda a: len(a["tables"]) == 2
    )
    assert all({t["id"] for t in a["tables"]} == {public, hidden} for a in mine)
