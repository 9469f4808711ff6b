"""The pieces of the limits (cardtable/server/guard/limits.py): which address is the
client behind a trusted proxy, and a window's count over one minute; the
sign-in budgets of cardtable/server/accounts/signin_delays.py and their statement."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, delete, insert

from cardtable.server.accounts.signin_delays import (
    ADDRESS,
    BUDGETS,
    FORGET_MS,
    MAX_DELAY_MS,
    NAME,
    PAIR,
    Budget,
    count_attempt,
    delay_ms,
    wait_ms,
)
from cardtable.server.db.schema import login_limits as login_limits_table
from cardtable.server.guard import limits as limits_module
from cardtable.server.guard.limits import Window, client_address
from cardtable.server.settings import Limits

PROXY = Limits(trusted_proxies=frozenset({"10.0.0.1", "10.0.0.2", "2001:db8:ffff::1"}))


def scope(peer: str, *forwarded: str) -> dict[str, Any]:
    headers = [(b"x-forwarded-for", f.encode()) for f in forwarded]
    return {"client": (peer, 5000), "headers": headers}


@pytest.mark.parametrize(
    ("given", "client"),
    [
        (scope("203.0.113.7"), "203.0.113.7"),  # no proxy: the peer
        (scope("203.0.113.7", "1.2.3.4"), "203.0.113.7"),  # an untrusted peer's header is ignored
        (scope("10.0.0.1", "198.51.100.5"), "198.51.100.5"),
        (scope("10.0.0.1", "6.6.6.6, 198.51.100.5"), "198.51.100.5"),  # the forged first entry
        (scope("10.0.0.1", "198.51.100.5, 10.0.0.2"), "198.51.100.5"),  # two proxies
        (scope("10.0.0.1", "6.6.6.6", "198.51.100.5"), "198.51.100.5"),  # two header lines
        (scope("10.0.0.1", "::ffff:198.51.100.5"), "198.51.100.5"),  # one spelling
        (scope("10.0.0.1", "2001:DB8::1"), "2001:db8::/64"),  # IPv6: its /64
        (scope("10.0.0.1", "2001:db8:0:0:ffff:ffff:ffff:ffff"), "2001:db8::/64"),
        (scope("10.0.0.1", "2001:db8:0:1::1"), "2001:db8:0:1::/64"),  # the next /64
        (scope("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64"),  # an IPv6 peer
        (scope("2001:db8:ffff::1", "198.51.100.5"), "198.51.100.5"),  # an IPv6 proxy
        (scope("::1"), "::/64"),
        (scope("10.0.0.1"), "10.0.0.1"),  # the proxy sent no header
    ],
)
def test_the_client_is_the_last_address_before_the_trusted_proxies(
    given: dict[str, Any], client: str
) -> None:
    assert client_address(given, PROXY) == client


def test_a_window_counts_one_minute_and_says_how_long_to_wait() -> None:
    window = Window(limit=2)
    window.add("a", 100.0)
    window.add("a", 130.0)
    assert window.wait("a", 130.0) == 30.0  # until the first leaves the minute
    assert window.wait("b", 130.0) == 0.0
    assert window.wait("a", 160.0) == 0.0  # the first left the minute


def test_a_flood_of_addresses_is_forgotten_oldest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits_module, "MAX_KEYS", 3)
    window = Window(limit=1)
    for key in "abcd":
        window.add(key, 0.0)
    assert window.wait("a", 1.0) == 0.0  # forgotten
    assert all(window.wait(k, 1.0) == 59.0 for k in "bcd")


def test_each_sign_in_budget_is_free_then_doubles_up_to_its_cap() -> None:
    assert PAIR.free < ADDRESS.free < NAME.free  # the name's budget is the largest
    for budget in BUDGETS:
        assert delay_ms(budget.free - 1, budget) == 0
        assert delay_ms(budget.free, budget) == 1_000
        assert delay_ms(budget.free + 3, budget) == 8_000
        assert delay_ms(budget.free + 40, budget) == MAX_DELAY_MS
    assert wait_ms(PAIR.free, 5_000, 5_400, PAIR) == 600
    assert wait_ms(PAIR.free, 5_000, 6_000, PAIR) == 0
    assert wait_ms(PAIR.free + 40, 5_000, 5_000 + FORGET_MS, PAIR) == 0  # a quiet day


@pytest.mark.parametrize("budget", BUDGETS, ids=lambda b: b.prefix)
def test_the_counting_statement_waits_exactly_as_long_as_the_delay(budget: Budget) -> None:
    engine = create_engine("sqlite://")
    login_limits_table.create(engine)
    with engine.begin() as conn:

        def counted(now: int) -> int | None:
            """The count after an attempt at ``now``; ``None``: too soon, nothing counted."""
            value: int | None = conn.execute(count_attempt("sqlite", "k", budget, now)).scalar()
            return value

        for failures in range(budget.free + 13):
            conn.execute(delete(login_limits_table))
            conn.execute(insert(login_limits_table).values(key="k", failures=failures, last_ms=0))
            ready = delay_ms(failures, budget)
            if ready > 0:
                assert counted(ready - 1) is None, failures
            assert counted(ready) == failures + 1, failures
        assert counted(ready + FORGET_MS) == 1  # a quiet day: counted afresh
