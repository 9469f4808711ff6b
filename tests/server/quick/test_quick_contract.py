"""What quick match promises, pinned where the API tests cannot reach it
(issue 34, item 8: mutation testing of the server's guards).

:class:`~cardtable.server.quick.match.QuickMatch` runs here with fakes for the
hub (the settings' clock and limits; tables made, or refused as a full server
refuses them), the table's players and the accounts, over the memory store
(and, where a store must be told the time, Redis too). Its long polls run on
an event loop whose clock stands still until the test moves it, so "answered
at once" and "still waiting" are facts, not timings.

The promises: a long poll is answered by the seat or the cancel that ends it,
or by a change of the count its page shows, and not before; a poll keeps its
entry while it waits and lets it go after; a store's version never comes back
to an earlier value; the queues and groups are matched whole in one walk, at
most once a second when nothing changed; a race lost or a table refused in
one queue stalls nobody else, and the people refused wait again; a ticket
that is not a ticket never reaches the store; the limits answer 429 and 503
in a sentence; an account's seat is linked from the address it asked from;
ratings pair the nearest first, within ranges that start at RANGE_START.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Callable, Coroutine
from types import SimpleNamespace
from typing import Any, cast

import pytest

from cardtable.core.registry import game_names
from cardtable.server.accounts.accounts import Account, Accounts
from cardtable.server.guard.limits import TooMany
from cardtable.server.live.hub import Hub
from cardtable.server.live.play import Play
from cardtable.server.quick import match as quick_module
from cardtable.server.quick.match import (
    MATCH_EVERY,
    RANGE_GROWTH,
    RANGE_START,
    STALE_SECONDS,
    NoTicket,
    PlayNow,
    QuickMatch,
    check_request,
    compatible,
    next_group,
    reach,
)
from cardtable.server.quick.store import Entry, MemoryQueue, QueueStore, Seated
from cardtable.server.settings import Limits
from cardtable.server.tables.lobby import NewTable
from cardtable.server.wire import BadInput
from tests.server.helpers import run_coroutine
from tests.server.live.test_lobby_lifecycle import START, Clock
from tests.server.quick.test_redis_store import (  # noqa: F401  (processes: a fixture)
    Processes,
    processes,
)

MT = "marshmallow-test"
ANN, BEA = Account("acc-ann", "Ann"), Account("acc-bea", "Bea")


class Tables:
    """The hub as quick match sees it: the settings (clock, per-address limit)
    and ``create``, which makes a table or refuses it (``refuse`` gives the
    reason, and ``status`` the answer's code: 503 as a full server refuses,
    400 as a table that cannot be made, a missing bot level, is refused)."""

    def __init__(
        self,
        clock: Clock,
        per_client: int = 4,
        refuse: Callable[[NewTable], str | None] = lambda new: None,
        status: int = 503,
    ) -> None:
        self.settings = SimpleNamespace(limits=Limits(clock=clock, quick_per_client=per_client))
        self.refuse = refuse
        self.status = status
        self.made: list[NewTable] = []
        self.refused = 0

    async def create(self, new: NewTable) -> Any:
        reason = self.refuse(new)
        if reason is not None:
            self.refused += 1
            raise BadInput(reason, self.status)
        self.made.append(new)
        return SimpleNamespace(id=f"table-{len(self.made)}")


class Linked:
    """The accounts and the table's players: what was linked, what was announced."""

    def __init__(self) -> None:
        self.engine = None
        self.links: list[tuple[str, list[tuple[str, int]], str]] = []
        self.changed: list[str] = []

    async def link_seats(
        self, account: Account, held: list[tuple[str, int]], address: str
    ) -> list[tuple[str, int]]:
        self.links.append((account.id, held, address))
        return held


def quick_match(
    clock: Clock, store: QueueStore | None = None, tables: Tables | None = None
) -> tuple[QuickMatch, Tables, Linked]:
    tables = tables or Tables(clock)
    linked = Linked()
    play = SimpleNamespace(changed=lambda table: linked.changed.append(table.id))
    made = QuickMatch(
        cast(Hub, tables), cast(Play, play), cast(Accounts, linked), store=store or MemoryQueue()
    )
    return made, tables, linked


