"""Friends: following, blocking and inviting, between accounts only.

An account *follows* another to find it in its friends list (who is online
and at which table); it *blocks* one to be left alone: the blocked account's
chat lines never reach the blocker's sockets, neither may sit at a table
where the other one sits, and quick match never seats them together (the
block counts both ways for seating). Blocking someone ends either's follow of
the other and the invitations between them. An account *invites* another to
a table it sits at while that table waits for players; the invited person
sees it on their next page load until they join, dismiss it, or the table
stops waiting.

Guests do none of this: a guest has no lasting name to be followed or blocked
by. Each account follows, and blocks, at most ``Limits.friends_per_account``
people. A refusal is a :class:`Refusal`: a sentence for programs and a
catalog key (``friends.error.*``) with its facts for the browser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardtable.server.accounts.accounts import Account, Accounts
from cardtable.server.accounts.notices import Notices, invited
from cardtable.server.db.schema import account_seats, accounts, blocks, follows, invites, tables
from cardtable.server.wire import Worded

#: The statuses of a table a person may be seen at, or be invited to.
LIVE = ("waiting", "playing")


class Refusal(Worded):
    """A friends request refused, worded as ``friends.error.<key>``."""

    prefix = "friends.error"


@dataclass(frozen=True, slots=True)
class Seen:
    """A table a followed account holds a seat at, waiting or playing."""

    account_id: str
    table_id: str
    seat: int
    game: str
    status: str


@dataclass(frozen=True, slots=True)
class Invite:
    """An invitation waiting for its invited person."""

    inviter: str  # the inviter's name
    table_id: str
    game: str
    created_ms: int


class Friends:
    """The follows, blocks and invitations of one server's accounts."""

    def __init__(
        self, accounts: Accounts, limit: Callable[[], int], notices: Notices | None = None
    ) -> None:
        self.accounts = accounts
        self.limit = limit  # Limits.friends_per_account, read when it is needed
        self.notices = notices  # an invitation is pushed to the invitee's browsers

    @property
    def engine(self) -> AsyncEngine:
        return self.accounts.engine

    async def other(self, account: Account, name: str) -> Account:
        """The account named ``name`` (any case), which is not ``account``."""
        found = await self.accounts.find(name)
        if found is None:
            raise Refusal(f"there is no player named {name[:40]!r}", 404, "unknown", name=name[:40])
        if found[0].id == account.id:
            raise Refusal("that is your own name: choose another player", 400, "yourself")
        return found[0]

    # --- following -----------------------------------------------------------
    async def follow(self, account: Account, name: str) -> Account:
        other = await self.other(account, name)
        async with self.engine.begin() as conn:
            if await _blocked(conn, account.id, other.id):
                raise Refusal(
                    f"you blocked {other.name}: unblock them to follow them",
                    409,
                    "followBlocked",
                    name=other.name,
                )
            await self._add(conn, follows, "follower_id", "followed_id", account, other, "follow")
        return other

    async def unfollow(self, account: Account, name: str) -> Account:
        other = await self.other(account, name)
        async with self.engine.begin() as conn:
            await conn.execute(_pair(follows, "follower_id", "followed_id", account.id, other.id))
        return other

    # --- blocking --------------------------------------------------------------
    async def block(self, account: Account, name: str) -> Account:
        """Block ``name``: either's follow of the other and the invitations
        between them go too."""
        other = await self.other(account, name)
        async with self.engine.begin() as conn:
            await self._add(conn, blocks, "blocker_id", "blocked_id", account, other, "block")
            for a, b in ((account.id, other.id), (other.id, account.id)):
                await conn.execute(_pair(follows, "follower_id", "followed_id", a, b))
                await conn.execute(_pair(invites, "inviter_id", "invitee_id", a, b))
        return other

    async def unblock(self, account: Account, name: str) -> Account:
        other = await self.other(account, name)
        async with self.engine.begin() as conn:
            await conn.execute(_pair(blocks, "blocker_id", "blocked_id", account.id, other.id))
        return other

    async def _add(
        self,
        conn: AsyncConnection,
        table: Any,
        mine: str,
        theirs: str,
        account: Account,
        other: Account,
        what: str,
    ) -> None:
        """Add the row (``account``, ``other``) once, within the limit."""
        held = select(table.c[theirs]).where(table.c[mine] == account.id)
        rows = {r[0] for r in await conn.execute(held)}
        if other.id in rows:
            return  # asked again: nothing changes
        limit = self.limit()
        if len(rows) >= limit:
            raise Refusal(
                f"you {what} {len(rows)} people, this server's limit: {what} fewer first",
                409,
                "tooManyFollows" if what == "follow" else "tooManyBlocks",
                limit=limit,
            )
        try:
            async with conn.begin_nested():
                await conn.execute(
                    insert(table).values(
                        {mine: account.id, theirs: other.id, "created_ms": self.accounts.clock()}
                    )
                )
        except IntegrityError:
            pass  # the same request at the same moment: its row is there

    # --- lists -----------------------------------------------------------------
    async def following(self, account: Account) -> list[Account]:
        """The accounts ``account`` follows, by name."""
        query = (
            select(accounts.c.id, accounts.c.name)
            .join(follows, follows.c.followed_id == accounts.c.id)
            .where(follows.c.follower_id == account.id)
            .order_by(accounts.c.name_key)
        )
        async with self.engine.connect() as conn:
            return [Account(r.id, r.name) for r in await conn.execute(query)]

    async def blocked(self, account: Account) -> list[Account]:
        """The accounts ``account`` blocked, by name."""
        query = (
            select(accounts.c.id, accounts.c.name)
            .join(blocks, blocks.c.blocked_id == accounts.c.id)
            .where(blocks.c.blocker_id == account.id)
            .order_by(accounts.c.name_key)
        )
        async with self.engine.connect() as conn:
            return [Account(r.id, r.name) for r in await conn.execute(query)]

    async def seated(self, account_ids: list[str]) -> list[Seen]:
        """The waiting and playing tables where these accounts hold seats (the
        database's, so a table of any process), newest first."""
        if not account_ids:
            return []
        query = (
            select(
                account_seats.c.account_id,
                account_seats.c.table_id,
                account_seats.c.seat,
                tables.c.game,
                tables.c.status,
            )
            .join(tables, tables.c.id == account_seats.c.table_id)
            .where(account_seats.c.account_id.in_(account_ids), tables.c.status.in_(LIVE))
            .order_by(tables.c.created_ms.desc(), tables.c.id)
        )
        async with self.engine.connect() as conn:
            return [Seen(*r) for r in await conn.execute(query)]

    # --- invitations -----------------------------------------------------------
    async def invite(self, account: Account, name: str, table_id: str) -> Account:
        """Invite ``name`` to ``table_id``, which ``account`` sits at and which waits."""
        other = await self.other(account, name)
        pushed: list[str] = []
        async with self.engine.begin() as conn:
            mine = await conn.execute(
                select(tables.c.status)
                .join(account_seats, account_seats.c.table_id == tables.c.id)
                .where(tables.c.id == table_id, account_seats.c.account_id == account.id)
            )
            if mine.scalar() != "waiting":
                raise Refusal(
                    f"you have no seat at a table {table_id[:40]!r} that waits for players",
                    409,
                    "notYourTable",
                )
            if await _blocked(conn, account.id, other.id) or await _blocked(
                conn, other.id, account.id
            ):
                raise Refusal(
                    f"{other.name} cannot be invited by you", 409, "cannotInvite", name=other.name
                )
            there = await conn.execute(
                select(func.count()).where(
                    account_seats.c.table_id == table_id, account_seats.c.account_id == other.id
                )
            )
            if there.scalar():
                raise Refusal(
                    f"{other.name} sits at this table already", 409, "seated", name=other.name
                )
            found = await conn.execute(
                select(func.count()).where(
                    invites.c.invitee_id == other.id,
                    invites.c.inviter_id == account.id,
                    invites.c.table_id == table_id,
                )
            )
            if not found.scalar():
                await conn.execute(
                    insert(invites).values(
                        invitee_id=other.id,
                        inviter_id=account.id,
                        table_id=table_id,
                        created_ms=self.accounts.clock(),
                    )
                )
                push = self.notices is not None and self.notices.pusher is not None
                now = self.accounts.clock()
                pushed = await invited(conn, other.id, account.name, table_id, now, push)
        if pushed and self.notices is not None:  # once it is stored
            await self.notices.push_invite(pushed, table_id)
        return other

    async def invites_for(self, account: Account) -> list[Invite]:
        """The invitations to ``account`` whose tables still wait and where it
        holds no seat yet, newest first (the others are deleted as read)."""
        async with self.engine.begin() as conn:
            seated = select(account_seats.c.table_id).where(
                account_seats.c.account_id == account.id
            )
            waiting = select(tables.c.id).where(tables.c.status == "waiting")
            await conn.execute(
                delete(invites).where(
                    invites.c.invitee_id == account.id,
                    or_(invites.c.table_id.in_(seated), invites.c.table_id.not_in(waiting)),
                )
            )
            rows = await conn.execute(
                select(accounts.c.name, invites.c.table_id, tables.c.game, invites.c.created_ms)
                .join(accounts, accounts.c.id == invites.c.inviter_id)
                .join(tables, tables.c.id == invites.c.table_id)
                .where(invites.c.invitee_id == account.id)
                .order_by(invites.c.created_ms.desc(), invites.c.table_id)
            )
            return [Invite(*r) for r in rows]

    async def dismiss(self, account: Account, table_id: str) -> None:
        """Forget the invitations to ``account`` to ``table_id``."""
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(invites).where(
                    invites.c.invitee_id == account.id, invites.c.table_id == table_id
                )
            )


