"""Quick match never seats two accounts where either blocked the other
(issue 29, item 2; accounts/friends.py): over both stores (the memory store
of a server alone, and Redis, where what an entry avoids must survive being
stored), and through the API of a running server."""

from __future__ import annotations

import dataclasses

from cardtable.server.accounts.accounts import Account
from cardtable.server.quick.match import next_group
from cardtable.server.quick.store import QueueStore
from tests.server.accounts_helpers import account_server
from tests.server.helpers import UNLIMITED
from tests.server.quick.test_quick_match import play_now, poll
from tests.server.quick.test_redis_store import (  # noqa: F401  (processes: a fixture)
    NOW,
    Processes,
    entry,
    processes,
)

ANN, BOB, CAT = Account("a1", "Ann"), Account("b2", "Bob"), Account("c3", "Cat")


def test_blocked_accounts_are_never_grouped_whatever_the_store(processes: Processes) -> None:  # noqa: F811
    async def body(queues: list[QueueStore]) -> None:
        store = queues[0]
        # Ann blocked Bob: each entry says whom it avoids (both ways).
        ann = dataclasses.replace(entry("ann", "10.0.0.1", ANN), avoid=frozenset({BOB.id}))
        bob = dataclasses.replace(entry("bob", "10.0.0.2", BOB), avoid=frozenset({ANN.id}))
        for e in (ann, bob):
            assert await store.add(e, 10, 100) is None
        waiting = sorted(await store.waiting(), key=lambda e: e.ticket)
        assert [e.avoid for e in waiting] == [frozenset({BOB.id}), frozenset({ANN.id})]
        # Same rating, waited long: any other two would meet at once.
        assert next_group(waiting, NOW + 3600) is None
        cat = entry("cat", "10.0.0.3", CAT)
        assert await store.add(cat, 10, 100) is None
        found = next_group(sorted(await store.waiting(), key=lambda e: e.joined), NOW)
        assert found is not None
        assert sorted(e.ticket for e in found[0]) in (["ann", "cat"], ["bob", "cat"])

    processes(1, body)


def test_one_sided_block_still_keeps_them_apart(processes: Processes) -> None:  # noqa: F811
    """An entry stored before the other's block avoids nobody: the other's avoids it."""

    async def body(queues: list[QueueStore]) -> None:
        store = queues[0]
        ann = dataclasses.replace(entry("ann", "10.0.0.1", ANN), avoid=frozenset({BOB.id}))
        for e in (ann, entry("bob", "10.0.0.2", BOB)):
            assert await store.add(e, 10, 100) is None
        assert next_group(await store.waiting(), NOW + 3600) is None

    processes(1, body)


def test_play_now_keeps_a_blocker_and_the_blocked_waiting(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as ann:
        ann.sign_up("Ann")
        bob, cat = ann.browser(), ann.browser()
        bob.sign_up("Bob")
        cat.sign_up("Cat")
        ann.post("/api/friends/block", {"name": "Bob"})
        first = play_now(ann, "ignored")
        second = play_now(bob, "ignored")
        assert poll(ann, first["ticket"])["status"] == "waiting"
        assert poll(bob, second["ticket"])["status"] == "waiting"
        third = play_now(cat, "ignored")
        assert third["status"] == "seated"  # with Ann, who waited longest
        assert poll(ann, first["ticket"])["table"] == third["table"]
        assert poll(bob, second["ticket"])["status"] == "waiting"
