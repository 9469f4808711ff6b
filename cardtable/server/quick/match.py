"""Quick match: "Play now" seats people together as they arrive.

One queue per (game, number of players). A person joins it with a name (or
their account), how long they will wait for people and the bot level that
fills the empty seats after that wait (or ``None``: people only, they keep
waiting). Whenever the queue changes or someone asks how they stand, it is
matched (:meth:`QuickMatch.match`):

- the person waiting longest is seated with the people nearest their rating
  as soon as there are enough of them; two people are *compatible* while
  their ratings differ by at most the wider of their two ranges, each range
  :data:`RANGE_START` points and :data:`RANGE_GROWTH` more every second that
  person has waited (so a far-apart pair meets after a while);
- two accounts where either blocked the other (accounts/friends.py) are
  never compatible, whatever their ratings or waits;
- once a person's own wait has run out and they allowed bots, they are seated
  with whoever else is compatible now and allows bots too, and the empty
  seats get bots of the level the first of them chose.

A table is made as the lobby makes one (:func:`cardtable.server.tables.lobby.parse_create`,
then :meth:`cardtable.server.live.hub.Hub.create`): public, the game's default
options, every person's seat already taken under their name with a fresh
token, so no stranger can take it in between. Each person fetches their own
seat and token with their secret ticket; the queue answers hold no cards and
no other person's token.

Nothing is left behind: a cancelled entry goes at once, one nobody asked
about for :data:`STALE_SECONDS` (its page was closed) at the next match, a
seat's answer :data:`SEATED_KEEP_SECONDS` after it was made. A person is in
at most one queue (an account's new entry replaces its old one; a browser
cancels its own before joining again), and one address holds at most
``Limits.quick_per_client`` entries.

The entries live in a store (:mod:`cardtable.server.quick.store`): this
process's memory, or with several processes Redis
(:mod:`cardtable.server.quick.redis_store`), where any process matches any queue.
A group is seated only once its entries are *taken* (:meth:`QueueStore.take`,
all or none), so two processes matching at once seat each person once.

Ratings come from an injected lookup (:data:`Rating`); without one everybody
rates the same. All times are the settings' clock
(:attr:`cardtable.server.guard.limits.Limits.clock`), so tests move it by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from cardtable.bots import LEVELS, level_for
from cardtable.core.registry import game_names, manifest
from cardtable.server.accounts.accounts import Account, Accounts
from cardtable.server.accounts.friends import avoided
from cardtable.server.guard.limits import TooMany
from cardtable.server.live.hub import Hub
from cardtable.server.live.play import Play
from cardtable.server.quick.store import Entry, MemoryQueue, QueueStore, Seated
from cardtable.server.tables.lobby import parse_create
from cardtable.server.tables.table import new_token
from cardtable.server.wire import BadInput

log = logging.getLogger(__name__)

#: A rating lookup: (account id or ``None`` for a guest, game, players) -> rating.
Rating = Callable[[str | None, str, int], Awaitable[float]]

RANGE_START = 100.0  # rating points either way a new arrival accepts
RANGE_GROWTH = 10.0  # more points for every second waited (after 60 s: 700)
STALE_SECONDS = 15.0  # an entry nobody asked about for this long is dropped (page closed)
SEATED_KEEP_SECONDS = 60.0  # a seat's answer waits this long for its person to fetch it
MAX_ENTRIES = 2_000  # people waiting on the whole server at once (a match is quadratic in a queue)
MATCH_EVERY = 1.0  # seconds: with nobody come or gone, matched again at most this often
BOT_DELAY_MS = 700  # the bots' pacing, as the lobby's one-click play has it
TICKET = re.compile(r"[A-Za-z0-9_-]{1,64}")


async def same_rating(account_id: str | None, game: str, players: int) -> float:
    """The lookup without ratings: everybody rates the same."""
    return 0.0


def reach(entry: Entry, now: float) -> float:
    """The rating points either way ``entry`` accepts at ``now``."""
    return RANGE_START + RANGE_GROWTH * max(0.0, now - entry.joined)


def compatible(a: Entry, b: Entry, now: float) -> bool:
    """Whether ``a`` and ``b`` may sit together now (see the module): never
    when either blocked the other."""
    if blocked(a, b) or blocked(b, a):
        return False
    return abs(a.rating - b.rating) <= max(reach(a, now), reach(b, now))


def blocked(a: Entry, b: Entry) -> bool:
    """Whether ``b``'s account is one ``a`` must not sit with (a block, either way)."""
    return b.account is not None and b.account.id in a.avoid


def next_group(waiting: list[Entry], now: float) -> tuple[list[Entry], str | None] | None:
    """The next people of one queue to seat and the bot level for the empty
    seats (``None``: the table is full of people), or ``None`` when nobody
    can be seated yet. ``waiting``: one queue's entries, oldest first."""
    for anchor in waiting:
        nearest = sorted(
            (e for e in waiting if e is not anchor), key=lambda e: abs(e.rating - anchor.rating)
        )
        group = _gather(anchor, nearest, now)
        if len(group) == anchor.players:
            return group, None
        if anchor.bots is not None and now - anchor.joined >= anchor.wait:
            return _gather(anchor, [e for e in nearest if e.bots is not None], now), anchor.bots
    return None


