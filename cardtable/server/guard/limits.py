"""Limits against abuse: how many tables a client makes, joins it asks for,
tokens it tries and chat lines it sends, and which address counts as the client.

Each limit is a setting of ``cardtable serve``
(:class:`cardtable.server.settings.Limits`, docs/server.md).
A request over a limit is refused with :class:`TooMany` (HTTP 429, a
``Retry-After`` header and one sentence). Counting is in memory, per address
(an IPv6 address counts as its /64), in sliding one-minute windows; what must
survive a restart is rebuilt from the database at start
(:meth:`Gate.remember_creates`: each table stores its creator and creation
time; waiting tables come back with their creator).
Joins, token attempts and chat lines are counted in memory only: a client
cannot restart the server, so a restart forgets at most one minute of them.

With several processes (``cardtable serve --redis``) the windows are counted
in Redis instead (:mod:`cardtable.server.guard.redis_limits`), so a client's
allowance is the same however many processes its requests reach; while Redis
is away, each process counts in its memory again.
"""

from __future__ import annotations

import ipaddress
import math
from collections import deque
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from cardtable.server.settings import Limits
from cardtable.server.wire import BadInput

if TYPE_CHECKING:  # redis-py is an extra: imported only by processes that share
    from cardtable.server.guard.redis_limits import SharedWindows

WINDOW = 60.0  # seconds: every rate here is per minute
#: Addresses a window remembers at once; past this the one first seen longest
#: ago is forgotten, so a flood from many addresses cannot fill the memory.
MAX_KEYS = 100_000