def person(
    ticket: str,
    clock: Clock,
    rating: float = 1000.0,
    players: int = 2,
    game: str = MT,
    bots: str | None = None,
    wait: float = 30,
    account: Account | None = None,
    client: str | None = None,
) -> Entry:
    return Entry(
        ticket, game, players, ticket.title(), account, client or f"addr-{ticket}", rating,
        clock.now, wait, bots, clock.now,
    )  # fmt: skip


def memory(quick: QuickMatch) -> MemoryQueue:
    assert isinstance(quick.store, MemoryQueue)
    return quick.store


async def settle() -> None:
    """Let every task run until it waits (the loop's clock stands still)."""
    for _ in range(50):
        await asyncio.sleep(0)


def on_still_loop(body: Callable[[Callable[[float], None]], Coroutine[Any, Any, None]]) -> None:
    """Run ``body`` on an event loop whose clock moves only by ``body``'s own
    ``advance(seconds)``: a long poll's wait runs out only when the test says."""

    async def still() -> None:
        loop = asyncio.get_running_loop()
        now = [loop.time()]
        loop.time = lambda: now[0]  # type: ignore[method-assign]

        def advance(seconds: float) -> None:
            now[0] += seconds

        await body(advance)

    run_coroutine(still())


def join(quick: QuickMatch, name: str, players: int = 2, client: str | None = None) -> Any:
    return quick.join(PlayNow(MT, players, name, 30, None), None, client or f"addr-{name}")


# --- long polls ----------------------------------------------------------------------------


def test_a_long_poll_waits_until_the_seat_that_ends_it_wakes_it() -> None:
    async def body(advance: Callable[[float], None]) -> None:
        quick, _, _ = quick_match(Clock())
        ann = await join(quick, "Ann")
        asked = asyncio.create_task(quick.poll(ann.ticket, wait=1))
        await settle()
        assert not asked.done()  # a one-second poll waits, however short its wait
        bea = await join(quick, "Bea")
        assert bea.seated is not None
        await settle()  # no time passes: only the seat's wake-up can answer Ann
        assert asked.done()
        answer = asked.result()
        assert answer.seated is not None and answer.seated.table == bea.seated.table

    on_still_loop(body)


def test_a_long_poll_of_a_cancelled_ticket_is_answered_404_at_once() -> None:
    async def body(advance: Callable[[float], None]) -> None:
        quick, _, _ = quick_match(Clock())
        ann = await join(quick, "Ann")
        asked = asyncio.create_task(quick.poll(ann.ticket, wait=1))
        await settle()
        await quick.cancel(ann.ticket)
        await settle()
        assert asked.done()
        with pytest.raises(NoTicket) as gone:
            asked.result()
        assert gone.value.status == 404

    on_still_loop(body)


def test_a_poll_that_does_not_wait_answers_at_once() -> None:
    async def body(advance: Callable[[float], None]) -> None:
        quick, _, _ = quick_match(Clock())
        ann = await join(quick, "Ann")
        for asked in (quick.poll(ann.ticket), quick.poll(ann.ticket, wait=0)):
            task = asyncio.create_task(asked)
            await settle()
            assert task.done() and task.result().seated is None

    on_still_loop(body)


def test_a_long_poll_keeps_its_entry_while_it_waits_and_lets_it_go_after() -> None:
    """A page whose long poll is in flight is open, however long the poll
    (the memory store counts the polls); once the last poll ends, the entry
    goes STALE_SECONDS after it was last asked about, as a closed page's."""

    async def body(advance: Callable[[float], None]) -> None:
        clock = Clock()
        quick, _, _ = quick_match(clock)
        ann = await join(quick, "Ann")
        polls = [asyncio.create_task(quick.poll(ann.ticket, wait=1)) for _ in range(2)]
        await settle()
        assert memory(quick).entries[ann.ticket].watching == 2
        clock.now += STALE_SECONDS + 1
        await quick.prune()
        assert ann.ticket in memory(quick).entries  # watched: not dropped as stale
        advance(1)  # the polls' waits run out
        await settle()
        assert all(p.done() and p.result().ticket == ann.ticket for p in polls)
        assert memory(quick).entries[ann.ticket].watching == 0
        clock.now += STALE_SECONDS - 1
        await quick.prune()
        assert ann.ticket in memory(quick).entries
        clock.now += 1
        await quick.prune()
        assert memory(quick).entries == {}

    on_still_loop(body)


