"""A turn-based table's deadline across processes (issue 30, item 1): it lives
in the database, so when the table's owner is killed (kill -9) after the
deadline was set in the past, the process that takes the table over acts on
it, and acts once: one stand-in move for the late person, not one per sweep
or per process. Three ``cardtable serve`` processes on one PostgreSQL, as in
``test_cluster.py``."""

from __future__ import annotations

import json
import signal
import time
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import create_async_engine

from cardtable.server.db.schema import parked, tables
from tests.server.cluster.test_cluster import (
    AGAINST_A_BOT,
    LEASE,
    _join,
    _lease_rows,
    _socket,
    _stored_events,
    running_cluster,
)
from tests.server.helpers import QUICK, run_coroutine
from tests.server.processes import post

pytestmark = pytest.mark.usefixtures("needs_haproxy")

MT = "marshmallow-test"
# The processes sweep every few seconds (``serve --sweep-seconds``; 30 by
# default): the waits below are a few sweeps long, and "acts once" is
# checked over several sweeps of every process.
SWEEP_SECONDS = 3.0
SWEEP = ("--sweep-seconds", str(SWEEP_SECONDS))
HOUR_MS = 3_600_000


async def _turn_began(url: str, table: str, at_ms: int) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                update(tables).where(tables.c.id == table).values(turn_started_ms=at_ms)
            )
    finally:
        await engine.dispose()


def moves_of(stored: list[tuple[int, str, Any, int | None]], seat: int) -> int:
    return sum(1 for _, kind, data, _ in stored if kind == "move" and data["seat"] == seat)


def deadlines_of(stored: list[tuple[int, str, Any, int | None]]) -> list[Any]:
    """The deadline events stored (the record's ``deadlines``)."""
    return [data for _, kind, data, _ in stored if kind == "deadline"]


@pytest.mark.parametrize("on_timeout", ["stand-in", "end"])
def test_a_deadline_missed_while_its_owner_died_acts_once_on_the_process_that_takes_over(
    postgres_url: str, redis_url: str, on_timeout: str
) -> None:
    """The stand-in's move (or the game's end) and its deadline event are
    stored once, whatever the sweeps of the processes."""
    with running_cluster(postgres_url, redis_url, 3, LEASE, *SWEEP) as cluster:
        body = {"game": MT, "options": QUICK[MT], "seats": AGAINST_A_BOT, "bot_delay_ms": 0,
                "move_hours": 1, "on_timeout": on_timeout}  # fmt: skip
        table: str = post(cluster.proxy, "/api/tables", body)["id"]
        token = _join(cluster.proxy, table, 0, "Ann")
        with _socket(cluster.proxy, table, token) as (ws, first):
            state = first
            while state["to_move"] != 0:  # the bot plays up to Ann
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "state":
                    state = message
        assert state["timer"]["turn_based"] is True
        before = run_coroutine(_stored_events(cluster.db, table))
        owner = cluster.owner(table)
        epoch = run_coroutine(_lease_rows(cluster.db))[table][1]
        # Ann's hour ran out while nobody looked: only the database says so (the
        # owner's memory still holds the hour), and the owner dies.
        run_coroutine(_turn_began(cluster.db, table, int(time.time() * 1000) - 2 * HOUR_MS))
        cluster.processes[owner].send_signal(signal.SIGKILL)
        cluster.processes[owner].wait()
        deadline = time.monotonic() + 2 * SWEEP_SECONDS + 60
        while not deadlines_of(run_coroutine(_stored_events(cluster.db, table))):
            assert time.monotonic() < deadline, "no process acted on the missed deadline"
            time.sleep(0.5)
        # Another process claimed the table (a new epoch). Not "who holds it
        # now": a game that ended there has its lease released at once.
        assert run_coroutine(_lease_rows(cluster.db))[table][1] > epoch
        time.sleep(3 * SWEEP_SECONDS)  # more sweeps of whoever holds it now
        after = run_coroutine(_stored_events(cluster.db, table))
        [event] = deadlines_of(after)  # acted on once
        assert (event["seat"], event["action"]) == (0, on_timeout)
        # One stand-in move, once; or none: the game ended there.
        assert moves_of(after, 0) == moves_of(before, 0) + (on_timeout == "stand-in")
        assert [n for n, *_ in after] == list(range(len(after)))  # no event written twice


async def _parked_rows(url: str) -> dict[str, int]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(select(parked.c.table_id, parked.c.due_ms))).all()
        return {r.table_id: r.due_ms for r in rows}
    finally:
        await engine.dispose()


async def _make_due(url: str, table: str, turn_began_ms: int) -> None:
    """The parked table's turn began ``turn_began_ms`` (its deadline passed)
    and it is due back now."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                update(tables).where(tables.c.id == table).values(turn_started_ms=turn_began_ms)
            )
            await conn.execute(update(parked).where(parked.c.table_id == table).values(due_ms=0))
    finally:
        await engine.dispose()


def test_a_parked_table_is_passed_over_by_the_claims_and_wakes_once_when_due(
    postgres_url: str, redis_url: str
) -> None:
    """Issue 30, item 1: a turn-based table nobody has open leaves memory and
    gives its lease back (``--park-minutes 0``: at the next sweep); the other
    process's claims, which take any free lease, pass it over; when it falls
    due, one process brings it back and its deadline acts once."""
    with running_cluster(
        postgres_url, redis_url, 2, LEASE, "--park-minutes", "0", *SWEEP
    ) as cluster:
        body = {"game": MT, "options": QUICK[MT], "seats": AGAINST_A_BOT, "bot_delay_ms": 0,
                "move_hours": 12}  # fmt: skip
        table: str = post(cluster.proxy, "/api/tables", body)["id"]
        token = _join(cluster.proxy, table, 0, "Ann")
        with _socket(cluster.proxy, table, token) as (ws, first):
            state = first
            while state["to_move"] != 0:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "state":
                    state = message
        deadline = time.monotonic() + 2 * SWEEP_SECONDS + 30
        while table not in run_coroutine(_parked_rows(cluster.db)):
            assert time.monotonic() < deadline, "the table was never parked"
            time.sleep(0.5)
        time.sleep(3 * float(LEASE))  # several claim sweeps of both processes
        owner, epoch = run_coroutine(_lease_rows(cluster.db))[table]
        assert owner is None  # given back, and claimed by nobody since
        assert table in run_coroutine(_parked_rows(cluster.db))
        before = run_coroutine(_stored_events(cluster.db, table))
        run_coroutine(_make_due(cluster.db, table, int(time.time() * 1000) - 13 * HOUR_MS))
        deadline = time.monotonic() + 2 * SWEEP_SECONDS + 30
        while not deadlines_of(run_coroutine(_stored_events(cluster.db, table))):
            assert time.monotonic() < deadline, "no process woke the table when due"
            time.sleep(0.5)
        assert run_coroutine(_lease_rows(cluster.db))[table][1] > epoch  # claimed to wake
        time.sleep(3 * SWEEP_SECONDS)  # more sweeps of each process
        after = run_coroutine(_stored_events(cluster.db, table))
        [event] = deadlines_of(after)  # acted on once
        assert (event["seat"], event["action"]) == (0, "stand-in")
        assert moves_of(after, 0) == moves_of(before, 0) + 1
        assert [n for n, *_ in after] == list(range(len(after)))