def _gather(anchor: Entry, candidates: Iterable[Entry], now: float) -> list[Entry]:
    """``anchor`` and, nearest first, each candidate compatible with everyone taken so far."""
    group = [anchor]
    for other in candidates:
        if len(group) == anchor.players:
            break
        if all(compatible(other, g, now) for g in group):
            group.append(other)
    return group


@dataclass(frozen=True)
class PlayNow:
    """What a person asked for with ``POST /api/quick`` (its shape checked)."""

    game: str
    players: int
    name: str
    wait: int
    bots: str | None


def check_request(game: str, players: int, bots: str | None) -> None:
    """Refuse a game, player count or bot level the registry does not offer."""
    if game not in game_names():
        raise BadInput(f"request.game must be one of {', '.join(game_names())}")
    offered = manifest(game).players
    if players not in offered:
        counts = ", ".join(str(n) for n in offered)
        raise BadInput(f"request.players must be one of {counts} for {game}")
    levels = [n for n in LEVELS if level_for(n, game) is not None]
    if bots is not None and bots not in levels:
        names = ", ".join(levels)
        raise BadInput(f"request.bots must be one of {names}, or null to wait for people only")


class NoTicket(BadInput):
    """An unknown ticket: HTTP 404."""

    def __init__(self, ticket: str) -> None:
        super().__init__(
            f"there is no quick-match ticket {ticket[:16]!r}: it was cancelled, seated over"
            f" {SEATED_KEEP_SECONDS:g} s ago, or its page was closed",
            404,
        )


