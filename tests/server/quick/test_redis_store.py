"""The quick-match stores, each ``store`` standing for one process, on times
given by hand.

The contract every store keeps (:class:`cardtable.server.quick.store.QueueStore`),
run over both, the memory store of a server alone and the Redis store of
several processes (``cardtable.server.quick.redis_store``, on a real Redis): takes
racing from several processes seat each person once; a take is all or none,
so a group partly taken or cancelled is not taken; a person who cancels
while their group is being seated is not seated; an account and an address
hold their entries. And the Redis store's own: a take whose process died
puts its people back, a seat stored under a take that ran out is refused, a
long poll of another process is woken, and Redis away is a 503 in one
sentence."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

import pytest
import redis.asyncio as aioredis

from cardtable.server.accounts.accounts import Account
from cardtable.server.quick.redis_store import CHANNEL, TAKE_SECONDS, SharedQueue
from cardtable.server.quick.store import Entry, MemoryQueue, QueueStore, Refusal, Seated
from cardtable.server.wire import BadInput
from tests.server.helpers import run_coroutine
from tests.server.processes import free_port

NOW = 1_000.0

#: A test's body, given its stores; and what runs it with ``n`` stores, each
#: standing for one process.
Body = Callable[[list[QueueStore]], Coroutine[Any, Any, None]]
Processes = Callable[[int, Body], None]


def entry(ticket: str, client: str = "10.0.0.1", account: Account | None = None) -> Entry:
    return Entry(ticket, "marshmallow-test", 2, ticket, account, client, 1000.0, NOW, 30, None, NOW)


def with_queues(url: str, n: int, body: Callable[[list[SharedQueue]], Awaitable[None]]) -> None:
    """Run ``body`` with ``n`` stores on the Redis at ``url``, as ``n`` processes."""

    async def run() -> None:
        queues = [SharedQueue(aioredis.from_url(url)) for _ in range(n)]
        try:
            await body(queues)
        finally:
            for q in queues:
                await q.redis.aclose()

    run_coroutine(run())


@pytest.fixture(params=["memory", "redis"])
def processes(request: pytest.FixtureRequest) -> Processes:
    """The test once over the memory store (a server alone is one process: each
    of its ``n`` coroutines asks the same store) and once over ``n`` Redis
    stores on a Redis of the test's own."""
    if request.param == "memory":

        def alone(n: int, body: Body) -> None:
            store = MemoryQueue()
            run_coroutine(body([store] * n))

        return alone
    url: str = request.getfixturevalue("redis_url")

    def shared(n: int, body: Body) -> None:
        async def on_redis(queues: list[SharedQueue]) -> None:
            stores: list[QueueStore] = list(queues)
            await body(stores)

        with_queues(url, n, on_redis)

    return shared


async def waiting_tickets(store: QueueStore) -> list[str]:
    return sorted(e.ticket for e in await store.waiting())


def seats(table: str, tickets: Sequence[str]) -> dict[str, Seated]:
    return {t: Seated(table, i, f"tok{i}", NOW) for i, t in enumerate(tickets)}


def test_takes_racing_from_three_processes_take_each_person_once(processes: Processes) -> None:
    async def body(queues: list[QueueStore]) -> None:
        tickets = [f"t{i}" for i in range(12)]
        for i, t in enumerate(tickets):
            assert await queues[i % 3].add(entry(t, f"10.0.0.{i}"), 4, 100) is None
        rng = random.Random(3)
        pairs = list(itertools.combinations(tickets, 2))
        rng.shuffle(pairs)
        # Every pair, each asked of a process at the same moment.
        won = await asyncio.gather(
            *(queues[i % 3].take(list(p), NOW + 1) for i, p in enumerate(pairs))
        )
        taken = [p for p, take in zip(pairs, won, strict=True) if take is not None]
        # Every pair was tried, so two people left over would have been taken
        # together: all twelve are taken, each by exactly one take.
        assert sorted(t for p in taken for t in p) == sorted(tickets)
        assert await queues[1].waiting() == []

    processes(3, body)


def test_a_group_partly_taken_or_cancelled_is_not_taken(processes: Processes) -> None:
    async def body(queues: list[QueueStore]) -> None:
        one, other = queues
        for t in ("ann", "bea", "cid", "dan"):
            assert await one.add(entry(t, t), 4, 100) is None
        assert await one.take(["ann", "bea"], NOW) is not None
        assert await other.take(["bea", "cid"], NOW) is None  # bea is taken already
        assert await other.drop("dan")  # dan cancels
        assert await other.take(["cid", "dan"], NOW) is None
        assert await other.take(["dan"], NOW) is None
        # Nothing of a refused take was taken: cid still waits, and is free.
        assert await waiting_tickets(other) == ["cid"]
        assert await other.counts() == {("marshmallow-test", 2): 1}
        assert await other.take(["cid"], NOW) is not None
        assert await one.waiting() == []

    processes(2, body)


