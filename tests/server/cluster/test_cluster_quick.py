"""Quick match across ``cardtable serve --redis`` processes: one queue in
Redis, so any process answers any ticket. Requests go to the processes
directly (each person's to a process of their own), and some through the
proxy, which no longer sends ``/api/quick`` to one process.

Each person comes from an address of their own (``X-Forwarded-For``, the
processes trusting 127.0.0.1 as their proxy), as behind a real proxy, so
the per-address limit is what one test puts to the test. Waits are bounded
polls; nothing asserted is a duration.
"""

from __future__ import annotations

import json
import signal
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.server.cluster.test_cluster import LEASE, WAIT_SECONDS, Cluster, _socket, running_cluster

# No shorter timeout than the suite's (pyproject.toml): starting three
# processes alone took past 120 s on a loaded machine, and a timeout ends the
# whole run; the bounded waits below fail first, and say what they waited for.
pytestmark = pytest.mark.usefixtures("needs_haproxy")

MT = "marshmallow-test"
LIMIT = 4  # --quick-per-client, the default


@pytest.fixture
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    with running_cluster(postgres_url, redis_url, 3, LEASE, "--trusted-proxy", "127.0.0.1") as c:
        yield c


def ask(
    port: int, path: str, address: str, body: dict[str, Any] | None = None
) -> tuple[int, dict[str, Any]]:
    """GET (or POST ``body``) ``path`` on ``port`` for a person at ``address``:
    (the status, the answer)."""
    headers = {"X-Forwarded-For": address, "Content-Type": "application/json"}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers)
    try:
        with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def play_now(port: int, name: str, address: str, **asked: Any) -> dict[str, Any]:
    body = {"game": MT, "players": 2, "name": name, "wait_seconds": 30, "bots": None, **asked}
    status, answer = ask(port, "/api/quick", address, body)
    assert status == 201, answer
    return answer


def poll(port: int, ticket: str, address: str, wait: int = 0) -> dict[str, Any]:
    status, answer = ask(port, f"/api/quick/{ticket}?wait={wait}", address)
    assert status == 200, answer
    return answer