def test_a_long_poll_answers_when_the_count_its_page_shows_is_not_the_count() -> None:
    """Another process took Ann to seat her: nobody is free in her queue. A
    page that shows 1 is answered at once (0 now), one that shows 0 waits."""

    async def body(advance: Callable[[float], None]) -> None:
        quick, _, _ = quick_match(Clock())
        ann = await join(quick, "Ann")
        assert await quick.store.take([ann.ticket], quick.now()) is not None
        stale = asyncio.create_task(quick.poll(ann.ticket, wait=1, shown=1))
        current = asyncio.create_task(quick.poll(ann.ticket, wait=1, shown=0))
        await settle()
        assert stale.done() and not current.done()
        assert (await quick.answer(stale.result()))["waiting"] == 0
        advance(1)
        await settle()
        assert current.done() and current.result().seated is None

    on_still_loop(body)


class Counted(MemoryQueue):
    """A memory store that counts the reads of its counts."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    async def counts(self) -> dict[tuple[str, int], int]:
        self.reads += 1
        return await super().counts()


def test_a_long_poll_reads_the_count_again_only_when_someone_came_or_went() -> None:
    """Each waiting page's poll looks every second; the count (a script over
    every queue, with Redis) is read again only when the version moved."""

    async def body(advance: Callable[[float], None]) -> None:
        clock = Clock()
        store = Counted()
        quick, _, _ = quick_match(clock, store=store)
        await store.add(person("ann", clock, players=3), 4, 100)
        asked = asyncio.create_task(quick.poll("ann", wait=10))
        await settle()
        for _ in range(3):  # three seconds of nobody coming
            advance(MATCH_EVERY)
            await settle()
        assert not asked.done() and store.reads == 1
        await store.add(person("bea", clock, players=3), 4, 100)
        advance(MATCH_EVERY)
        await settle()
        assert asked.done() and store.reads == 2
        assert (await quick.answer(asked.result()))["waiting"] == 2

    on_still_loop(body)


def test_two_people_meet_over_either_store(processes: Processes) -> None:  # noqa: F811
    """The same match over the memory store and Redis (which is told every time)."""

    async def body(queues: list[QueueStore]) -> None:
        quick, tables, _ = quick_match(Clock(), store=queues[0])
        ann = await join(quick, "Ann")
        bea = await join(quick, "Bea")
        ann = await quick.poll(ann.ticket)
        assert ann.seated is not None and bea.seated is not None
        assert ann.seated.table == bea.seated.table == "table-1" and len(tables.made) == 1
        assert {ann.seated.seat, bea.seated.seat} == {0, 1}

    processes(1, body)


# --- answers -------------------------------------------------------------------------------


def test_the_answers_carry_the_request_and_the_seat_and_nothing_else() -> None:
    async def body() -> None:
        clock = Clock()
        quick, _, _ = quick_match(clock)
        ask = PlayNow(MT, 3, "Ann", 45, "easy")
        ann = await quick.join(ask, None, "addr-ann")
        clock.now += 7
        asked = {"ticket": ann.ticket, "game": MT, "players": 3, "wait_seconds": 45, "bots": "easy"}
        waiting = {**asked, "status": "waiting", "waited_seconds": 7, "waiting": 1}
        assert await quick.answer(ann) == waiting
        clock.now += 45  # her wait ran out: bots fill the other seats
        ann = await quick.poll(ann.ticket)
        assert ann.seated is not None
        seat, token = ann.seated.seat, ann.seated.token
        seated = {**asked, "status": "seated", "table": "table-1", "seat": seat, "token": token}
        assert await quick.answer(ann) == {**seated, "url": "/t/table-1"}

    run_coroutine(body())


def test_an_entry_being_seated_is_counted_nowhere() -> None:
    async def body() -> None:
        quick, _, _ = quick_match(Clock())
        ann = await join(quick, "Ann")
        assert await quick.store.take([ann.ticket], quick.now()) is not None  # another process
        assert (await quick.answer(ann))["waiting"] == 0

    run_coroutine(body())


# --- joining -------------------------------------------------------------------------------


def test_an_account_joins_under_its_own_name_and_rating(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str | None, str, int]] = []

    async def rating(account_id: str | None, game: str, players: int) -> float:
        asked.append((account_id, game, players))
        return 1234.0

    async def avoids_nobody(engine: object, account_id: str) -> frozenset[str]:
        return frozenset()

    monkeypatch.setattr(quick_module, "avoided", avoids_nobody)

    async def body() -> None:
        quick, _, _ = quick_match(Clock())
        quick.rating = rating
        ann = await quick.join(PlayNow(MT, 2, "Mallory", 30, None), ANN, "10.0.0.7")
        assert (ann.name, ann.account, ann.client, ann.rating) == ("Ann", ANN, "10.0.0.7", 1234.0)
        assert asked == [(ANN.id, MT, 2)]

    run_coroutine(body())


def test_one_address_holds_its_limit_and_another_address_still_joins() -> None:
    async def body() -> None:
        clock = Clock()
        quick, _, _ = quick_match(clock, tables=Tables(clock, per_client=2))
        for name in ("Ann", "Bea"):
            await join(quick, name, players=3, client="10.0.0.1")
        with pytest.raises(TooMany) as refused:
            await join(quick, "Cy", players=3, client="10.0.0.1")
        assert refused.value.status == 429 and refused.value.retry_after == STALE_SECONDS
        assert str(refused.value) == (
            "your address has 2 people waiting for a quick match, this server's limit:"
            f" cancel one first; try again in {STALE_SECONDS:g} s"
        )
        dee = await join(quick, "Dee", players=3, client="10.0.0.2")
        assert dee.seated is not None  # with Ann and Bea: the limit is per address

    run_coroutine(body())


def test_a_full_queue_is_a_503_in_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quick_module, "MAX_ENTRIES", 2)

    async def body() -> None:
        quick, _, _ = quick_match(Clock())
        for name in ("Ann", "Bea"):
            await join(quick, name, players=3)
        with pytest.raises(BadInput) as full:
            await join(quick, "Cy", players=3)
        assert full.value.status == 503
        assert str(full.value) == "2 people wait for a quick match, the limit; try later"

    run_coroutine(body())


def test_a_quick_match_uses_the_store_it_is_given() -> None:
    store = MemoryQueue()
    quick, _, _ = quick_match(Clock(), store=store)
    assert quick.store is store


def test_an_entry_replaced_before_its_first_answer_is_a_404() -> None:
    """With Redis, another process may replace an account's entry between the
    join and its answer: the join says so, in a 404, not a 500."""

    async def body() -> None:
        quick, _, _ = quick_match(Clock())

        async def replaced_meanwhile() -> None:
            for ticket in list(memory(quick).entries):
                await quick.store.drop(ticket)

        quick.match = replaced_meanwhile  # type: ignore[method-assign]
        with pytest.raises(NoTicket) as gone:
            await join(quick, "Ann")
        assert gone.value.status == 404

    run_coroutine(body())


# --- tickets -------------------------------------------------------------------------------


class Asked(MemoryQueue):
    """A memory store that notes every ticket it is asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    async def seen(self, ticket: str, now: float, watching: int = 0) -> Entry | None:
        self.asked.append(ticket)
        return await super().seen(ticket, now, watching)

    async def drop(self, ticket: str) -> bool:
        self.asked.append(ticket)
        return await super().drop(ticket)


