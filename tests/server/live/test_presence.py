"""Presence in the table's log: a player whose connection goes (a reload)
is logged as having left, and as back when it returns."""

from __future__ import annotations

import pytest

from tests.server.helpers import running

pytestmark = pytest.mark.timeout(120, method="thread")


def events(log: list[dict[str, object]], seat: int) -> list[object]:
    return [e["event"] for e in log if e["seat"] == seat]


def test_a_reload_is_logged_as_left_then_back(db_url: str) -> None:
    with running(db_url, grace_seconds=600) as server:
        table = server.create("marshmallow-test", ["human", "easy"], bot_delay_ms=10_000)
        token = server.join(table, 0, "Ann")
        with server.connect(table, token) as first:
            first.until_state(lambda m: m["status"] == "playing")
        with server.connect(table, token) as again:  # the reloaded page
            state = again.until_state(lambda m: "back" in events(m["log"], 0))
    assert events(state["log"], 0) == ["joined", "left", "back"]
    seat = state["seats"][0]
    assert seat["connected"] and not seat["bot_playing"]


def test_a_person_who_first_sits_down_late_is_not_logged_as_back(db_url: str) -> None:
    """Missed before a first connection (the game started when both had joined,
    Ann's connection looked at the seats, Bob's page was still loading), Bob
    has not been away: his first state logs him as joined, not as back."""
    with running(db_url, grace_seconds=600) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        tokens = [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]
        with server.connect(table, tokens[0]) as ann:
            ann.until_state(lambda m: m["status"] == "playing")
            assert server.table(table).seats[1].left_at is not None  # missed already
            with server.connect(table, tokens[1]) as bob:
                state = bob.until_state(lambda m: m["seats"][1]["connected"])
    assert events(state["log"], 1) == ["joined"]