def until_seated(port: int, ticket: str, address: str) -> dict[str, Any]:
    """Long polls of ``ticket`` on ``port`` until it is seated (bounded)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while (answer := poll(port, ticket, address, wait=5))["status"] != "seated":
        assert time.monotonic() < deadline, f"never seated: {answer}"
    return answer


def waiting(port: int) -> dict[tuple[str, int], int]:
    status, answer = ask(port, "/api/quick", "10.0.0.1")
    assert status == 200, answer
    return {(c["game"], c["players"]): c["count"] for c in answer["waiting"]}


def assert_own_seats(cluster: Cluster, port_of: list[int], answers: list[dict[str, Any]]) -> str:
    """Every answer seated at one table, in a seat of its own, with a token
    that opens that seat through the process given for it; the table."""
    (table,) = {a["table"] for a in answers}
    assert len({a["seat"] for a in answers}) == len({a["token"] for a in answers}) == len(answers)
    for port, answer in zip(port_of, answers, strict=True):
        with _socket(port, table, answer["token"]) as (_, first):
            assert first["seat"] == answer["seat"]
    return str(table)


def test_two_people_on_different_processes_meet_with_their_own_seats(cluster: Cluster) -> None:
    p0, p1, p2 = cluster.ports
    ann = play_now(p0, "Ann", "10.0.0.1")
    assert ann["status"] == "waiting" and "token" not in ann
    assert waiting(p2) == {(MT, 2): 1}  # every process counts her
    with ThreadPoolExecutor(max_workers=1) as pool:
        # Ann's page long-polls her own process; Bea arrives at another one.
        asked = pool.submit(poll, p0, ann["ticket"], "10.0.0.1", 20)
        bea = play_now(p1, "Bea", "10.0.0.2")
        ann = asked.result()
    assert bea["status"] == "seated"  # she completed the table: seated at once
    assert ann["status"] == "seated"  # her long poll on her own process learnt it
    table = assert_own_seats(cluster, [p0, p1], [ann, bea])
    assert bea["token"] not in json.dumps(ann) and ann["token"] not in json.dumps(bea)
    info = ask(p2, f"/api/tables/{table}", "10.0.0.3")[1]
    assert {s["seat"]: s["name"] for s in info["seats"]} == {ann["seat"]: "Ann", bea["seat"]: "Bea"}
    assert all(waiting(port) == {} for port in cluster.ports)


def test_many_people_at_once_on_every_process_are_each_seated_once(cluster: Cluster) -> None:
    people = 12
    start = threading.Barrier(people)

    def person(i: int) -> dict[str, Any]:
        address = f"10.0.1.{i}"
        start.wait()
        joined = play_now(cluster.ports[i % 3], f"P{i}", address)
        # Each asks on to another process, or through the proxy.
        asked_at = cluster.proxy if i % 2 else cluster.ports[(i + 1) % 3]
        if joined["status"] == "seated":
            return poll(asked_at, joined["ticket"], address)
        return until_seated(asked_at, joined["ticket"], address)

    with ThreadPoolExecutor(max_workers=people) as pool:
        answers = list(pool.map(person, range(people)))
    assert {a["status"] for a in answers} == {"seated"}
    tables = Counter(a["table"] for a in answers)
    assert len(tables) == people // 2 and set(tables.values()) == {2}
    assert len({(a["table"], a["seat"]) for a in answers}) == people  # no seat given twice
    assert len({a["token"] for a in answers}) == people
    for table in tables:
        seats = ask(cluster.proxy, f"/api/tables/{table}", "10.0.0.1")[1]["seats"]
        names = sorted(s["name"] for s in seats)
        mine = sorted(f"P{i}" for i, a in enumerate(answers) if a["table"] == table)
        assert names == mine and len(set(names)) == 2  # exactly its two people, nobody twice
    assert all(waiting(port) == {} for port in cluster.ports)


def test_a_person_alone_gets_bots_after_the_wait_asked_elsewhere(cluster: Cluster) -> None:
    p0, p1, p2 = cluster.ports
    bo = play_now(p2, "Bo", "10.0.0.2", players=4, wait_seconds=5, bots=None)
    ann = play_now(p0, "Ann", "10.0.0.1", players=3, wait_seconds=5, bots="easy")
    assert ann["status"] == "waiting"
    seated = until_seated(p1, ann["ticket"], "10.0.0.1")  # she asks another process
    seats = ask(p2, f"/api/tables/{seated['table']}", "10.0.0.1")[1]["seats"]
    assert [s["kind"] for s in seats].count("human") == 1
    assert {s["bot"] for s in seats if s["kind"] == "bot"} == {"easy"}
    assert seats[seated["seat"]]["name"] == "Ann"
    still = poll(p1, bo["ticket"], "10.0.0.2")  # "no bots": he waits on, past his wait
    # (he came before Ann, so he has waited at least her wait)
    assert still["status"] == "waiting" and still["waited_seconds"] >= 5


def test_a_ticket_cancelled_on_another_process_is_gone_everywhere(cluster: Cluster) -> None:
    p0, p1, p2 = cluster.ports
    ann = play_now(p0, "Ann", "10.0.0.1")
    with ThreadPoolExecutor(max_workers=1) as pool:
        asked = pool.submit(ask, p0, f"/api/quick/{ann['ticket']}?wait=20", "10.0.0.1")
        assert ask(p1, f"/api/quick/{ann['ticket']}/cancel", "10.0.0.1", {}) == (
            200,
            {"cancelled": True},
        )
        status, answer = asked.result()  # her own long poll learns it too
    assert status == 404 and "no quick-match ticket" in answer["error"]
    status, answer = ask(p2, f"/api/quick/{ann['ticket']}", "10.0.0.1")
    assert status == 404 and "no quick-match ticket" in answer["error"]
    assert all(waiting(port) == {} for port in cluster.ports)
    bea = play_now(p2, "Bea", "10.0.0.2")
    assert bea["status"] == "waiting"  # nobody is there any more for her


def test_seats_made_by_a_process_killed_after_are_found_on_the_others(cluster: Cluster) -> None:
    p0, p1, p2 = cluster.ports
    ann = play_now(p0, "Ann", "10.0.0.1")
    bea = play_now(p1, "Bea", "10.0.0.2")
    assert bea["status"] == "seated"
    maker = cluster.processes[1]
    assert cluster.owner(bea["table"]) == 1  # the process that seated them made the table
    maker.send_signal(signal.SIGKILL)
    maker.wait()
    ann = poll(p2, ann["ticket"], "10.0.0.1")
    bea_again = poll(p0, bea["ticket"], "10.0.0.2")
    assert bea_again == bea  # her seat's answer, from another process
    table = assert_own_seats(cluster, [p2, p0], [ann, bea])  # the table served again
    assert cluster.owner(table) != 1


def test_the_limit_per_address_counts_entries_on_every_process(cluster: Cluster) -> None:
    me = "10.0.2.1"
    mine = [
        play_now(cluster.ports[n % 3], f"Me{n}", me, players=n)["ticket"]
        for n in range(2, 2 + LIMIT)  # four queues: nobody meets anybody
    ]
    body = {"game": "myrummy-111", "players": 2, "name": "Me", "bots": None}
    status, refused = ask(cluster.ports[1], "/api/quick", me, body)
    assert status == 429 and f"{LIMIT} people waiting for a quick match" in refused["error"]
    assert ask(cluster.ports[2], "/api/quick", "10.0.2.2", body)[0] == 201  # another address
    assert ask(cluster.ports[2], f"/api/quick/{mine[0]}/cancel", me, {})[0] == 200
    status, answer = ask(cluster.ports[0], "/api/quick", me, body)
    assert status == 201 and answer["status"] == "seated"  # with the other address's person
