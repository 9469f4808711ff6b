"""Where the quick-match entries are kept: the interface every store offers
(:class:`QueueStore`) and the store of a server alone, in its memory
(:class:`MemoryQueue`). The store of several processes keeps them in Redis
(:mod:`cardtable.server.quick.redis_store`); the matching rules
(:mod:`cardtable.server.quick.match`) are the same over both.

A store knows who waits, who is being seated and who was seated where; it
takes no decision but two that must be atomic across processes: whether a
person may join (one account in one queue, ``per_client`` entries of one
address, ``most`` entries in all) and whether a group is still free to be
seated (:meth:`QueueStore.take`: a group taken is seated by its taker alone).
All times are the caller's clock, in seconds.
"""

from __future__ import annotations

import asyncio
import secrets
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from cardtable.server.accounts.accounts import Account


@dataclass(frozen=True, slots=True)
class Seated:
    """Where a person was seated: their table, seat and that seat's token."""

    table: str
    seat: int
    token: str
    at: float  # clock time it was made


@dataclass(eq=False)
class Entry:
    """One person waiting in one queue."""

    ticket: str  # the person's secret: only it asks for their seat and token
    game: str
    players: int
    name: str
    account: Account | None
    client: str  # the address that asked (limits per address)
    rating: float
    joined: float  # clock times, seconds
    wait: float  # seconds they wait for people before bots may fill the seats
    bots: str | None  # the bot level for empty seats; None: people only
    seen: float
    seated: Seated | None = None
    # The accounts this one blocked or is blocked by: never seated with it.
    avoid: frozenset[str] = frozenset()
    watching: int = 0  # long polls in flight in this process (the memory store's)

    @property
    def queue(self) -> tuple[str, int]:
        return self.game, self.players


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a store did not add an entry: its address holds ``waiting``
    entries, its limit, or (``waiting`` is ``None``) the store holds its most."""

    waiting: int | None


class Wakers:
    """The long polls of this process, woken by ticket when their entry is
    seated or dropped (by this process, or another one's message)."""

    def __init__(self) -> None:
        self._events: dict[str, set[asyncio.Event]] = {}

    @contextmanager
    def watch(self, ticket: str) -> Iterator[asyncio.Event]:
        """An event set whenever ``ticket`` changes, for as long as the block runs."""
        event = asyncio.Event()
        self._events.setdefault(ticket, set()).add(event)
        try:
            yield event
        finally:
            events = self._events[ticket]
            events.discard(event)
            if not events:
                del self._events[ticket]

    def wake(self, ticket: str) -> None:
        for event in self._events.get(ticket, ()):
            event.set()


class QueueStore(ABC):
    """The entries of every quick-match queue (see the module)."""

    def __init__(self) -> None:
        self.wakers = Wakers()

    @abstractmethod
    async def add(self, entry: Entry, per_client: int, most: int) -> Refusal | None:
        """Put ``entry`` in, waiting: first the earlier entry of its account
        goes; refused when its address holds ``per_client`` entries not yet
        seated, or the store ``most`` entries."""

    @abstractmethod
    async def seen(self, ticket: str, now: float, watching: int = 0) -> Entry | None:
        """Its person asked about ``ticket`` at ``now`` (``watching``: +1 as a
        long poll starts, -1 as it ends); the entry, or ``None`` if unknown."""

    @abstractmethod
    async def drop(self, ticket: str) -> bool:
        """Remove ``ticket``'s entry; whether there was one."""

    @abstractmethod
    async def prune(self, now: float, stale: float, keep: float) -> None:
        """Drop the entries nobody asked about for ``stale`` seconds (not while
        a long poll watches them) and the seat answers older than ``keep``."""

    @abstractmethod
    async def version(self) -> int:
        """A number that changes whenever someone comes, goes or is taken."""

    @abstractmethod
    async def waiting(self) -> list[Entry]:
        """Every entry free to be seated, each queue's oldest first."""

    @abstractmethod
    async def counts(self) -> dict[tuple[str, int], int]:
        """People waiting per (game, players): those free to be seated (not
        those seated, nor those taken and being seated)."""

    @abstractmethod
    async def take(self, tickets: list[str], now: float) -> str | None:
        """Take the entries of ``tickets`` to seat them, all or none: a token
        naming this take, or ``None`` when one of them is no longer free
        (another process took it, or it went)."""

    @abstractmethod
    async def seat(self, take: str, seats: dict[str, Seated]) -> list[str]:
        """Store each taken person's seat; the tickets stored (an entry that
        went meanwhile, or whose take ran out, is not)."""

    @abstractmethod
    async def put_back(self, take: str, tickets: list[str]) -> None:
        """Their table could not be made: the taken entries wait again."""


class MemoryQueue(QueueStore):
    """Every entry in this process's memory: the queue of a server alone."""

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[str, Entry] = {}  # by ticket, in the order they joined
        self._taken: dict[str, str] = {}  # ticket -> the take seating it
        self._version = 0

    async def add(self, entry: Entry, per_client: int, most: int) -> Refusal | None:
        if entry.account is not None:  # at most one queue: the account's new entry replaces
            account = entry.account.id
            for old in [e for e in self.entries.values() if e.account and e.account.id == account]:
                self._drop(old)
        mine = sum(1 for e in self.entries.values() if e.client == entry.client and not e.seated)
        if mine >= per_client:
            return Refusal(mine)
        if len(self.entries) >= most:
            return Refusal(None)
        self.entries[entry.ticket] = entry
        self._version += 1
        return None

    async def seen(self, ticket: str, now: float, watching: int = 0) -> Entry | None:
        entry = self.entries.get(ticket)
        if entry is not None:
            entry.seen = now
            entry.watching += watching
        return entry

    async def drop(self, ticket: str) -> bool:
        entry = self.entries.get(ticket)
        if entry is not None:
            self._drop(entry)
        return entry is not None

    async def prune(self, now: float, stale: float, keep: float) -> None:
        for e in list(self.entries.values()):
            if e.seated is not None:
                if now - e.seated.at >= keep:
                    self._drop(e)
            elif not e.watching and e.ticket not in self._taken and now - e.seen >= stale:
                self._drop(e)

    async def version(self) -> int:
        return self._version

    async def waiting(self) -> list[Entry]:
        return [
            e for e in self.entries.values() if e.seated is None and e.ticket not in self._taken
        ]

    async def counts(self) -> dict[tuple[str, int], int]:
        out: dict[tuple[str, int], int] = {}
        for e in await self.waiting():
            out[e.queue] = out.get(e.queue, 0) + 1
        return out

    async def take(self, tickets: list[str], now: float) -> str | None:
        free = await self.waiting()
        if not set(tickets) <= {e.ticket for e in free}:
            return None
        token = secrets.token_urlsafe(12)
        self._taken.update(dict.fromkeys(tickets, token))
        self._version += 1
        return token

    async def seat(self, take: str, seats: dict[str, Seated]) -> list[str]:
        stored = []
        for ticket, seated in seats.items():
            if self._taken.get(ticket) == take:
                del self._taken[ticket]
                self.entries[ticket].seated = seated
                self.wakers.wake(ticket)
                stored.append(ticket)
        return stored

    async def put_back(self, take: str, tickets: list[str]) -> None:
        for ticket in tickets:
            if self._taken.get(ticket) == take:
                del self._taken[ticket]
        self._version += 1

    def _drop(self, entry: Entry) -> None:
        self.entries.pop(entry.ticket, None)
        self._taken.pop(entry.ticket, None)
        self._version += 1
        self.wakers.wake(entry.ticket)  # a long poll of it returns now
