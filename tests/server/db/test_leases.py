"""Leases with fencing epochs, against the real PostgreSQL: two processes'
storage in one test, the second taking a table over once the first's lease
runs out, and the first's late write refused by the epoch; a write queued
under an old epoch refused even from the process that claimed the table
back (on SQLite too); and a live ``cardtable serve`` whose lease never
lapses over several lease periods.

No test waits on a clock: a takeover is polled for (bounded), a live owner
is watched until the database's clock has moved on (bounded), and what is
asserted is who holds the table and what the database holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from sqlalchemy import Connection, select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from cardtable.server.db import storage as storage_module
from cardtable.server.db.leases import Leases
from cardtable.server.db.schema import events, leases, seats, tables
from cardtable.server.db.storage import DB_NOW_MS, LeaseLost, Storage, _Append, _append_fenced
from tests.server.helpers import QUICK, bots_table_facts, run_coroutine
from tests.server.processes import free_port, post, serving

pytestmark = pytest.mark.timeout(60, method="thread")

TAKEOVER_SECONDS = 20.0  # bounds the polling below
# A lease as the cluster tests have it (5 s by default): short, yet long
# enough that a loaded machine does not let it run out between two statements.
LEASE_SECONDS = 2


async def _claim_when_expired(leases_: Leases, table_id: str) -> dict[str, int]:
    deadline = time.monotonic() + TAKEOVER_SECONDS
    while not (claimed := await leases_.claim(table_id)):
        assert time.monotonic() < deadline, "the lease never ran out"
        await asyncio.sleep(0.05)
    return claimed


async def _takeover(url: str) -> None:
    first = Storage(url, owner="first", lease_seconds=LEASE_SECONDS)
    second = Storage(url, owner="second", lease_seconds=30)
    await first.open()
    await second.open()
    try:
        first_leases = Leases(first.engine, "first", LEASE_SECONDS)
        second_leases = Leases(second.engine, "second", 30)
        await first.create(bots_table_facts("t1"), [("deal", {"n": 0})])
        assert first.epochs == {"t1": 1}
        assert await second_leases.claim("t1") == {}  # held, not expired: not taken
        assert await first_leases.holder("t1") == "first"
        await first.append("t1", 1, [("move", {"n": 1})])  # the owner writes

        second.epochs.update(await _claim_when_expired(second_leases, "t1"))
        assert second.epochs == {"t1": 2}
        await second.append("t1", 2, [("move", {"n": 2})])
        with pytest.raises(LeaseLost):  # the first process, back too late
            await first.append("t1", 2, [("move", {"n": "stale"})])
        with pytest.raises(LeaseLost):
            await first.set_table("t1", status="finished")
        assert await first_leases.renew() == {}  # its heartbeat finds nothing of its own

        async with second.engine.connect() as conn:
            stored = (
                await conn.execute(
                    select(events.c.n, events.c.data, events.c.epoch)
                    .where(events.c.table_id == "t1")
                    .order_by(events.c.n)
                )
            ).all()
            lease = (await conn.execute(select(leases))).one()
        assert [tuple(r) for r in stored] == [
            (0, '{"n": 0}', 1),
            (1, '{"n": 1}', 1),
            (2, '{"n": 2}', 2),
        ]
        assert (lease.table_id, lease.owner, lease.epoch) == ("t1", "second", 2)

        await second_leases.release()  # a graceful stop: free at once, no waiting
        assert await first_leases.holder("t1") is None
        assert await first_leases.claim("t1") == {"t1": 3}
    finally:
        await first.close()
        await second.close()


def test_the_second_process_takes_over_and_the_firsts_write_is_refused(
    postgres_url: str,
) -> None:
    run_coroutine(_takeover(postgres_url))


async def _race(url: str) -> list[dict[str, int]]:
    stores = [Storage(url) for _ in range(4)]
    for store in stores:
        await store.open()
    try:
        for i in range(20):
            await stores[0].create(bots_table_facts(f"r{i}"), [("deal", {"n": 0})])
        claimers = [Leases(s.engine, f"p{i}", 30) for i, s in enumerate(stores)]
        return list(await asyncio.gather(*(c.claim(limit=20) for c in claimers)))
    finally:
        for store in stores:
            await store.close()


def test_processes_claiming_at_once_never_take_the_same_table(postgres_url: str) -> None:
    claims = run_coroutine(_race(postgres_url))
    taken = [table for claim in claims for table in claim]
    assert sorted(taken) == sorted(f"r{i}" for i in range(20))  # each once, none left
    assert all(epoch == 1 for claim in claims for epoch in claim.values())


def test_one_process_alone_writes_without_leases(db_url: str) -> None:
    async def alone() -> tuple[dict[str, int], list[object]]:
        store = Storage(db_url)
        await store.open()
        try:
            await store.create(bots_table_facts("s1"), [("deal", {"n": 0})])
            await store.append("s1", 1, [("move", {"n": 1})])
            async with store.engine.connect() as conn:
                epochs = (await conn.execute(select(events.c.epoch))).scalars().all()
            return store.epochs, list(epochs)
        finally:
            await store.close()

    held, epochs = run_coroutine(alone())
    assert held == {}
    assert epochs == [None, None]


def test_a_stalled_transaction_does_not_keep_its_rows_from_the_other_processes(
    postgres_url: str,
) -> None:
    # A process stopped in the middle of a transaction holds its row locks;
    # SKIP LOCKED claims by the others would skip those rows for as long. The
    # server ends a transaction that idles past a lease.
    async def scenario() -> int:
        stalled = Storage(postgres_url, owner="stalled", lease_seconds=0.3)
        # The other process's connection, without the short idle timeout: a
        # loaded machine pausing this test must not end the claimer's session.
        other = create_async_engine(postgres_url)
        await stalled.open()
        await stalled.create(bots_table_facts("t1"), [])
        lock = select(leases.c.table_id).where(leases.c.table_id == "t1").with_for_update()
        conn = await stalled.engine.connect()
        try:
            await conn.begin()
            await conn.execute(lock)  # held, and then the process stalls
            deadline = time.monotonic() + TAKEOVER_SECONDS
            async with other.connect() as claimer:
                # Until the row is free again (bounded): however loaded the machine.
                while True:
                    found = await claimer.execute(lock.with_for_update(skip_locked=True))
                    rows = len(found.all())
                    if rows or time.monotonic() > deadline:
                        return rows
                    await claimer.rollback()
                    await asyncio.sleep(0.05)
        finally:
            with contextlib.suppress(Exception):  # its session was ended by the server
                await conn.close()
            await stalled.close()
            await other.dispose()

    assert run_coroutine(scenario()) == 1


async def _one_statement_batch(
    url: str,
) -> tuple[set[tuple[str, int | None]], list[tuple[str, int, int]]]:
    """Two tables' moves in one fenced append, after the second table moved
    to another process."""
    first = Storage(url, owner="first", lease_seconds=30)
    second = Storage(url, owner="second", lease_seconds=30)
    await first.open()
    await second.open()
    try:
        await first.create(bots_table_facts("kept"), [("deal", {"n": 0})])
        await first.create(bots_table_facts("moved"), [("deal", {"n": 0})])
        await Leases(first.engine, "first", 30).release(["moved"])
        second.epochs.update(await Leases(second.engine, "second", 30).claim("moved"))
        moves = [
            _Append("kept", 1, [("move", {"n": 1}), ("move", {"n": 2})], None, None, 1),
            _Append("moved", 1, [("move", {"n": "stale"})], None, None, 1),
        ]
        async with first.engine.connect() as conn:
            lost = await _append_fenced(conn, "first", moves)
        async with first.engine.connect() as conn:
            stored = (
                await conn.execute(
                    select(events.c.table_id, events.c.n, events.c.epoch).order_by(
                        events.c.table_id, events.c.n
                    )
                )
            ).all()
        return lost, [tuple(r) for r in stored]
    finally:
        await first.close()
        await second.close()


def test_a_fenced_append_stores_the_tables_still_held_and_names_the_lost_ones(
    postgres_url: str,
) -> None:
    # One statement checks each table's lease and appends its events: the
    # table still held gets both its moves, the one another process claimed
    # gets nothing, and it is named so that its caller lets it go.
    lost, stored = run_coroutine(_one_statement_batch(postgres_url))
    assert lost == {("moved", 1)}
    assert stored == [("kept", 0, 1), ("kept", 1, 1), ("kept", 2, 1), ("moved", 0, 1)]


# The writes a table's owner queues, each of them under the epoch it holds
# as it queues it; "moves" is a plain move (PostgreSQL's one-statement append).
QUEUED: dict[str, Callable[[Storage], Coroutine[Any, Any, None]]] = {
    "status": lambda s: s.append("t1", 1, [("move", {"n": "old"})], status="finished"),
    "seat": lambda s: s.set_seat("t1", 0, "Old", "old-hash"),
    "table": lambda s: s.set_table("t1", private=True),
    "moves": lambda s: s.append("t1", 1, [("move", {"n": "old"}), ("move", {"n": "old"})]),
}


async def _claim(engine: AsyncEngine, table_id: str, owner: str) -> int:
    """What a claim does to a lease (leases.py), in SQL both databases speak:
    ``owner`` holds it at the next epoch, returned."""
    async with engine.begin() as conn:
        row = leases.c.table_id == table_id
        await conn.execute(update(leases).where(row).values(owner=owner, epoch=leases.c.epoch + 1))
        epoch: int = (await conn.execute(select(leases.c.epoch).where(row))).scalar_one()
        return epoch


async def _queued_then_claimed_again(
    url: str, kinds: list[str], batched: bool
) -> tuple[list[BaseException | None], list[tuple[Any, ...]], tuple[Any, ...]]:
    """Process "p" holds "t1" and "kept" and queues ``kinds`` about "t1"; before
    its writer runs, "t1" goes to another process and comes back to "p". Then
    "p" writes a move at each table under the epochs it holds now, in the same
    batch as the queued writes (``batched``) or after them. What the queued
    writes raised, the events stored, and "t1"'s seat 0 name, status and privacy."""
    setup = Storage(url)  # alone: its tables' leases are free
    await setup.open()
    for table_id in ("t1", "kept"):
        await setup.create(bots_table_facts(table_id), [("deal", {"n": 0})])
    await setup.close()
    store = Storage(url, owner="p", lease_seconds=30)  # not opened: its writes wait queued
    try:
        for table_id in ("t1", "kept"):
            store.epochs[table_id] = await _claim(store.engine, table_id, "p")
        queued = [asyncio.create_task(QUEUED[kind](store)) for kind in kinds]
        await _until_queued(store, len(queued))  # each read its epoch, 1
        await _claim(store.engine, "t1", "other")
        store.epochs["t1"] = await _claim(store.engine, "t1", "p")  # 3
        current = [
            store.append("t1", 1, [("move", {"n": "new"})]),
            store.append("kept", 1, [("move", {"n": "kept"})]),
        ]
        if batched:
            later = [asyncio.create_task(write) for write in current]
            await _until_queued(store, len(queued) + len(later))
        await store.open()  # the writer takes the whole queue as one batch
        raised = list(await asyncio.gather(*queued, return_exceptions=True))
        if batched:
            await asyncio.gather(*later)
        else:
            for write in current:
                await write
        async with store.engine.connect() as conn:
            stored = await conn.execute(
                select(events.c.table_id, events.c.n, events.c.data, events.c.epoch).order_by(
                    events.c.table_id, events.c.n
                )
            )
            t1 = (
                await conn.execute(
                    select(seats.c.name, tables.c.status, tables.c.private)
                    .join(tables, tables.c.id == seats.c.table_id)
                    .where(seats.c.table_id == "t1", seats.c.seat == 0)
                )
            ).one()
        return raised, [tuple(r) for r in stored], tuple(t1)
    finally:
        await store.close()