def test_a_cancel_while_the_group_is_seated_is_not_seated(processes: Processes) -> None:
    async def body(queues: list[QueueStore]) -> None:
        matcher, asker = queues
        for t in ("ann", "bea", "cid", "dan"):
            await asker.add(entry(t, t), 4, 100)
        take = await matcher.take(["ann", "bea"], NOW)
        assert take is not None
        assert await asker.drop("ann")  # she cancels while their table is made
        assert await matcher.seat(take, seats("T1", ["ann", "bea"])) == ["bea"]
        assert await asker.seen("ann", NOW) is None  # gone, not seated
        bea = await asker.seen("bea", NOW)
        assert bea is not None and bea.seated == seats("T1", ["ann", "bea"])["bea"]
        # A table that could not be made: the one who stayed waits again.
        again = await matcher.take(["cid", "dan"], NOW)
        assert again is not None
        assert await asker.drop("cid")
        await matcher.put_back(again, ["cid", "dan"])
        assert await waiting_tickets(asker) == ["dan"]
        assert await asker.seen("cid", NOW) is None

    processes(2, body)


def test_a_take_never_seated_puts_its_people_back(redis_url: str) -> None:
    async def body(queues: list[SharedQueue]) -> None:
        dead, alive = queues
        for t in ("ann", "bea"):
            await alive.add(entry(t, t), 4, 100)
        take = await dead.take(["ann", "bea"], NOW)
        assert take is not None and await alive.waiting() == []
        assert await alive.counts() == {}
        await alive.seen("ann", NOW + TAKE_SECONDS)  # their pages still ask
        await alive.seen("bea", NOW + TAKE_SECONDS)
        await alive.prune(NOW + TAKE_SECONDS - 1, 15, 60)
        assert await alive.waiting() == []  # still being seated
        await alive.prune(NOW + TAKE_SECONDS, 15, 60)
        assert sorted(e.ticket for e in await alive.waiting()) == ["ann", "bea"]
        again = await alive.take(["ann", "bea"], NOW + TAKE_SECONDS)
        assert again is not None
        # The stalled process wakes and stores its seats: refused, not its take.
        late = {t: Seated("x", i, f"tok{i}", NOW) for i, t in enumerate(("ann", "bea"))}
        assert await dead.seat(take, late) == []
        mine = {t: Seated("y", i, f"tok{i}", NOW) for i, t in enumerate(("ann", "bea"))}
        assert sorted(await alive.seat(again, mine)) == ["ann", "bea"]
        ann = await dead.seen("ann", NOW + TAKE_SECONDS + 1)
        assert ann is not None and ann.seated == mine["ann"]

    with_queues(redis_url, 2, body)


def test_a_long_poll_of_another_process_is_woken_by_the_seat(redis_url: str) -> None:
    async def body(queues: list[SharedQueue]) -> None:
        here, there = queues
        there.start()
        try:
            await here.add(entry("ann"), 4, 100)
            await here.add(entry("bea", "10.0.0.2"), 4, 100)
            with there.wakers.watch("ann") as woken:
                for _ in range(500):  # until it listens (a bound: subscribing is not instant)
                    if (await here.redis.pubsub_numsub(CHANNEL))[0][1]:
                        break
                    await asyncio.sleep(0.02)
                take = await here.take(["ann", "bea"], NOW)
                assert take is not None
                await here.seat(take, {"ann": Seated("T", 0, "a", NOW)})
                await asyncio.wait_for(woken.wait(), 10)
            assert woken.is_set()
        finally:
            await there.stop()

    with_queues(redis_url, 2, body)


def test_an_account_and_an_address_hold_their_entries_across_processes(
    processes: Processes,
) -> None:
    async def body(queues: list[QueueStore]) -> None:
        ann = Account("acc1", "Ann")
        await queues[0].add(entry("first", "10.0.0.1", ann), 4, 100)
        await queues[1].add(entry("second", "10.0.0.2", ann), 4, 100)
        assert await queues[1].seen("first", NOW) is None  # her new entry replaced it
        for i in range(3):
            assert await queues[i % 2].add(entry(f"x{i}", "10.0.0.2"), 4, 100) is None
        assert await queues[0].add(entry("x3", "10.0.0.2"), 4, 100) == Refusal(4)
        assert await queues[1].drop("x0")
        assert await queues[0].add(entry("x3", "10.0.0.2"), 4, 100) is None
        assert await queues[0].add(entry("y", "10.0.0.3"), 4, 4) == Refusal(None)  # 4 in all

    processes(2, body)


def test_redis_away_is_a_503_in_one_sentence() -> None:
    async def body(queues: list[SharedQueue]) -> None:
        with pytest.raises(BadInput) as away:
            await queues[0].add(entry("ann"), 4, 100)
        assert away.value.status == 503 and "cannot be reached" in str(away.value)

    with_queues(f"redis://127.0.0.1:{free_port()}/0", 1, body)
