"""What a lease lasts and what it says about itself, against the real
PostgreSQL (docs/server.md, "Ownership: leases with fencing epochs"): a
claim and a renewal run the lease the process asked for on the database's
clock, ``status`` reports the seconds left on that clock, a sweep
(``claim(idle_seconds=…)``) takes only leases that ran out at least that long
ago, and a process's name fits the lease's owner column on any host.

Nothing waits on a clock: each bound is read off the database's clock just
before and just after the statement under test, and the leases and idle
times are long enough (days) that a paused machine cannot cross them.
"""

from __future__ import annotations

import os
import socket

import pytest
from sqlalchemy import String, text
from sqlalchemy.ext.asyncio import AsyncEngine

from cardtable.server.db.leases import Leases, process_name
from cardtable.server.db.schema import leases
from cardtable.server.db.storage import DB_NOW_MS, Storage
from tests.server.helpers import bots_table_facts, run_coroutine

pytestmark = pytest.mark.timeout(60, method="thread")

# A lease no test outlives; a thousandth of it is 1000 s, so a lease running a
# thousandth long (or short) is told apart whatever the machine's pauses.
LONG_SECONDS = 1_000_000.0
LONG_MS = 1_000_000_000
# The sweep's idle time below, and how far on either side of it the leases lie.
IDLE_SECONDS = 1_000_000.0
MARGIN_MS = 500_000


async def _stored(url: str, *table_ids: str) -> Storage:
    """An open storage without an owner, whose tables ``table_ids`` have free leases."""
    store = Storage(url)
    await store.open()
    for table_id in table_ids:
        await store.create(bots_table_facts(table_id), [("deal", {"n": 0})])
    return store


async def _now(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        now: int = (await conn.execute(text(f"SELECT {DB_NOW_MS}"))).scalar_one()
        return now


async def _expires(engine: AsyncEngine, table_id: str) -> int:
    async with engine.connect() as conn:
        row = text("SELECT expires_ms FROM ct_leases WHERE table_id = :t")
        expires: int = (await conn.execute(row, {"t": table_id})).scalar_one()
        return expires


def test_a_claim_holds_the_table_for_the_lease_asked_for(postgres_url: str) -> None:
    async def scenario() -> None:
        store = await _stored(postgres_url, "t1")
        try:
            mine = Leases(store.engine, "p", LONG_SECONDS)
            before = await _now(store.engine)
            assert await mine.claim("t1") == {"t1": 1}
            after = await _now(store.engine)
            # Runs out one lease after the claim's own moment on the database's clock.
            assert before + LONG_MS <= await _expires(store.engine, "t1") <= after + LONG_MS
        finally:
            await store.close()

    run_coroutine(scenario())


def test_status_says_the_seconds_a_lease_has_left_and_none_once_released(
    postgres_url: str,
) -> None:
    # The cluster waits min(left, …) before it asks for a held table again
    # (cluster.py): seconds on the database's clock, nothing left once free.
    async def scenario() -> None:
        store = await _stored(postgres_url, "t1")
        try:
            mine = Leases(store.engine, "p", LONG_SECONDS)
            await mine.claim("t1")
            expires = await _expires(store.engine, "t1")
            before = await _now(store.engine)
            status, holder, left = await mine.status("t1")
            after = await _now(store.engine)
            assert (status, holder) == ("playing", "p")
            assert (expires - after) / 1000 <= left <= (expires - before) / 1000

            await mine.release()
            assert await mine.status("t1") == ("playing", None, 0.0)
            assert await mine.status("no-such-table") == (None, None, 0.0)
        finally:
            await store.close()

    run_coroutine(scenario())


def test_a_renewal_extends_each_lease_held_and_names_it_with_its_epoch(
    postgres_url: str,
) -> None:
    # The heartbeat reads {table: epoch} off the renewal; a table missing from
    # it was lost (docs/server.md), so each must be named by its own id.
    async def scenario() -> None:
        store = await _stored(postgres_url, "t1", "t2", "theirs")
        try:
            mine = Leases(store.engine, "p", LONG_SECONDS)
            theirs = Leases(store.engine, "q", LONG_SECONDS)
            await mine.claim("t1")
            await mine.claim("t2")
            await mine.release(["t2"])
            assert await mine.claim("t2") == {"t2": 2}  # epochs of their own: 1 and 2
            await theirs.claim("theirs")
            other_expires = await _expires(store.engine, "theirs")

            before = await _now(store.engine)
            assert await mine.renew() == {"t1": 1, "t2": 2}
            after = await _now(store.engine)
            for table_id in ("t1", "t2"):
                expires = await _expires(store.engine, table_id)
                assert before + LONG_MS <= expires <= after + LONG_MS
            assert await _expires(store.engine, "theirs") == other_expires  # not its lease
        finally:
            await store.close()

    run_coroutine(scenario())


def test_a_sweep_takes_only_leases_that_ran_out_at_least_its_idle_time_ago(
    postgres_url: str,
) -> None:
    # A sweep leaves a table whose lease just ran out (or was just released)
    # to the process its people reconnect to (Leases.claim, docs/server.md).
    async def scenario() -> None:
        tables = ("long-gone", "recent", "released", "held")
        store = await _stored(postgres_url, *tables)
        try:
            dead = Leases(store.engine, "dead", LONG_SECONDS)
            live = Leases(store.engine, "live", LONG_SECONDS)
            await dead.claim("long-gone")
            await dead.claim("recent")
            await live.claim("released")
            await live.release(["released"])
            await live.claim("held")
            ran_out = text(
                f"UPDATE ct_leases SET expires_ms = {DB_NOW_MS} - :ago WHERE table_id = :t"
            )
            idle_ms = int(IDLE_SECONDS * 1000)
            async with store.engine.begin() as conn:
                await conn.execute(ran_out, {"t": "long-gone", "ago": idle_ms + MARGIN_MS})
                await conn.execute(ran_out, {"t": "recent", "ago": idle_ms - MARGIN_MS})

            sweeper = Leases(store.engine, "sweeper", LONG_SECONDS)
            assert await sweeper.claim(limit=20, idle_seconds=IDLE_SECONDS) == {"long-gone": 2}
            async with store.engine.connect() as conn:
                rows = await conn.execute(text("SELECT table_id, owner FROM ct_leases"))
                owners = {table_id: owner for table_id, owner in rows.all()}
            assert owners == {
                "long-gone": "sweeper",
                "recent": "dead",
                "released": None,
                "held": "live",
            }
        finally:
            await store.close()

    run_coroutine(scenario())


def test_a_process_name_fits_the_lease_owner_column_on_any_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The name is stored as ct_leases.owner: the longest host name (a DNS
    # name, 253 characters) and the largest Linux pid (2**22) still fit.
    monkeypatch.setattr(socket, "gethostname", lambda: "h" * 253)
    monkeypatch.setattr(os, "getpid", lambda: 2**22)
    names = {process_name() for _ in range(3)}
    column = leases.c.owner.type
    assert isinstance(column, String) and column.length is not None
    assert all(len(name) <= column.length and f":{2**22}:" in name for name in names)
    assert len(names) == 3  # the random tail: no two processes of one host and pid alike
