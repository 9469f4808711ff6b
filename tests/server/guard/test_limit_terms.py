"""The terms of the limits that the other limit tests leave open (issue 34,
item 8: mutation testing): sign-in delays at real clock times and in each
dialect's own statement (cardtable/server/accounts/signin_delays.py); and in
cardtable/server/guard/limits.py, what each limit asks the windows shared
through Redis, what it says when it refuses, chat's two counts, tables
remembered across a restart, and the client's address at its edges."""

from __future__ import annotations

from typing import cast

import pytest
from sqlalchemy import create_engine, insert
from sqlalchemy.dialects import postgresql, sqlite

from cardtable.server.accounts.signin_delays import (
    FORGET_MS,
    PAIR,
    count_attempt,
    delay_ms,
    wait_ms,
)
from cardtable.server.db.schema import login_limits as login_limits_table
from cardtable.server.guard.limits import Gate, TooMany, Window, client_address
from cardtable.server.guard.redis_limits import SharedWindows
from cardtable.server.settings import Limits
from tests.server.helpers import run_coroutine

# A clock reading of today (milliseconds since 1970), far from zero: a sum of
# two times passes for a difference only near zero.
NOW_MS = 1_765_000_000_000
NOW = 1_000.0  # seconds, for the limits' windows


def test_a_sign_in_waits_from_its_last_failure_at_real_clock_times() -> None:
    assert wait_ms(PAIR.free, NOW_MS - 400, NOW_MS, PAIR) == 600
    assert wait_ms(PAIR.free + 1, NOW_MS, NOW_MS + 1_999, PAIR) == 1
    assert wait_ms(PAIR.free + 1, NOW_MS, NOW_MS + 2_000, PAIR) == 0


def test_the_counting_statement_waits_at_real_clock_times() -> None:
    engine = create_engine("sqlite://")
    login_limits_table.create(engine)
    failures = PAIR.free + 2
    with engine.begin() as conn:

        def counted(now: int) -> int | None:
            value: int | None = conn.execute(count_attempt("sqlite", "k", PAIR, now)).scalar()
            return value

        conn.execute(insert(login_limits_table).values(key="k", failures=failures, last_ms=NOW_MS))
        ready = NOW_MS + delay_ms(failures, PAIR)
        assert counted(NOW_MS + 1) is None
        assert counted(ready - 1) is None
        assert counted(ready) == failures + 1
        assert counted(ready + 1) is None  # the next delay is twice as long
        assert counted(ready + FORGET_MS) == 1  # a quiet day: counted afresh


def test_each_dialect_counts_with_its_own_insert() -> None:
    """signin_delays.upsert: "the INSERT … ON CONFLICT of the dialect" (SQLAlchemy
    promises each dialect's construct only for its own dialect)."""
    assert isinstance(count_attempt("sqlite", "k", PAIR, NOW_MS), sqlite.Insert)
    assert isinstance(count_attempt("postgresql", "k", PAIR, NOW_MS), postgresql.Insert)
    assert not isinstance(count_attempt("sqlite", "k", PAIR, NOW_MS), postgresql.Insert)


class FakeShared:
    """Windows shared through Redis, as :class:`Gate` sees them: each call is
    recorded; ``wait`` answers ``answer`` (``None``: Redis is away) and
    ``drop_last`` whether Redis could be reached."""

    def __init__(self, answer: float | None = 0.0, reachable: bool = True) -> None:
        self.answer = answer
        self.reachable = reachable
        self.waits: list[tuple[str, str, int, float]] = []
        self.dropped: list[tuple[str, str]] = []

    async def wait(self, window: str, client: str, limit: int, now: float) -> float | None:
        self.waits.append((window, client, limit, now))
        return self.answer

    async def drop_last(self, window: str, client: str) -> bool:
        self.dropped.append((window, client))
        return self.reachable