def test_a_ticket_that_is_not_a_ticket_never_reaches_the_store() -> None:
    """Whatever a client sends as a ticket (a Redis key is made of it) is
    refused before the store is asked: even one the store happens to hold."""

    async def body() -> None:
        clock = Clock()
        store = Asked()
        quick, _, _ = quick_match(clock, store=store)
        for junk in ("x" * 65, "a b", "../x", "é", ""):
            await store.add(person(junk, clock), 4, 100)
            store.asked.clear()
            with pytest.raises(NoTicket):
                await quick.poll(junk)
            with pytest.raises(NoTicket):
                await quick.cancel(junk)
            assert store.asked == [], junk

    run_coroutine(body())


def test_an_unknown_ticket_is_a_404_that_quotes_at_most_16_characters() -> None:
    async def body() -> None:
        quick, _, _ = quick_match(Clock())
        ann = await join(quick, "Ann")
        await quick.cancel(ann.ticket)
        for ask in (quick.cancel(ann.ticket), quick.poll(ann.ticket)):
            with pytest.raises(NoTicket) as gone:
                await ask
            assert gone.value.status == 404
            assert repr(ann.ticket[:16]) in str(gone.value)
            assert ann.ticket[:17] not in str(gone.value)

    run_coroutine(body())


# --- matching ------------------------------------------------------------------------------


