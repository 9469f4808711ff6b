"""Quick match at your own pace: a seat at a turn-based table in one click.

A real-time quick match (:mod:`.match`) keeps people in a queue while their
page is open, because they mean to play now. Someone who plays turn-based
will be away for hours, so nobody waits in a queue: the person is seated at
once, either at an open table of the same kind that already holds others
(the one that has waited longest among those near their rating), or at a
new table of their own that waits for the others (as Board Game Arena's
turn-based "Play now" does). A turn-based table waiting for people lasts a
week (:data:`cardtable.server.live.lifecycle.TURN_BASED_WAITING_SECONDS`).

An open table *of the same kind* is public, rated, waiting, of the same game
and player count with the game's default options, the same hours per move
and the default timeout choice (a stand-in plays a move that is late): what
the person chose, and nothing they did not. It is not one where they already
sit, nor one where an account they blocked (or that blocked them) sits.
Ratings are compatible as in the real-time queue, with ranges that grow by
the hour instead of by the second, since such a table fills over hours.

Only accounts play turn-based by quick match: the game goes on over days,
and an account finds its tables again on any device (``/my/turns``). Each
account holds at most ``Limits.turn_based_per_account`` unfinished
turn-based tables (the lobby's tables count too).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from cardtable.server.accounts.accounts import Account, Accounts
from cardtable.server.accounts.friends import seating_refusal
from cardtable.server.db.schema import account_seats, tables
from cardtable.server.live.hub import Hub, ServedElsewhere, TableMoving
from cardtable.server.live.play import Play
from cardtable.server.quick.match import Rating, check_request, same_rating
from cardtable.server.tables.lobby import parse_create
from cardtable.server.tables.table import Refused, Table, new_token
from cardtable.server.wire import Worded

log = logging.getLogger(__name__)

RANGE_START = 100.0  # rating points either way a new table's people accept
RANGE_PER_HOUR = 100.0  # more points for every hour a table has waited (a day: 2,500)
CANDIDATES = 20  # open tables looked at per request, oldest first
ON_TIMEOUT = "stand-in"  # the timeout choice of a quick-match table (the lobby's default)


class PaceRefusal(Worded):
    """A turn-based seat refused, worded as ``quick.error.<key>``."""

    prefix = "quick.error"


@dataclass(frozen=True)
class PaceRequest:
    """A checked ``POST /api/quick/turn-based``."""

    game: str
    players: int
    move_hours: int


def compatible(mine: float, theirs: list[float], waited_hours: float) -> bool:
    """Whether a person rated ``mine`` may join people rated ``theirs`` at a
    table that has waited ``waited_hours``.

    >>> compatible(1500, [1550, 1450], 0.0)
    True
    >>> compatible(1500, [1750], 1.0), compatible(1500, [1750], 1.5)
    (False, True)
    """
    reach = RANGE_START + RANGE_PER_HOUR * max(0.0, waited_hours)
    return all(abs(mine - other) <= reach for other in theirs)


async def check_room(engine: AsyncEngine, account_id: str, limit: int) -> None:
    """Refuse (409) an account that already sits at ``limit`` unfinished
    turn-based tables (it may take no seat at one more)."""
    query = (
        select(func.count(func.distinct(account_seats.c.table_id)))
        .select_from(account_seats.join(tables, tables.c.id == account_seats.c.table_id))
        .where(
            account_seats.c.account_id == account_id,
            tables.c.move_hours.is_not(None),
            tables.c.status.in_(("waiting", "playing")),
        )
    )
    async with engine.connect() as conn:
        held = int((await conn.execute(query)).scalar_one())
    if held >= limit:
        raise PaceRefusal(
            f"you play {held} turn-based games, this server's limit: finish one first",
            409,
            "turnBasedLimit",
            count=held,
        )


class TurnBasedMatch:
    """Seats people at turn-based tables of the kind they ask for."""

    def __init__(
        self, hub: Hub, play: Play, accounts: Accounts, rating: Rating = same_rating
    ) -> None:
        self.hub = hub
        self.play = play
        self.accounts = accounts
        self.rating = rating
        # One seating at a time in this process: two people asking at once
        # meet at one table instead of opening two. (Across processes two
        # may open a table each; the next person joins the older one.)
        self._lock = asyncio.Lock()
        self._rng = random.Random(secrets.randbits(64))  # which free seat

    async def seat(self, request: PaceRequest, account: Account, client: str) -> dict[str, Any]:
        """Seat ``account`` (see the module); what its page is told: the
        table, the seat and its token, and whether it joined others."""
        check_request(request.game, request.players, None)
        limit = self.hub.settings.limits.turn_based_per_account
        await check_room(self.hub.storage.engine, account.id, limit)
        mine = await self.rating(account.id, request.game, request.players)
        async with self._lock:
            for table_id in await self._open_tables(request, account):
                joined = await self._join(table_id, request, account, mine, client)
                if joined is not None:
                    return joined
            return await self._open(request, account, client)

    async def _open_tables(self, request: PaceRequest, account: Account) -> list[str]:
        """The ids of open tables of the requested kind, oldest first, where
        ``account`` does not sit yet."""
        # Stored as Storage.create writes them: the same options are the same text.
        options = json.dumps(parse_create(self._body(request)).game.options_json)
        mine = select(account_seats.c.table_id).where(account_seats.c.account_id == account.id)
        query = (
            select(tables.c.id)
            .where(
                and_(
                    tables.c.status == "waiting",
                    tables.c.game == request.game,
                    tables.c.options == options,
                    tables.c.move_hours == request.move_hours,
                    tables.c.on_timeout == ON_TIMEOUT,
                    tables.c.private.is_(False),
                    tables.c.rated.is_(True),
                    tables.c.id.not_in(mine),
                )
            )
            .order_by(tables.c.created_ms, tables.c.id)
            .limit(CANDIDATES)
        )
        async with self.hub.storage.engine.connect() as conn:
            return [row.id for row in await conn.execute(query)]

    async def _join(
        self, table_id: str, request: PaceRequest, account: Account, mine: float, client: str
    ) -> dict[str, Any] | None:
        """Take a free seat at ``table_id`` if ``account`` may sit there and
        its people's ratings are near enough; ``None`` to look further. A
        table another process keeps (its people have it open there) is read
        from the database and its seat asked of that process."""
        if self.hub.owners is None and table_id not in self.hub.tables:
            return None  # alone, every live table is held: this one could not be rebuilt
        table: Table | None = None
        holder = None
        try:
            table = await self.hub.get(table_id)
            facts = table.facts
        except ServedElsewhere as there:
            stored = await self.hub.storage.load(table_id)
            if stored is None:
                return None
            facts, holder = stored.facts, there.holder
        except TableMoving:  # another process is taking it over: the next one
            return None
        if facts.status != "waiting":
            return None  # filled (or expired) since the query
        if await seating_refusal(self.accounts.engine, account.id, table_id) is not None:
            return None
        theirs = await self._ratings(table_id, request)
        waited_hours = (self.hub.settings.limits.clock() * 1000 - facts.created_ms) / 3.6e6
        if not compatible(mine, theirs, waited_hours):
            return None
        free = [s.seat for s in facts.seats if s.kind == "human" and s.token_hash is None]
        if not free:
            return None
        seat = self._rng.choice(free)
        try:
            if table is not None:
                token = await self.hub.join(table, seat, account.name, account=True)
            else:
                assert self.hub.owners is not None and holder is not None
                token = await self.hub.owners.seat_at(holder, table_id, seat, account.name)
        except Refused:  # taken since (another process): the next table
            return None
        await self.accounts.link_seats(account, [(table_id, seat)], client)
        if table is not None:  # (the owner told its table's sockets itself)
            self.play.changed(table)
        return _seated(table_id, seat, token, request.move_hours, joined=True)

    async def _ratings(self, table_id: str, request: PaceRequest) -> list[float]:
        """The ratings of the accounts already seated at ``table_id``."""
        query = select(account_seats.c.account_id).where(account_seats.c.table_id == table_id)
        async with self.hub.storage.engine.connect() as conn:
            ids = [row.account_id for row in await conn.execute(query)]
        return [await self.rating(i, request.game, request.players) for i in ids]

    async def _open(self, request: PaceRequest, account: Account, client: str) -> dict[str, Any]:
        """A new table of the requested kind, ``account`` at a seat drawn by chance."""
        new = parse_create(self._body(request))
        seat = self._rng.randrange(request.players)
        token, digest = new_token()
        new.seats[seat].name, new.seats[seat].token_hash = account.name, digest
        table = await self.hub.create(new)  # not a lobby create: no creator's waiting slot
        log.info("turn-based quick match: %s opened table %s", account.name, table.id)
        await self.accounts.link_seats(account, [(table.id, seat)], client)
        self.play.changed(table)
        return _seated(table.id, seat, token, request.move_hours, joined=False)

    @staticmethod
    def _body(request: PaceRequest) -> dict[str, Any]:
        """The lobby request of a quick-match turn-based table (checked by
        :func:`parse_create`, as any table is)."""
        return {
            "game": request.game,
            "options": {"players": request.players},
            "seats": [{"kind": "human"}] * request.players,
            "private": False,
            "rated": True,
            "move_hours": request.move_hours,
            "on_timeout": ON_TIMEOUT,
        }


def _seated(
    table_id: str, seat: int, token: str, move_hours: int, *, joined: bool
) -> dict[str, Any]:
    """What the person's page is told once seated."""
    return {
        "status": "seated",
        "table": table_id,
        "seat": seat,
        "token": token,
        "url": f"/t/{table_id}",
        "joined": joined,  # False: a new table, waiting for the others
        "move_hours": move_hours,
    }
