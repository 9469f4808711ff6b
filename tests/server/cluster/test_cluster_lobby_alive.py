"""The lobby that is alive across processes (issue 29, item 1): every process
lists the games in play of every other (never a private one), counts the
people at every process's tables, and finds a person's own live tables
wherever they are served."""

from __future__ import annotations

import json
import time
import urllib.request
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


def _as(port: int, path: str, cookie: str, body: dict[str, Any] | None = None) -> Any:
    """A request of a signed-in browser (its session cookie sent as it is)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Cookie": cookie},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def _signed_up(port: int, name: str) -> str:
    """A new account's session cookie (``ct_session=…``)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/account/signup",
        data=json.dumps({"name": name, "password": "correct horse"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(response.headers["Set-Cookie"]).split(";")[0]


def test_my_games_and_your_turn_count_a_table_another_process_serves(cluster: Cluster) -> None:
    """ "My games" (and the header's "Your turn: N" read from it) on any
    process lists a person's turn-based table served by another, whose turn
    it is and when it runs out, without taking the table over."""
    owner, other = cluster.ports[1], cluster.ports[2]
    ann, bob = _signed_up(owner, "Ann Away"), _signed_up(owner, "Bob Away")
    body = {"game": "marshmallow-test", "seats": [{"kind": "human"}] * 2, "move_hours": 24}
    table = post(owner, "/api/tables", body)["id"]
    for seat, cookie in enumerate((ann, bob)):
        _as(owner, f"/api/tables/{table}/join", cookie, {"seat": seat, "name": "x"})
    facts = get(owner, f"/api/tables/{table}")
    assert facts["status"] == "playing"

    def listed(answer: dict[str, Any]) -> bool:  # as it plays (the owner's line after the joins)
        return [(g["id"], g["status"]) for g in answer["in_progress"]] == [(table, "playing")]

    deadline = time.monotonic() + WAIT_SECONDS
    while not all(listed(_as(other, "/api/me/games", c)) for c in (ann, bob)):
        assert time.monotonic() < deadline, "the other process never listed the table"
        time.sleep(0.1)  # the owner publishes its lines at its heartbeat
    games = [_as(other, "/api/me/games", c)["in_progress"][0] for c in (ann, bob)]
    assert [g["seat"] for g in games] == [0, 1]
    assert [g["names"] for g in games] == [["Ann Away", "Bob Away"]] * 2
    mover = next(i for i, g in enumerate(games) if g["your_turn"])
    assert not games[1 - mover]["your_turn"]  # one person is to move
    assert games[mover]["deadline_ms"] is not None and games[1 - mover]["deadline_ms"] is None
    assert games[mover]["move_hours"] == 24
    with _socket(owner, table) as (_, state):  # the table stayed with its owner
        assert state["to_move"] == mover