class Walks(MemoryQueue):
    """A memory store that counts the walks over its queues."""

    def __init__(self) -> None:
        super().__init__()
        self.walks = 0

    async def waiting(self) -> list[Entry]:
        self.walks += 1
        return await super().waiting()


def test_the_queues_are_walked_at_most_once_a_second_while_nothing_changes() -> None:
    """Every long poll asks for a match each second: a flood of them walks the
    queues (quadratic in a queue) once a second, unless someone comes or goes."""

    async def body() -> None:
        clock = Clock()
        store = Walks()
        quick, _, _ = quick_match(clock, store=store)
        await store.add(person("ann", clock, players=3), 4, 100)
        for _ in range(3):
            await quick.match()
        assert store.walks == 1
        clock.now += MATCH_EVERY / 2
        await quick.match()
        assert store.walks == 1
        clock.now += MATCH_EVERY / 2
        await quick.match()
        assert store.walks == 2
        await store.add(person("bea", clock, players=3), 4, 100)  # someone came
        await quick.match()
        assert store.walks == 3

    run_coroutine(body())


def test_one_match_seats_every_group_it_can() -> None:
    async def body() -> None:
        clock = Clock()
        quick, tables, _ = quick_match(clock)
        for name in ("ann", "bea", "cy", "dee", "eve"):
            await quick.store.add(person(name, clock), 4, 100)
        await quick.match()
        seated = {t: e.seated.table for t, e in memory(quick).entries.items() if e.seated}
        assert seated == {"ann": "table-1", "bea": "table-1", "cy": "table-2", "dee": "table-2"}
        assert await quick.counts() == {(MT, 2): 1}  # eve waits for someone
        assert len(tables.made) == 2

    run_coroutine(body())


def test_people_of_different_queues_never_share_a_table() -> None:
    async def body() -> None:
        clock = Clock()
        quick, tables, _ = quick_match(clock)
        other = next(g for g in game_names() if g != MT)
        for ticket, players, game in (("ann", 3, MT), ("bea", 2, MT), ("cy", 2, other)):
            await quick.store.add(person(ticket, clock, players=players, game=game), 4, 100)
        await quick.match()  # same ratings: any two of one queue would meet at once
        assert tables.made == []
        assert await quick.counts() == {(MT, 3): 1, (MT, 2): 1, (other, 2): 1}

    run_coroutine(body())


class Raced(MemoryQueue):
    """A memory store where another process takes ``lost`` just before this
    one's first take of it (the race :meth:`QueueStore.take` settles)."""

    def __init__(self, lost: str) -> None:
        super().__init__()
        self.lost: str | None = lost

    async def take(self, tickets: list[str], now: float) -> str | None:
        if self.lost in tickets:
            await super().take([self.lost], now)
            self.lost = None
        return await super().take(tickets, now)


def test_a_race_lost_in_one_queue_holds_up_no_other_queue() -> None:
    async def body() -> None:
        clock = Clock()
        quick, tables, _ = quick_match(clock, store=Raced("ann"))
        for ticket, players in (("ann", 3), ("bea", 3), ("cy", 3), ("dee", 2), ("eve", 2)):
            await quick.store.add(person(ticket, clock, players=players), 4, 100)
        await quick.match()
        seated = {t for t, e in memory(quick).entries.items() if e.seated}
        assert seated == {"dee", "eve"} and len(tables.made) == 1
        assert await quick.counts() == {(MT, 3): 2}  # Bea and Cy wait on

    run_coroutine(body())


def with_bots(new: NewTable) -> str | None:
    """A hub that cannot make tables with bots (as when a level's extra is missing)."""
    return "no bots here" if any(s.kind == "bot" for s in new.seats) else None