async def _until_queued(store: Storage, count: int) -> None:
    """Until ``count`` writes wait in ``store``'s queue (each task's first step)."""
    for _ in range(1000):
        if store._queue.qsize() >= count:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{store._queue.qsize()} writes queued, not {count}")


@pytest.mark.parametrize("batched", [False, True], ids=["alone", "batched"])
@pytest.mark.parametrize(
    "kinds", [["status"], ["seat"], ["table"], ["moves"], ["seat", "table", "status"]], ids=str
)
def test_a_write_queued_under_an_old_epoch_is_refused_even_from_the_same_process(
    any_db: str, kinds: list[str], batched: bool
) -> None:
    # The process still owns the table, but at a newer epoch: what it queued
    # before it lost the table was decided on a game it no longer has.
    raised, stored, t1 = run_coroutine(_queued_then_claimed_again(any_db, kinds, batched))
    assert [type(e) for e in raised] == [LeaseLost] * len(kinds), raised
    assert all(isinstance(e, LeaseLost) and e.table_id == "t1" for e in raised)
    assert stored == [
        ("kept", 0, '{"n": 0}', None),
        ("kept", 1, '{"n": "kept"}', 1),
        ("t1", 0, '{"n": 0}', None),
        ("t1", 1, '{"n": "new"}', 3),
    ]
    assert t1 == (None, "playing", False)


