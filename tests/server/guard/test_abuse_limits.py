"""Limits against abuse (issue 17, item 6): creates per client per minute,
waiting tables per client, joins and token attempts per address, each a 429
with ``Retry-After`` and a sentence; they hold across a restart. Option
maxima are refused by the API in the engine's own words."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.accounts.signin_delays import ADDRESS
from cardtable.server.settings import Limits
from tests.server.accounts_helpers import Clock as AccountClock
from tests.server.accounts_helpers import account_server
from tests.server.helpers import running
from tests.server.live.test_lobby_lifecycle import Clock, sweep

# The test client's own address is the trusted proxy: X-Forwarded-For names the client.
PROXY = frozenset({"testclient"})
BOTS: dict[str, Any] = {
    "game": "marshmallow-test",
    "options": {"target": 4},
    "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
    "bot_delay_ms": 10_000,  # slow bots: the test's tables stay cheap
}
SIGN_IN = "/api/account/signin"
WAITING: dict[str, Any] = {**BOTS, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}


def post(client: TestClient, who: str, path: str, body: Any) -> Any:
    return client.post(path, json=body, headers={"X-Forwarded-For": who})


def limits(clock: Clock, **values: Any) -> Limits:
    return Limits(clock=clock, trusted_proxies=PROXY, **values)


def assert_limited(response: Any, words: str) -> None:
    assert response.status_code == 429, response.text
    assert int(response.headers["Retry-After"]) >= 1
    message = response.json()["error"]
    assert words in message and "\n" not in message


def test_5000_creates_from_one_client_are_limited_early_and_another_still_creates(
    db_url: str,
) -> None:
    clock = Clock()
    with running(db_url, limits=limits(clock)) as server:
        codes = [
            post(server.client, "10.0.0.1", "/api/tables", BOTS).status_code for _ in range(5000)
        ]
        assert codes[:10] == [201] * 10 and set(codes[10:]) == {429}
        assert len(server.hub.tables) == 10
        refused = post(server.client, "10.0.0.1", "/api/tables", BOTS)
        assert_limited(refused, "you created 10 tables in the last minute")
        assert refused.headers["Retry-After"] == "60"
        assert post(server.client, "10.0.0.2", "/api/tables", BOTS).status_code == 201
        clock.now += 60
        assert post(server.client, "10.0.0.1", "/api/tables", BOTS).status_code == 201


def test_waiting_tables_per_client_are_limited_until_one_expires(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=limits(clock)) as server:
        for _ in range(5):
            assert post(server.client, "10.0.0.1", "/api/tables", WAITING).status_code == 201
        assert_limited(
            post(server.client, "10.0.0.1", "/api/tables", WAITING),
            "you have 5 tables waiting for players",
        )
        assert post(server.client, "10.0.0.2", "/api/tables", WAITING).status_code == 201
        for _ in range(20):  # refused for waiting tables: these do not use up the rate
            assert post(server.client, "10.0.0.1", "/api/tables", WAITING).status_code == 429
        assert post(server.client, "10.0.0.1", "/api/tables", BOTS).status_code == 201
        clock.now += 30 * 60
        sweep(server)  # they expire
        assert post(server.client, "10.0.0.1", "/api/tables", WAITING).status_code == 201


def test_the_create_limits_hold_across_a_restart(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=limits(clock)) as server:
        for body in [WAITING] * 5 + [BOTS] * 5:
            assert post(server.client, "10.0.0.1", "/api/tables", body).status_code == 201
    clock.now += 30
    with running(any_db, limits=limits(clock)) as server:
        assert_limited(
            post(server.client, "10.0.0.1", "/api/tables", BOTS), "tables in the last minute"
        )
        assert post(server.client, "10.0.0.2", "/api/tables", BOTS).status_code == 201
    clock.now += 31
    with running(any_db, limits=limits(clock)) as server:  # the minute is over; 5 still wait
        assert_limited(post(server.client, "10.0.0.1", "/api/tables", WAITING), "5 tables waiting")
        assert post(server.client, "10.0.0.1", "/api/tables", BOTS).status_code == 201


def test_joins_per_address_are_limited(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=limits(clock, joins_per_minute=3)) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        join = f"/api/tables/{table}/join"
        answers = [
            post(server.client, "10.0.0.1", join, {"seat": 9, "name": "A"}) for _ in range(3)
        ]
        assert {a.status_code for a in answers} == {409}  # no seat 9: refused, and counted
        assert_limited(
            post(server.client, "10.0.0.1", join, {"seat": 0, "name": "A"}),
            "3 seat requests in the last minute",
        )
        assert post(server.client, "10.0.0.2", join, {"seat": 0, "name": "B"}).status_code == 200


def test_the_addresses_of_one_ipv6_64_share_the_limits(db_url: str) -> None:
    """A host picks any address of its /64 at will: they count as one client."""
    clock = Clock()
    with running(db_url, limits=limits(clock, creates_per_minute=2)) as server:
        made = [post(server.client, f"2001:db8:1:2::{i}", "/api/tables", BOTS) for i in (1, 2)]
        assert [m.status_code for m in made] == [201, 201]
        refused = post(server.client, "2001:db8:1:2:ffff::9", "/api/tables", BOTS)
        assert_limited(refused, "you created 2 tables in the last minute")
        assert post(server.client, "2001:db8:1:3::1", "/api/tables", BOTS).status_code == 201


def test_wrong_sign_ins_count_per_ipv6_64(db_url: str) -> None:
    clock = AccountClock()
    proxy = Limits(trusted_proxies=PROXY)
    with account_server(db_url, clock, limits=proxy) as server:
        server.sign_up("Bea")
        other = server.browser()  # holds no session of Bea's: the /64's failures hold it up
        for i in range(ADDRESS.free):  # one /64 guessing many names from many addresses
            answer = post(
                other.client, f"2001:db8:5:6::{i}", SIGN_IN, {"name": f"x{i}", "password": "g"}
            )
            assert answer.status_code == 401, answer.text
        right = {"name": "Bea", "password": "correct horse"}
        assert_limited(post(other.client, "2001:db8:5:6:1::1", SIGN_IN, right), "failed sign-ins")
        assert post(other.client, "2001:db8:5:7::1", SIGN_IN, right).status_code == 200


def test_wrong_tokens_per_address_are_limited_and_right_ones_pass(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=limits(clock, token_attempts_per_minute=2)) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        token = server.join(table, 0, "Ann")
        guess = {"X-Forwarded-For": "10.0.0.9"}
        for _ in range(2):
            with server.client.websocket_connect(f"/ws/{table}?token=wrong", headers=guess) as ws:
                assert "belongs to no seat" in ws.receive_json()["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4403
        with server.client.websocket_connect(f"/ws/{table}?token=wrong", headers=guess) as ws:
            assert "2 wrong seat tokens in the last minute" in ws.receive_json()["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        # The right token from that address is not refused: only wrong ones are.
        with server.client.websocket_connect(f"/ws/{table}?token={token}", headers=guess) as ws:
            first = ws.receive_json()
            assert first["type"] == "state" and first["seat"] == 0, first
        rematch = post(server.client, "10.0.0.9", f"/api/tables/{table}/rematch", {"token": "x"})
        assert_limited(rematch, "wrong seat tokens")
        clock.now += 60
        with server.client.websocket_connect(f"/ws/{table}?token=wrong", headers=guess) as ws:
            assert "belongs to no seat" in ws.receive_json()["message"]


def test_sign_ups_per_address_are_limited_before_their_hash(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, limits=limits(clock)) as server:
        passwords = server.accounts.passwords
        hashed: list[str] = []
        real = passwords.hash

        def counting(password: str) -> str:
            hashed.append(password)
            return real(password)

        passwords.hash = counting  # type: ignore[method-assign]

        def sign_up(who: str, name: str) -> Any:
            body = {"name": name, "password": "correct horse"}
            return post(server.client, who, "/api/account/signup", body)

        for i in range(5):
            assert sign_up("10.0.0.1", f"Ann{i}").status_code == 201
        assert_limited(sign_up("10.0.0.1", "Ann5"), "5 sign-ups in the last minute")
        assert len(hashed) == 5  # the refused one cost no argon2 hash
        assert sign_up("10.0.0.2", "Bea").status_code == 201
        clock.now += 60
        assert sign_up("10.0.0.1", "Ann5").status_code == 201


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": 999999999}, "target': must be an integer from 1 to 500, got 999999999"),
        ({"turn_limit": 10**6}, "turn_limit': must be an integer from 1 to 5000 or null"),
    ],
)
def test_options_over_their_maxima_are_refused_in_the_engines_words(
    db_url: str, options: dict[str, Any], words: str
) -> None:
    game = "marshmallow-test" if "target" in options else "myrummy-111"
    with running(db_url) as server:
        body = {**BOTS, "game": game, "options": options}
        response = server.client.post("/api/tables", json=body)
        assert response.status_code == 400
        assert words in response.json()["error"]
        assert server.hub.tables == {}