def test_a_table_refused_in_one_queue_holds_up_no_other_queue() -> None:
    async def body() -> None:
        clock = Clock()
        quick, tables, _ = quick_match(clock, tables=Tables(clock, refuse=with_bots, status=400))
        await quick.store.add(person("ann", clock, players=3, bots="easy", wait=5), 4, 100)
        for ticket in ("bea", "cy"):
            await quick.store.add(person(ticket, clock), 4, 100)
        clock.now += 5  # Ann's wait ran out: she gets bots, if the hub can make them
        await quick.match()
        assert tables.refused == 1 and len(tables.made) == 1
        seated = {t for t, e in memory(quick).entries.items() if e.seated}
        assert seated == {"bea", "cy"}
        assert await quick.counts() == {(MT, 3): 1}  # Ann waits again

    run_coroutine(body())


def test_a_table_refused_for_the_oldest_holds_up_no_one_else_in_her_queue() -> None:
    """A bot table that cannot be made for the person who waited longest (a
    level's extra is missing) leaves her waiting, and the people after her in
    the same queue who can meet are seated: the walk goes on past her."""

    async def body() -> None:
        clock = Clock()
        tables = Tables(clock, refuse=with_bots, status=400)
        quick, _, _ = quick_match(clock, tables=tables)
        # Ann (rated far from the others) waited out her 5 s and wants bots.
        await quick.store.add(person("ann", clock, rating=3000.0, bots="easy", wait=5), 4, 100)
        clock.now += 6
        await quick.store.seen("ann", clock.now)
        await quick.match()  # her bot table is refused: she waits again
        for ticket in ("bea", "cy"):  # they arrive after her wait ran out
            await quick.store.add(person(ticket, clock), 4, 100)
        for _ in range(3):
            clock.now += 1
            for ticket in ("ann", "bea", "cy"):
                await quick.store.seen(ticket, clock.now)
            await quick.match()
        seated = {t for t, e in memory(quick).entries.items() if e.seated}
        assert seated == {"bea", "cy"}, (seated, tables.refused)

    run_coroutine(body())


def test_a_full_server_is_asked_once_per_match_and_its_people_wait_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The server holds its most tables: one refusal per queue and match (not
    one per group), everyone waits again, the operator's log says how many
    and why; once there is room, the next match seats them."""

    async def body() -> None:
        clock = Clock()
        full = [True]
        tables = Tables(clock, refuse=lambda new: "the server is full" if full[0] else None)
        quick, _, _ = quick_match(clock, tables=tables)
        for name in ("ann", "bea", "cy", "dee", "eve", "fay"):
            await quick.store.add(person(name, clock), 4, 100)
        with caplog.at_level(logging.WARNING, logger=quick_module.__name__):
            await quick.match()
        assert tables.refused == 1 and tables.made == []
        assert await quick.counts() == {(MT, 2): 6}
        (warning,) = [r for r in caplog.records if r.name == quick_module.__name__]
        said = warning.getMessage()
        assert warning.levelno == logging.WARNING
        assert re.search(r"\b2\b", said) and "the server is full" in said
        full[0] = False
        clock.now += MATCH_EVERY
        await quick.match()
        assert len(tables.made) == 3 and await quick.counts() == {}

    run_coroutine(body())


def test_a_table_made_for_someone_who_cancelled_meanwhile_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Ann cancels while their table is made: Bea is seated, and the operator's
    log names the table with one seat nobody will claim. A table whose seats
    are all claimed logs nothing."""

    async def body() -> None:
        clock = Clock()
        quick, tables, _ = quick_match(clock)
        made = tables.create

        async def ann_cancels_meanwhile(new: NewTable) -> Any:
            await quick.store.drop("ann")
            return await made(new)

        tables.create = ann_cancels_meanwhile  # type: ignore[method-assign]
        for name in ("ann", "bea"):
            await quick.store.add(person(name, clock), 4, 100)
        with caplog.at_level(logging.WARNING, logger=quick_module.__name__):
            await quick.match()
            bea = memory(quick).entries["bea"]
            assert "ann" not in memory(quick).entries
            assert bea.seated is not None and bea.seated.table == "table-1"
            (warning,) = [r for r in caplog.records if r.name == quick_module.__name__]
            said = warning.getMessage()
            assert "table-1" in said and re.search(r"\b1\b", said.replace("table-1", ""))
            tables.create = made  # type: ignore[method-assign]
            for name in ("cy", "dee"):
                await quick.store.add(person(name, clock), 4, 100)
            await quick.match()
        assert len(tables.made) == 2
        assert [r.name for r in caplog.records].count(quick_module.__name__) == 1

    run_coroutine(body())