# Every limit a number of its own, so that a call tells which limit it counts.
DISTINCT = Limits(
    creates_per_minute=3,
    joins_per_minute=4,
    token_attempts_per_minute=5,
    signups_per_minute=6,
    chat_per_minute=7,
    chat_per_address_per_minute=8,
    waiting_per_client=2,
    waiting_seconds=1_800.0,
    clock=lambda: NOW,
)


def gate(limits: Limits = DISTINCT, shared: FakeShared | None = None) -> Gate:
    return Gate(limits, cast(SharedWindows, shared))


def refusal(limits: Limits, act: str, times: int, *args: str) -> TooMany:
    """The refusal of the ``times``-th call of the gate's method ``act``, all at one time."""
    one = gate(limits)
    for _ in range(times - 1):
        run_coroutine(getattr(one, act)(*args))
    with pytest.raises(TooMany) as refused:
        run_coroutine(getattr(one, act)(*args))
    return refused.value


def test_every_limit_counts_in_the_shared_windows_under_its_own_name() -> None:
    shared = FakeShared()
    both = gate(shared=shared)
    run_coroutine(both.may_create("a"))
    run_coroutine(both.may_join("b"))
    run_coroutine(both.wrong_token("c"))
    run_coroutine(both.may_sign_up("d"))
    run_coroutine(both.may_chat("e", "f"))
    assert shared.waits == [
        ("creates", "a", 3, NOW),
        ("joins", "b", 4, NOW),
        ("tokens", "c", 5, NOW),
        ("signups", "d", 6, NOW),
        ("address-chats", "e", 8, NOW),
        ("chats", "f", 7, NOW),
    ]


def test_a_full_shared_window_refuses_for_as_long_as_it_says() -> None:
    with pytest.raises(TooMany) as refused:
        run_coroutine(gate(shared=FakeShared(answer=12.5)).may_join("a"))
    assert refused.value.retry_after == 13


def test_while_redis_is_away_a_process_counts_in_its_memory() -> None:
    shared = FakeShared(answer=None)
    alone = gate(Limits(creates_per_minute=1, clock=lambda: NOW), shared)
    run_coroutine(alone.may_create("a"))
    with pytest.raises(TooMany) as refused:
        run_coroutine(alone.may_create("a"))
    assert refused.value.retry_after == 60
    assert [w[:2] for w in shared.waits] == [("creates", "a")] * 2


@pytest.mark.parametrize("reachable", [True, False], ids=["shared", "redis-away"])
def test_a_refused_waiting_table_is_taken_off_the_count_where_it_was_counted(
    reachable: bool,
) -> None:
    """limits.Gate.may_wait: "the refused create is taken off the rate's count"
    (in Redis when it can be reached; else in this process's memory)."""
    shared = FakeShared(reachable=reachable)
    both = gate(Limits(creates_per_minute=1, waiting_per_client=2, clock=lambda: NOW), shared)
    both.creates.add("a", NOW)  # counted in memory while Redis was away
    run_coroutine(both.may_wait("a", 1))  # under the limit: nothing taken off
    assert shared.dropped == []
    with pytest.raises(TooMany):
        run_coroutine(both.may_wait("a", 2))
    assert shared.dropped == [("creates", "a")]
    assert both.creates.wait("a", NOW) == (60.0 if reachable else 0.0)


def test_the_refusals_say_which_limit_and_how_long() -> None:
    assert str(refusal(DISTINCT, "may_create", 4, "a")) == (
        "you created 3 tables in the last minute, this server's limit; try again in 60 s"
    )
    assert str(refusal(DISTINCT, "may_join", 5, "a")) == (
        "4 seat requests in the last minute from your address, this server's limit;"
        " try again in 60 s"
    )
    assert str(refusal(DISTINCT, "wrong_token", 6, "a")) == (
        "5 wrong seat tokens in the last minute from your address, this server's limit;"
        " try again in 60 s"
    )
    assert str(refusal(DISTINCT, "may_sign_up", 7, "a")) == (
        "6 sign-ups in the last minute from your address, this server's limit; try again in 60 s"
    )
    with pytest.raises(TooMany) as refused:
        run_coroutine(gate().may_wait("a", 2))
    assert str(refused.value) == (
        "you have 2 tables waiting for players, this server's limit:"
        " start one of them or let it expire; try again in 1800 s"
    )


