"""Running a tournament of signed-in people in-process: make it, enter,
start, and play each person's table of a deal with random legal moves."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

from cardtable.server.tournaments.director import Director
from tests.server.accounts_helpers import AccountServer
from tests.server.helpers import Conn, play_out


def director(server: AccountServer) -> Director:
    found: Director = server.client.app.state.tournaments  # type: ignore[attr-defined]
    return found


def sweep(server: AccountServer) -> None:
    """One director sweep now (the background one runs every second)."""
    server.client.portal.call(director(server).sweep)  # type: ignore[union-attr]


def make(server: AccountServer, **fields: Any) -> str:
    body = {
        "name": "Friday duplicate",
        "game": "marshmallow-test",
        "players": 2,
        "deals": 2,
        "form": "duplicate",
        "start_in_minutes": 24 * 60,  # a day ahead: the test starts it
        "access": "open",
        "rated": False,
        "bot": "easy",
        "move_hours": None,
        **fields,
    }
    made = server.post("/api/tournaments", body, 201)
    return str(made["id"])


def people(server: AccountServer, names: list[str]) -> list[AccountServer]:
    """A browser signed up per name; ``server`` is the first of them."""
    browsers = [server] + [server.browser() for _ in names[1:]]
    for browser, name in zip(browsers, names, strict=True):
        browser.sign_up(name)
    return browsers


def get(browser: AccountServer, tournament_id: str) -> dict[str, Any]:
    response = browser.client.get(f"/api/tournaments/{tournament_id}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def play_deal(
    browsers: list[AccountServer], tournament_id: str, rng: random.Random
) -> dict[str, dict[str, Any]]:
    """Every person plays their table of the current deal to its end, the
    people of one table together; each table's last state, by table id."""
    tables: dict[str, list[tuple[AccountServer, dict[str, Any]]]] = {}
    for browser in browsers:
        mine = get(browser, tournament_id)["table"]
        assert mine is not None
        tables.setdefault(mine["id"], []).append((browser, mine))
    finals = {}
    for table_id, seated in tables.items():
        with ExitStack() as stack:
            conns: dict[int, Conn] = {}
            for browser, mine in seated:
                conn = stack.enter_context(browser.connect(table_id, mine["token"]))
                assert conn.seat == mine["seat"]
                conns[mine["seat"]] = conn
            finals[table_id] = play_out(next(iter(conns.values())), conns, rng)
    return finals