class TooMany(BadInput):
    """A request over a limit: HTTP 429; ``retry_after`` seconds until it would pass."""

    def __init__(self, message: str, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(f"{message}; try again in {self.retry_after} s", 429)


class Window:
    """Events per key within the last :data:`WINDOW` seconds."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._times: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may act again; 0 when it may now."""
        times = self._times.get(key)
        if times is None:
            return 0.0
        while times and times[0] <= now - WINDOW:
            times.popleft()
        if not times:
            del self._times[key]
            return 0.0
        return times[0] + WINDOW - now if len(times) >= self.limit else 0.0

    def drop_last(self, key: str) -> None:
        """Take back the latest event of ``key``."""
        times = self._times.get(key)
        if times:
            times.pop()

    def add(self, key: str, at: float) -> None:
        if key not in self._times and len(self._times) >= MAX_KEYS:
            # Forget the key first seen longest ago (dicts keep insertion order): O(1).
            del self._times[next(iter(self._times))]
        self._times.setdefault(key, deque()).append(at)


class Gate:
    """The limits of one server process, counted per client address (in
    ``shared`` windows, given those of every process)."""

    def __init__(self, limits: Limits, shared: SharedWindows | None = None) -> None:
        self.limits = limits
        self.shared = shared
        self.creates = Window(limits.creates_per_minute)
        self.joins = Window(limits.joins_per_minute)
        self.tokens = Window(limits.token_attempts_per_minute)
        self.chats = Window(limits.chat_per_minute)
        self.signups = Window(limits.signups_per_minute)
        self.address_chats = Window(limits.chat_per_address_per_minute)

    def now(self) -> float:
        return self.limits.clock()

    def remember_creates(self, made: Iterable[tuple[str, int]]) -> None:
        """Count tables made before a restart: (creator, created_ms) pairs.
        (Shared windows outlive a process's restart: nothing to recall.)"""
        if self.shared is not None:
            return
        for creator, created_ms in made:
            self.creates.add(creator, created_ms / 1000)

    async def may_create(self, client: str) -> None:
        """Count a create by ``client``; refuse it past the rate. It is counted
        before the table is made (no wait in between), so parallel requests
        cannot slip past; a create refused later (bad input) still counts."""
        await self._count(
            self.creates,
            "creates",
            client,
            f"you created {self.limits.creates_per_minute} tables in the last minute",
        )

    async def may_wait(self, client: str, waiting: int) -> None:
        """Refuse a new waiting table of ``client``, who has ``waiting`` already.
        The refused create is taken off the rate's count (it made nothing),
        so a client at this limit can still make a table of bots only."""
        if waiting >= self.limits.waiting_per_client:
            if self.shared is None or not await self.shared.drop_last("creates", client):
                self.creates.drop_last(client)
            raise TooMany(
                f"you have {waiting} tables waiting for players, this server's limit:"
                " start one of them or let it expire",
                self.limits.waiting_seconds,
            )

    async def may_join(self, client: str) -> None:
        """Count a seat request; refuse it past the rate."""
        await self._count(
            self.joins,
            "joins",
            client,
            f"{self.limits.joins_per_minute} seat requests in the last minute from your address",
        )

    async def may_sign_up(self, client: str) -> None:
        """Count a sign-up; refuse it past the rate (counted before its hash)."""
        await self._count(
            self.signups,
            "signups",
            client,
            f"{self.limits.signups_per_minute} sign-ups in the last minute from your address",
        )

    async def wrong_token(self, client: str) -> None:
        """Count a wrong seat token from ``client``; past the rate, refuse it
        (429) instead of saying it is wrong. A right token is never refused, so
        the people behind one address are not locked out of their seats by one
        of them (a token is 24 random bytes: no rate of guesses finds one)."""
        await self._count(
            self.tokens,
            "tokens",
            client,
            f"{self.limits.token_attempts_per_minute} wrong seat tokens in the last minute"
            " from your address",
        )

    async def may_chat(self, address: str, speaker: str) -> None:
        """Count a chat line from ``address``, of ``speaker`` (a client at one
        table's seat, or its spectators' rail); refuse it past either rate:
        the address's at all tables together, the speaker's at its table."""
        await self._count(
            self.address_chats,
            "address-chats",
            address,
            f"your address sent {self.limits.chat_per_address_per_minute} chat lines in the"
            " last minute, at all tables together",
        )
        await self._count(
            self.chats,
            "chats",
            speaker,
            f"you sent {self.limits.chat_per_minute} chat lines at this table in the last minute",
        )

    async def _count(self, window: Window, name: str, client: str, what: str) -> None:
        """Refuse ``client`` when ``window`` is full; else count it."""
        now = self.now()
        wait = None
        if self.shared is not None:
            wait = await self.shared.wait(name, client, window.limit, now)
        if wait is None:  # one process, or Redis away: this process's memory
            wait = window.wait(client, now)
            if not wait:
                window.add(client, now)
        if wait:
            raise TooMany(f"{what}, this server's limit", wait)


def client_address(scope: Mapping[str, Any], limits: Limits) -> str:
    """The address that counts as the client: the peer's, or, when the peer is
    a trusted proxy, the last address in ``X-Forwarded-For`` that is not one
    (the proxy appends the address it saw; earlier entries are the client's to
    forge). An IPv6 address counts as its /64 network (:func:`_grouped`)."""
    return _grouped(_sender(scope, limits))


def _sender(scope: Mapping[str, Any], limits: Limits) -> str:
    peer = scope.get("client")
    address = _normal(str(peer[0])) if peer else "unknown"
    if address not in limits.trusted_proxies:
        return address
    forwarded = ""
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            forwarded = f"{forwarded},{value.decode('latin-1')}"
    for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
        if hop not in limits.trusted_proxies:
            return _normal(hop)
    return address


def _normal(address: str) -> str:
    """An address as one spelling (``::ffff:1.2.3.4`` and friends), at most 64 characters."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return str(mapped or ip)


#: An IPv6 subscriber gets a /64 (or more) and a host may take any address in
#: it at will, so one person could otherwise have 2**64 buckets of every limit.
IPV6_PREFIX = 64


def _grouped(address: str) -> str:
    """``address`` as the limits count it: an IPv6 address as its /64
    (``2001:db8:1:2::/64``), anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv4Address):
        return address
    return str(ipaddress.ip_network(f"{ip}/{IPV6_PREFIX}", strict=False))