def test_wrong_tokens_are_counted_per_address() -> None:
    one = gate(Limits(token_attempts_per_minute=2, clock=lambda: NOW))
    run_coroutine(one.wrong_token("a"))
    run_coroutine(one.wrong_token("a"))
    with pytest.raises(TooMany):
        run_coroutine(one.wrong_token("a"))
    run_coroutine(one.wrong_token("b"))  # another address has its own count


def test_chat_counts_each_speaker_and_all_of_an_address_together() -> None:
    """limits.Gate.may_chat: refused past "either rate: the address's at all
    tables together, the speaker's at its table"."""
    chat = gate(Limits(chat_per_minute=2, chat_per_address_per_minute=4, clock=lambda: NOW))
    run_coroutine(chat.may_chat("x", "s1"))
    run_coroutine(chat.may_chat("x", "s1"))
    with pytest.raises(TooMany) as speaker:
        run_coroutine(chat.may_chat("x", "s1"))
    assert str(speaker.value) == (
        "you sent 2 chat lines at this table in the last minute, this server's limit;"
        " try again in 60 s"
    )
    run_coroutine(chat.may_chat("x", "s2"))  # another speaker: the address's 4th line
    with pytest.raises(TooMany) as address:
        run_coroutine(chat.may_chat("x", "s2"))
    assert str(address.value) == (
        "your address sent 4 chat lines in the last minute, at all tables together,"
        " this server's limit; try again in 60 s"
    )
    run_coroutine(chat.may_chat("y", "s3"))  # another address has its own count


def test_tables_made_before_a_restart_count_from_when_they_were_made() -> None:
    one = gate(Limits(creates_per_minute=1, clock=lambda: NOW))
    one.remember_creates([("a", int((NOW - 20) * 1000))])
    with pytest.raises(TooMany) as refused:
        run_coroutine(one.may_create("a"))
    assert refused.value.retry_after == 40
    run_coroutine(one.may_create("b"))


def test_shared_windows_outlive_a_restart_so_nothing_is_remembered_in_memory() -> None:
    both = gate(Limits(creates_per_minute=1, clock=lambda: NOW), FakeShared(answer=None))
    both.remember_creates([("a", int((NOW - 20) * 1000))])
    run_coroutine(both.may_create("a"))


def test_a_wait_is_whole_seconds_and_at_least_one() -> None:
    assert TooMany("no", 0.0).retry_after == 1
    assert TooMany("no", 0.2).retry_after == 1
    assert TooMany("no", 1.2).retry_after == 2
    assert str(TooMany("no", 0.2)) == "no; try again in 1 s"


def test_an_event_leaves_the_window_exactly_one_minute_after_it() -> None:
    window = Window(limit=2)
    window.add("a", 100.0)
    window.add("a", 130.0)
    assert window.wait("a", 160.0) == 0.0
    window.add("a", 160.0)  # the one at 100 no longer counts: two in the minute
    assert window.wait("a", 160.0) == 30.0


def test_a_request_without_a_peer_counts_as_unknown() -> None:
    assert client_address({"headers": []}, Limits()) == "unknown"


def test_a_trusted_proxys_request_without_headers_counts_as_the_proxy() -> None:
    proxy = Limits(trusted_proxies=frozenset({"10.0.0.1"}))
    assert client_address({"client": ("10.0.0.1", 5000)}, proxy) == "10.0.0.1"


def test_an_address_that_is_no_ip_counts_as_its_first_64_characters() -> None:
    peer = {"client": ("x" * 100, 5000), "headers": []}
    assert client_address(peer, Limits()) == "x" * 64