def test_an_accounts_seat_is_linked_from_the_address_it_asked_from() -> None:
    async def body() -> None:
        clock = Clock()
        quick, _, linked = quick_match(clock)
        ann = person("ann", clock, account=ANN, client="10.0.0.1")
        bea = person("bea", clock, client="10.0.0.2")  # a guest: nothing to link
        for e in (ann, bea):
            await quick.store.add(e, 4, 100)
        await quick.match()
        assert ann.seated is not None
        assert linked.links == [(ANN.id, [("table-1", ann.seated.seat)], "10.0.0.1")]
        assert linked.changed == ["table-1"]

    run_coroutine(body())


# --- ratings -------------------------------------------------------------------------------


def test_the_nearest_rating_is_seated_first() -> None:
    clock = Clock()
    ann = person("ann", clock, rating=1000.0)
    low = person("low", clock, rating=950.0)  # 50 away
    near = person("near", clock, rating=1020.0)  # 20 away: nearest, though rated higher
    found = next_group([ann, low, near], clock.now)
    assert found is not None and found[0] == [ann, near] and found[1] is None


def test_a_range_starts_at_range_start_and_grows_by_range_growth_a_second() -> None:
    clock = Clock()
    ann = person("ann", clock)
    assert reach(ann, START) == RANGE_START
    assert reach(ann, START - 5) == RANGE_START  # a clock read before her join: no less
    assert reach(ann, START + 3) == RANGE_START + 3 * RANGE_GROWTH
    edge = dataclasses.replace(person("bea", clock), rating=ann.rating + RANGE_START)
    beyond = dataclasses.replace(edge, rating=edge.rating + 0.5)
    assert compatible(ann, edge, START) and not compatible(ann, beyond, START)
    assert compatible(ann, beyond, START + 0.05)


def test_a_refused_request_names_every_choice() -> None:
    with pytest.raises(BadInput) as game:
        check_request("chess", 2, None)
    assert str(game.value) == f"request.game must be one of {', '.join(game_names())}"
    with pytest.raises(BadInput) as bots:
        check_request(MT, 2, "grandmaster")
    assert str(bots.value) == (
        "request.bots must be one of easy, medium, hard, expert, or null to wait for people only"
    )


# --- the store -----------------------------------------------------------------------------


def test_a_stores_version_never_comes_back_to_an_earlier_value(processes: Processes) -> None:  # noqa: F811
    """A match walks again when the version differs from the one it saw last,
    which may be several changes ago: a version that came back to that value
    would hide every change in between."""

    async def body(queues: list[QueueStore]) -> None:
        store = queues[0]
        clock = Clock()
        seen = [await store.version()]

        async def moved() -> None:
            seen.append(await store.version())
            assert len(set(seen)) == len(seen), seen

        for name in ("ann", "bea"):
            assert await store.add(person(name, clock), 4, 100) is None
            await moved()
        take = await store.take(["ann"], clock.now)
        assert take is not None
        await moved()
        await store.put_back(take, ["ann"])
        await moved()
        again = await store.take(["ann", "bea"], clock.now)
        assert again is not None
        await moved()
        await store.seat(again, {"bea": Seated("table-1", 0, "token", clock.now)})
        assert await store.drop("ann")
        await moved()

    processes(1, body)


def test_the_memory_store_counts_each_long_poll_of_an_entry() -> None:
    async def body() -> None:
        clock = Clock()
        store = MemoryQueue()
        await store.add(person("ann", clock), 4, 100)
        for watching in (1, 2, 1):
            step = watching - store.entries["ann"].watching
            assert await store.seen("ann", clock.now, step) is not None
            assert store.entries["ann"].watching == watching
        await store.prune(clock.now + STALE_SECONDS, STALE_SECONDS, 60)
        assert "ann" in store.entries  # one poll still watches it
        await store.seen("ann", clock.now, -1)
        await store.prune(clock.now + STALE_SECONDS, STALE_SECONDS, 60)
        assert store.entries == {}

    run_coroutine(body())