WATCHED_LEASES = 3  # how many lease periods a live owner is watched for
WATCH_SECONDS = 60.0  # bounds that watch (a loaded machine's clock runs on)


async def _watch_a_live_owner(url: str, table_id: str, pid: int) -> int:
    """Sample the lease of ``table_id`` until the database's clock has moved
    :data:`WATCHED_LEASES` leases on: each time the process ``pid`` holds it,
    it has not run out, and a second process asking for the table is handed
    nothing. The number of renewals seen."""
    engine = create_async_engine(url)
    second = Leases(engine, "second", 30)
    row = text(f"SELECT expires_ms, {DB_NOW_MS} FROM ct_leases WHERE table_id = :t")
    expiries: set[int] = set()
    deadline = time.monotonic() + WATCH_SECONDS
    try:
        start = None
        while True:
            status, holder, left = await second.status(table_id)
            assert status == "waiting"
            assert holder is not None and f":{pid}:" in holder, f"the lease ran out: {holder}"
            assert left > 0
            assert await second.claim(table_id) == {}, "the table was handed to another process"
            async with engine.connect() as conn:
                expires, now = (await conn.execute(row, {"t": table_id})).one()
            expiries.add(expires)
            start = now if start is None else start
            if now - start >= WATCHED_LEASES * LEASE_SECONDS * 1000:
                return len(expiries) - 1
            assert time.monotonic() < deadline, "the database's clock stood still"
            await asyncio.sleep(0.02)  # a sample every few hundredths of a second
    finally:
        await engine.dispose()