class QuickMatch:
    """Every quick-match queue, matched by this process (and, with a shared
    store, by every other one at the same time)."""

    def __init__(
        self,
        hub: Hub,
        play: Play,
        accounts: Accounts,
        rating: Rating = same_rating,
        store: QueueStore | None = None,
    ) -> None:
        self.hub = hub
        self.play = play
        self.accounts = accounts
        self.rating = rating
        self.store = MemoryQueue() if store is None else store
        self._lock = asyncio.Lock()  # one match at a time in this process
        self._rng = random.Random(secrets.randbits(64))  # who sits where
        self._matched: int | None = None  # the store's version at the last match
        self._matched_at = -math.inf  # clock time of the last match

    def now(self) -> float:
        return self.hub.settings.limits.clock()

    async def join(self, request: PlayNow, account: Account | None, client: str) -> Entry:
        """Put a person in the queue (refused past the limits) and match it."""
        check_request(request.game, request.players, request.bots)
        rating = await self.rating(account.id if account else None, request.game, request.players)
        avoid = await avoided(self.accounts.engine, account.id) if account else frozenset()
        await self.prune()
        now = self.now()
        entry = Entry(
            ticket=secrets.token_urlsafe(24),
            game=request.game,
            players=request.players,
            name=account.name if account else request.name,
            account=account,
            client=client,
            rating=rating,
            joined=now,
            wait=request.wait,
            bots=request.bots,
            seen=now,
            avoid=avoid,
        )
        limit = self.hub.settings.limits.quick_per_client
        refused = await self.store.add(entry, limit, MAX_ENTRIES)
        if refused is not None and refused.waiting is not None:
            raise TooMany(
                f"your address has {refused.waiting} people waiting for a quick match, this"
                " server's limit: cancel one first",
                STALE_SECONDS,
            )
        if refused is not None:
            raise BadInput(
                f"{MAX_ENTRIES} people wait for a quick match, the limit; try later", 503
            )
        await self.match()
        return await self._found(entry.ticket)

    async def poll(self, ticket: str, wait: float = 0.0, shown: int | None = None) -> Entry:
        """The entry after a match, waiting up to ``wait`` real seconds for a
        seat (a long poll, woken when the entry is seated or dropped here or by
        another process; matched again every second, so a wait that runs out
        meanwhile is seen, and a wake-up lost with Redis costs a second). It
        also answers, within a second, when the number waiting in the entry's
        queue changes (from ``shown``, the count the page shows, if it says),
        so the page's count is never older than that."""
        if not TICKET.fullmatch(ticket) or await self.store.seen(ticket, self.now(), 1) is None:
            raise NoTicket(ticket)
        try:
            with self.store.wakers.watch(ticket) as woken:
                await self.match()
                loop = asyncio.get_running_loop()
                until = loop.time() + wait
                version: int | None = None  # the store's version when the count was read
                count = shown  # the count the page shows (else the one when the poll began)
                while True:
                    woken.clear()  # before reading: a change while it is read still wakes
                    entry = await self.store.seen(ticket, self.now())
                    left = until - loop.time()
                    if entry is None or entry.seated is not None or left <= 0:
                        break
                    if (now_version := await self.store.version()) != version:
                        version = now_version  # someone came or went: is the count another?
                        now_count = (await self.store.counts()).get(entry.queue, 0)
                        if count is not None and now_count != count:
                            break
                        count = now_count
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(woken.wait(), min(left, MATCH_EVERY))
                    await self.match()
        finally:
            entry = await self.store.seen(ticket, self.now(), -1)
        if entry is None:
            raise NoTicket(ticket)
        return entry

    async def cancel(self, ticket: str) -> None:
        if not TICKET.fullmatch(ticket) or not await self.store.drop(ticket):
            raise NoTicket(ticket)

    async def counts(self) -> dict[tuple[str, int], int]:
        """People waiting (free to be seated) per (game, players)."""
        await self.prune()
        return await self.store.counts()

    async def answer(self, entry: Entry) -> dict[str, Any]:
        """What ``entry``'s own person is told: their seat once seated, else
        how long they waited and how many wait with them (nobody else's token)."""
        base: dict[str, Any] = {
            "ticket": entry.ticket,
            "game": entry.game,
            "players": entry.players,
            "wait_seconds": entry.wait,
            "bots": entry.bots,
        }
        if entry.seated is not None:
            s = entry.seated
            return {**base, "status": "seated", "table": s.table, "seat": s.seat,
                    "token": s.token, "url": f"/t/{s.table}"}  # fmt: skip
        return {
            **base,
            "status": "waiting",
            "waited_seconds": int(self.now() - entry.joined),
            "waiting": (await self.counts()).get(entry.queue, 0),
        }

    async def prune(self) -> None:
        """Drop the entries of closed pages and seat answers kept long enough."""
        await self.store.prune(self.now(), STALE_SECONDS, SEATED_KEEP_SECONDS)

    async def _found(self, ticket: str) -> Entry:
        entry = await self.store.seen(ticket, self.now())
        if entry is None:
            raise NoTicket(ticket)
        return entry

    async def match(self) -> None:
        """Seat every group that can be seated now (see the module). Every
        long poll asks each second; the queues are walked again only when
        someone came or went, or ranges and waits may have grown since."""
        async with self._lock:
            await self.prune()
            now = self.now()
            version = await self.store.version()
            if version == self._matched and now - self._matched_at < MATCH_EVERY:
                return
            self._matched, self._matched_at = version, now
            queues: dict[tuple[str, int], list[Entry]] = {}
            for e in await self.store.waiting():
                queues.setdefault(e.queue, []).append(e)
            for waiting in queues.values():
                while (found := next_group(waiting, self.now())) is not None:
                    group, bots = found
                    take = await self.store.take([e.ticket for e in group], self.now())
                    if take is None:
                        break  # another process seated one of them: the next match looks again
                    if await self._seat(group, bots, take) == "full":
                        return  # the server holds its most tables: everybody keeps waiting
                    # Seated, or their table refused (they wait on): the queue goes on
                    # without them, so one refused table does not hold up the others.
                    waiting = [e for e in waiting if e not in group]

    async def _seat(self, group: list[Entry], bots: str | None, take: str) -> str:
        """Make the table of ``group``, taken by ``take`` (bots of level
        ``bots`` in the other seats), and store each person's seat:
        ``"seated"``; ``"full"`` (the server holds its most tables) or
        ``"refused"`` (this table cannot be made) put them back to wait."""
        first = group[0]
        places = list(range(first.players))
        self._rng.shuffle(places)  # who sits first is chance, as at a real table
        people = dict(zip(places, group, strict=False))
        seats = [
            {"kind": "human"} if i in people else {"kind": "bot", "bot": bots}
            for i in range(first.players)
        ]
        body = {
            "game": first.game,
            "options": {"players": first.players},
            "seats": seats,
            "private": False,
            # People who meet by quick match play for their rating, if there is
            # one to play for: a table is rated only between two accounts at
            # least (tables/outcomes.py), so guests meet at a friendly table.
            "rated": sum(entry.account is not None for entry in group) >= 2,
            "bot_delay_ms": BOT_DELAY_MS,
        }
        try:
            new = parse_create(body)
            tokens = {}
            for i, entry in people.items():
                token, digest = new_token()
                new.seats[i].name, new.seats[i].token_hash = entry.name, digest
                tokens[i] = token
            table = await self.hub.create(new)
        except BadInput as exc:  # the server holds its most tables; a level's extra is missing
            log.warning("quick match: no table for %d people: %s", len(group), exc)
            await self.store.put_back(take, [e.ticket for e in group])
            return "full" if exc.status == 503 else "refused"
        for i, entry in people.items():
            if entry.account is not None:
                await self.accounts.link_seats(entry.account, [(table.id, i)], entry.client)
        self.play.changed(table)
        now = self.now()
        answers = {e.ticket: Seated(table.id, i, tokens[i], now) for i, e in people.items()}
        stored = await self.store.seat(take, answers)
        if len(stored) < len(answers):  # cancelled meanwhile, or this process stalled
            log.warning("quick match: table %s made, %d seats unclaimed", table.id,
                        len(answers) - len(stored))  # fmt: skip
        return "seated"
