"""Quick match at your own pace (issue 30, item 1; cardtable/server/quick/turn_based.py):
``POST /api/quick/turn-based`` seats an account at once, at the open
turn-based table of the same kind that has waited longest among those near
its rating, or at a new one that waits for the others; never at its own
table or beside someone blocked; at most ``turn_based_per_account``
unfinished turn-based tables per account."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cardtable.server.quick.turn_based import RANGE_PER_HOUR, RANGE_START, TurnBasedMatch
from cardtable.server.settings import Limits
from tests.server.accounts_helpers import AccountServer, account_server
from tests.server.helpers import UNLIMITED
from tests.server.live.test_lobby_lifecycle import HOUR, Clock

pytestmark = pytest.mark.timeout(300, method="thread")

MT = "marshmallow-test"
ASK = {"game": MT, "players": 2, "move_hours": 24}


def ask(person: AccountServer, status: int = 201, **change: Any) -> dict[str, Any]:
    answer: dict[str, Any] = person.post("/api/quick/turn-based", {**ASK, **change}, status)
    return answer


def facts(person: AccountServer, table: str) -> dict[str, Any]:
    response = person.client.get(f"/api/tables/{table}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def people(server: AccountServer, *names: str) -> list[AccountServer]:
    browsers = [server.browser() for _ in names]
    for browser, name in zip(browsers, names, strict=True):
        browser.sign_up(name)
    return browsers


def limits(clock: Clock, **change: Any) -> Limits:
    return dataclasses.replace(UNLIMITED, clock=clock, **change)


def test_the_first_opens_a_table_and_the_next_joins_it(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, limits=limits(clock)) as server:
        ann, bob = people(server, "Ann", "Bob")
        opened = ask(ann)
        assert opened["joined"] is False and opened["move_hours"] == 24
        table = facts(ann, opened["table"])
        assert table["status"] == "waiting"
        assert (table["move_hours"], table["on_timeout"]) == (24, "stand-in")
        assert table["private"] is False and table["rated"] is True
        with ann.connect(opened["table"], opened["token"]) as conn:
            assert conn.seat == opened["seat"]  # the token is the seat's
        clock.now += HOUR
        joined = ask(bob)
        assert joined["joined"] is True and joined["table"] == opened["table"]
        assert joined["seat"] == 1 - opened["seat"]
        table = facts(bob, opened["table"])
        assert table["status"] == "playing"
        names = {s["seat"]: s["name"] for s in table["seats"]}
        assert names == {opened["seat"]: "Ann", joined["seat"]: "Bob"}
        mine = bob.client.get("/api/me/games").json()
        assert opened["table"] in [g["id"] for g in mine["in_progress"]]


def test_never_ones_own_table_another_pace_or_beside_a_block(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, limits=limits(clock)) as server:
        ann, bob, cat = people(server, "Ann", "Bob", "Cat")
        first = ask(ann)
        clock.now += 60
        again = ask(ann)  # Ann's second game does not seat her against herself
        assert again["joined"] is False and again["table"] != first["table"]
        slower = ask(bob, move_hours=72)  # another pace is another kind of table
        assert slower["joined"] is False
        assert slower["table"] not in (first["table"], again["table"])
        four = ask(bob, players=4)  # as is another player count
        assert four["joined"] is False
        cat.post("/api/friends/block", {"name": "Ann"})
        apart = ask(cat)  # Ann's two tables wait, but Cat blocked her
        assert apart["joined"] is False
        assert apart["table"] not in (first["table"], again["table"])
        together = ask(bob)
        assert together["joined"] is True and together["table"] == first["table"]  # the oldest


def test_ratings_far_apart_meet_once_the_table_has_waited(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, limits=limits(clock)) as server:
        ann, bob = people(server, "Ann", "Bob")
        paced: TurnBasedMatch = server.client.app.state.paced  # type: ignore[attr-defined]
        gap = RANGE_START + RANGE_PER_HOUR  # met once the table has waited an hour
        rated: dict[str | None, float] = {}

        async def rating(account_id: str | None, game: str, players: int) -> float:
            return rated[account_id]

        for name, value in (("Ann", 1500.0), ("Bob", 1500.0 + gap)):
            found = server.client.portal.call(server.accounts.find, name)  # type: ignore[union-attr]
            assert found is not None
            rated[found[0].id] = value
        paced.rating = rating
        opened = ask(ann)
        clock.now += HOUR / 2
        early = ask(bob)
        assert early["joined"] is False  # too far apart for a table half an hour old
        clock.now += HOUR / 2
        later = ask(bob)  # Ann's table, older than Bob's own, has waited an hour
        assert later["joined"] is True and later["table"] == opened["table"]


def test_an_account_holds_at_most_its_limit_of_turn_based_tables(db_url: str) -> None:
    with account_server(db_url, limits=limits(Clock(), turn_based_per_account=2)) as server:
        ann, bob = people(server, "Ann", "Bob")
        ask(ann)
        ask(ann)
        refused = ask(ann, status=409)
        assert refused["error"] == (
            "you play 2 turn-based games, this server's limit: finish one first"
        )
        assert (refused["key"], refused["params"]) == ("quick.error.turnBasedLimit", {"count": 2})
        # The lobby's turn-based tables count too, and its seats are refused alike.
        table = bob.create(MT, ["human", "human"], move_hours=24)
        response = ann.client.post(f"/api/tables/{table}/join", json={"seat": 0, "name": "x"})
        assert response.status_code == 409, response.text
        real_time = bob.create(MT, ["human", "human"])  # a real-time table is not counted
        assert (
            ann.client.post(
                f"/api/tables/{real_time}/join", json={"seat": 0, "name": "x"}
            ).status_code
            == 200
        )


def test_a_guest_or_a_bad_request_is_refused_with_its_reason(db_url: str) -> None:
    with account_server(db_url, limits=limits(Clock())) as server:
        guest = server.browser()
        refused = ask(guest, status=401)
        assert refused["error"].startswith("sign in to play turn-based")
        assert refused["key"] == "quick.error.signIn"
        (ann,) = people(server, "Ann")
        for change, words in (
            ({"move_hours": 5}, "request.move_hours"),
            ({"players": 7}, "request.players must be one of"),
            ({"game": "chess"}, "request.game must be one of"),
            ({"bots": "easy"}, "request: unknown field"),
        ):
            assert words in ask(ann, status=400, **change)["error"], change
        assert ann.client.get("/api/me/games").json()["in_progress"] == []  # nothing was made