@pytest.mark.timeout(180, method="thread")
def test_a_live_owners_lease_never_lapses(postgres_url: str, redis_url: str) -> None:
    # A heartbeat that renews late lets the lease run out for a moment each
    # time: a sweep's grace period would hide it, a table asked for at that
    # moment (a socket of another process) would be taken from a live owner.
    port = free_port()
    options = ("--redis", redis_url, "--lease-seconds", str(LEASE_SECONDS), "--bot-workers", "1")
    with serving(port, postgres_url, *options) as process:
        body = {
            "game": "marshmallow-test",
            "options": QUICK["marshmallow-test"],
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
        }
        table_id = post(port, "/api/tables", body)["id"]
        renewals = run_coroutine(_watch_a_live_owner(postgres_url, table_id, process.pid))
        assert process.poll() is None
    assert renewals >= WATCHED_LEASES  # the heartbeat ran, more than once a lease


def test_migrating_outlasts_the_idle_limit_that_frees_a_stalled_process(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit that ends a transaction idle past a lease (300 ms here) must
    not end the migrations' one transaction when a loaded machine pauses in
    it (seen once in a whole-suite run: "terminating connection due to
    idle-in-transaction timeout" while migrating)."""
    migrate = storage_module._migrate

    def paused(connection: Connection) -> None:
        connection.execute(text("SELECT 1"))  # inside the transaction now
        time.sleep(1.0)  # the machine pauses this process
        migrate(connection)

    monkeypatch.setattr(storage_module, "_migrate", paused)

    async def scenario() -> None:
        storage = Storage(postgres_url, owner="slow", lease_seconds=0.3)
        try:
            await storage.open()
        finally:
            await storage.close()

    run_coroutine(scenario())