def _pair(table: Any, first: str, second: str, a: str, b: str) -> Any:
    """The DELETE of ``table``'s row (``a``, ``b``)."""
    return delete(table).where(table.c[first] == a, table.c[second] == b)


async def _blocked(conn: AsyncConnection, blocker: str, blocked: str) -> bool:
    found = await conn.execute(
        select(func.count()).where(blocks.c.blocker_id == blocker, blocks.c.blocked_id == blocked)
    )
    return bool(found.scalar())


# --- what the rest of the server asks ------------------------------------------
async def avoided(engine: AsyncEngine, account_id: str) -> frozenset[str]:
    """The accounts ``account_id`` blocked or is blocked by: never seated with it."""
    query = select(blocks.c.blocker_id, blocks.c.blocked_id).where(
        or_(blocks.c.blocker_id == account_id, blocks.c.blocked_id == account_id)
    )
    async with engine.connect() as conn:
        rows = list(await conn.execute(query))
    return frozenset(b if a == account_id else a for a, b in rows)


async def muted_names(engine: AsyncEngine, account_id: str) -> frozenset[str]:
    """The names of the accounts ``account_id`` blocked: their chat lines (said
    under those names, seated or watching) are not sent to its sockets."""
    query = (
        select(accounts.c.name)
        .join(blocks, blocks.c.blocked_id == accounts.c.id)
        .where(blocks.c.blocker_id == account_id)
    )
    async with engine.connect() as conn:
        return frozenset(r[0] for r in await conn.execute(query))


async def seating_refusal(engine: AsyncEngine, account_id: str, table_id: str) -> Refusal | None:
    """Why ``account_id`` may not sit at ``table_id``: a block, either way,
    between it and an account seated there; ``None`` when nothing stands between."""
    seated = select(account_seats.c.account_id).where(account_seats.c.table_id == table_id)
    query = (
        select(blocks.c.blocker_id, accounts.c.name)
        .join(accounts, accounts.c.id == blocks.c.blocked_id)
        .where(
            or_(
                and_(blocks.c.blocker_id == account_id, blocks.c.blocked_id.in_(seated)),
                and_(blocks.c.blocked_id == account_id, blocks.c.blocker_id.in_(seated)),
            )
        )
        .order_by(accounts.c.name_key)
    )
    async with engine.connect() as conn:
        rows = list(await conn.execute(query))
    mine = [name for blocker, name in rows if blocker == account_id]
    if mine:
        return Refusal(
            f"you blocked {mine[0]}, who sits at this table: unblock them to sit here",
            403,
            "youBlocked",
            name=mine[0],
        )
    if rows:  # who blocked whom stays theirs to know
        return Refusal(
            "you cannot sit at this table: a player there does not play with you",
            403,
            "blockedYou",
        )
    return None
