"""Turn-based Play now across processes (cardtable/server/cluster/remote_seats.py):
the request names no table, so it lands on any process. When the open table
it finds is kept by another process (its first person has it open there),
the seat is asked of that process over Redis: the second person is seated
at that same table (not sent to a new one of their own), the first person's
socket sees them sit down, the table stays where it was, and the seat is
the second person's account's."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from cardtable.server.db.schema import account_seats, accounts
from cardtable.server.web.session_cookie import COOKIE
from tests.server.cluster.test_cluster import WAIT_SECONDS, _socket, running_cluster
from tests.server.helpers import run_coroutine

pytestmark = pytest.mark.usefixtures("needs_haproxy")

MT = "marshmallow-test"
PLAY_NOW = {"game": MT, "players": 2, "move_hours": 24}


def _post(port: int, path: str, body: dict[str, Any], cookie: str | None = None) -> Any:
    """A JSON POST; the answer's body and its session cookie (a Secure cookie
    is sent back by hand: these processes serve plain HTTP on 127.0.0.1)."""
    headers = {"Content-Type": "application/json"}
    if cookie is not None:
        headers["Cookie"] = f"{COOKIE}={cookie}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(), headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        found = response.headers.get("Set-Cookie", "")
        set_cookie = found.split(";", 1)[0].split("=", 1)[1] if found.startswith(COOKIE) else None
        return json.load(response), set_cookie


def _sign_up(port: int, name: str) -> str:
    _, cookie = _post(port, "/api/account/signup", {"name": name, "password": "correct horse"})
    assert cookie, "no session cookie"
    return str(cookie)


async def _seat_owners(url: str, table: str) -> dict[int, str]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(account_seats.c.seat, accounts.c.name)
                .join(accounts, accounts.c.id == account_seats.c.account_id)
                .where(account_seats.c.table_id == table)
            )
            return {r.seat: r.name for r in rows}
    finally:
        await engine.dispose()


def test_play_now_seats_a_person_at_an_open_table_another_process_keeps(
    postgres_url: str, redis_url: str
) -> None:
    with running_cluster(postgres_url, redis_url, 2) as cluster:
        first, second = cluster.ports
        ann = _sign_up(first, "Ann")
        bea = _sign_up(second, "Bea")
        opened, _ = _post(first, "/api/quick/turn-based", PLAY_NOW, ann)
        assert opened["joined"] is False
        table = opened["table"]
        with _socket(first, table, opened["token"]) as (ws, state):
            assert state["status"] == "waiting"
            owner = cluster.owner(table)
            assert cluster.ports[owner] == first  # Ann's socket keeps it at her process
            seated, _ = _post(second, "/api/quick/turn-based", PLAY_NOW, bea)
            assert (seated["table"], seated["joined"]) == (table, True)
            assert seated["seat"] == 1 - opened["seat"]
            deadline = time.monotonic() + WAIT_SECONDS
            while state["status"] != "playing":  # Ann's page sees Bea sit down
                assert time.monotonic() < deadline, "Ann's socket never saw the game start"
                message = json.loads(ws.recv(timeout=WAIT_SECONDS))
                if message["type"] == "state":
                    state = message
            names = [s["name"] for s in state["seats"]]
            assert names[seated["seat"]] == "Bea"
            assert cluster.owner(table) == owner  # it stayed where it was
        with _socket(second, table, seated["token"]) as (_, hers):  # Bea's token works
            assert hers["seat"] == seated["seat"]
        assert run_coroutine(_seat_owners(cluster.db, table)) == {
            opened["seat"]: "Ann",
            seated["seat"]: "Bea",
        }
