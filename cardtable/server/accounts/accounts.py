"""Accounts: sign-up, sign-in by a server-side session, and the seats an account holds.

Accounts are optional: a guest plays as before, by a seat's token. A person
who signs up gets an account (a display name, unique case-insensitively, and
an argon2id password hash) and a session: a random token in an HttpOnly
cookie, stored only as its HMAC under the server's secret
(:mod:`cardtable.server.accounts.secret`). Failed sign-ins make the name, the address
and the two together wait longer and longer, each past a budget of its own
(:mod:`cardtable.server.accounts.signin_delays`); the owner on a device signed in, or
from an address that signed the account in before, is not held up by the
name's or the address's failures.

Accounts write straight to the database in their own short transactions,
beside the game writer of :class:`cardtable.server.db.storage.Storage`: they are
rare, and a sign-in must not wait behind a batch of moves.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardtable.server.accounts import signin_delays
from cardtable.server.accounts.passwords import Passwords
from cardtable.server.clock import now_ms
from cardtable.server.db.schema import (
    account_seats,
    accounts,
    blocks,
    chat,
    chat_reports,
    follows,
    invites,
    notice_addresses,
    notices,
    push_subscriptions,
    puzzle_attempts,
    puzzle_players,
    rating_changes,
    ratings,
    seats,
    sessions,
    tables,
    tournament_chat,
    tournament_entrants,
    tournament_invites,
    tournaments,
)
from cardtable.server.db.schema import login_limits as limits
from cardtable.server.names import mixed_script, skeleton
from cardtable.server.tables.chat import reporter_key
from cardtable.server.wire import BadInput

# What a deleted account's seats are called from then on (their games stay).
DELETED_NAME = "deleted player"


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat an account holds, with its table's public facts."""

    table_id: str
    seat: int
    game: str
    status: str
    created_ms: int


class TooSoon(BadInput):
    """A sign-in refused because of earlier failures; ``retry_after`` in whole seconds."""

    def __init__(self, wait_ms: int) -> None:
        self.retry_after = max(1, -(-wait_ms // 1000))
        super().__init__(f"too many failed sign-ins; try again in {self.retry_after} seconds", 429)


class _MustWait(Exception):
    """A budget of the attempt must wait: nothing is counted."""


def name_key(name: str) -> str:
    """The form two names are compared in: "Ann" and "ANN" are one name."""
    return name.casefold()


class Accounts:
    """The accounts of one server: ``clock`` gives milliseconds (tests inject one)."""

    # A session lasts as long as its cookie (session_cookie.COOKIE_DAYS), then signs in no one.
    SESSION_MS = 60 * 24 * 3600 * 1000

    def __init__(
        self,
        engine: AsyncEngine,
        secret: bytes,
        passwords: Passwords,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.engine = engine
        self.secret = secret
        self.passwords = passwords
        self.clock = clock
        # Both players of a finished game may ask for its rematch at once: their
        # copies of the seats' owners take turns (each reads, then inserts).
        self._copying = asyncio.Lock()
        # A burst of sign-ins for one name or address all wait for the same
        # row: in SQLite's busy handler past its timeout ("database is
        # locked"), in PostgreSQL each on a row lock holding a connection of
        # the pool until the pool runs dry. So this process's sign-in counts
        # take turns here, each a few statements long; the count stays atomic
        # in the database for the other processes.
        self._counting = asyncio.Lock()

    # argon2 takes tens of milliseconds on purpose: in a thread, so that moves
    # at other tables are not held up meanwhile.
    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.passwords.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        return await asyncio.to_thread(self.passwords.verify, stored, password)

    def _session_id(self, token: str) -> str:
        return hmac.new(self.secret, token.encode("utf-8", "replace"), hashlib.sha256).hexdigest()

    async def _new_session(self, conn: AsyncConnection, account_id: str) -> str:
        token = secrets.token_urlsafe(32)
        await conn.execute(
            insert(sessions).values(
                id=self._session_id(token), account_id=account_id, created_ms=self.clock()
            )
        )
        return token

    # --- signing up and in ------------------------------------------------
    async def sign_up(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """A new account and its first session's token; ``address`` becomes known to it."""
        key, look = name_key(name), skeleton(name)
        if look == skeleton(DELETED_NAME):
            raise BadInput(f"the name {name!r} is reserved; choose another", 409)
        if mixed_script(name):
            raise BadInput(
                f"the name {name!r} mixes Latin, Greek or Cyrillic letters; write it in one", 409
            )
        account = Account(secrets.token_urlsafe(12), name)
        hashed = await self._hash(password)
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(accounts).values(
                        id=account.id,
                        name=name,
                        name_key=key,
                        name_skeleton=look,
                        password_hash=hashed,
                        created_ms=self.clock(),
                    )
                )
                token = await self._new_session(conn, account.id)
                await self._remember_address(conn, account.id, address)
        except IntegrityError:
            raise BadInput(await self._taken(name, look), 409) from None
        return account, token

    async def _taken(self, name: str, look: str) -> str:
        """Why ``name`` cannot sign up: it is taken, or it looks like a name that is."""
        async with self.engine.connect() as conn:
            other = (
                await conn.execute(select(accounts.c.name).where(accounts.c.name_skeleton == look))
            ).scalar()
        if other is None or name_key(other) == name_key(name):
            return f"the name {name!r} is taken; choose another"
        return f"the name {name!r} looks like {other!r}, which is taken; choose another"

    async def sign_in(
        self, name: str, password: str, address: str, session: str | None = None
    ) -> tuple[Account, str]:
        """The account and a new session's token, if the password is right and
        no budget of :mod:`cardtable.server.accounts.signin_delays` must wait.

        ``session`` is the token of the session this browser holds, if any:
        its own account's owner is not held up by anybody's failures, and
        neither (but for their own name and address) is one signing in from
        an address known to the account."""
        key = name_key(name)
        async with self.engine.connect() as conn:
            found = (
                await conn.execute(
                    select(accounts.c.id, accounts.c.name, accounts.c.password_hash).where(
                        accounts.c.name_key == key
                    )
                )
            ).first()
        counted = await self._counted_budgets(found.id if found else None, key, address, session)
        now = self.clock()
        await self._count_attempt(counted, now)
        # An unknown name is checked too (against a dummy hash): same time.
        if not await self._verify(found.password_hash if found else None, password):
            raise BadInput("the name or the password is wrong", 401)
        assert found is not None  # the dummy hash matches no password
        async with self._counting, self.engine.begin() as conn:
            await self._succeeded(conn, found.id, counted, address)
            return Account(found.id, found.name), await self._new_session(conn, found.id)

    async def _counted_budgets(
        self, account_id: str | None, key: str, address: str, session: str | None
    ) -> dict[str, signin_delays.Budget]:
        """The keys this attempt counts under, and their budgets."""
        if account_id is not None and session is not None:
            holder = await self.session(session)
            if holder is not None and holder.id == account_id:
                return {}  # its owner, on a device already signed in
        counted = {_limit_key(signin_delays.PAIR, f"{key}|{address}"): signin_delays.PAIR}
        if account_id is None or not await self._known(account_id, address):
            counted[_limit_key(signin_delays.ADDRESS, address)] = signin_delays.ADDRESS
            counted[_limit_key(signin_delays.NAME, key)] = signin_delays.NAME
        return counted

    async def _known(self, account_id: str, address: str) -> bool:
        """Whether ``address`` signed the account in lately."""
        query = select(limits.c.last_ms).where(limits.c.key == _known_key(account_id, address))
        async with self.engine.connect() as conn:
            last = (await conn.execute(query)).scalar()
        return last is not None and self.clock() - last < signin_delays.KNOWN_MS

    async def _count_attempt(self, counted: dict[str, signin_delays.Budget], now: int) -> None:
        """Count the attempt under every key, or under none and raise :class:`TooSoon`."""
        try:
            async with self._counting, self.engine.begin() as conn:
                for key, budget in counted.items():
                    statement = signin_delays.count_attempt(conn.dialect.name, key, budget, now)
                    if (await conn.execute(statement)).first() is None:
                        raise _MustWait  # rolls back the keys counted before this one
        except _MustWait:
            async with self.engine.connect() as conn:
                rows = await conn.execute(select(limits).where(limits.c.key.in_(list(counted))))
                wait = max(
                    (
                        signin_delays.wait_ms(r.failures, r.last_ms, now, counted[r.key])
                        for r in rows
                    ),
                    default=0,
                )
            raise TooSoon(wait) from None

    async def _succeeded(
        self,
        conn: AsyncConnection,
        account_id: str,
        counted: dict[str, signin_delays.Budget],
        address: str,
    ) -> None:
        """After a right password: the name and address's count starts again,
        the attempt is taken off the others', and the address becomes known."""
        for key, budget in counted.items():
            if budget is signin_delays.PAIR:
                await conn.execute(delete(limits).where(limits.c.key == key))
            else:
                await conn.execute(
                    update(limits)
                    .where(limits.c.key == key, limits.c.failures > 0)
                    .values(failures=limits.c.failures - 1)
                )
        await self._remember_address(conn, account_id, address)

    async def _remember_address(self, conn: AsyncConnection, account_id: str, address: str) -> None:
        now = self.clock()
        known = signin_delays.upsert(conn.dialect.name)(limits).values(
            key=_known_key(account_id, address), failures=0, last_ms=now
        )
        await conn.execute(
            known.on_conflict_do_update(index_elements=[limits.c.key], set_={"last_ms": now})
        )

    async def session(self, token: str) -> Account | None:
        """The account signed in by ``token``, if its session still exists."""
        query = (
            select(accounts.c.id, accounts.c.name)
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(
                sessions.c.id == self._session_id(token),
                sessions.c.created_ms > self.clock() - self.SESSION_MS,
            )
        )
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).first()
        return Account(found.id, found.name) if found else None

    async def sign_out(self, token: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.id == self._session_id(token)))

    async def sign_out_everywhere(self, account: Account) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.account_id == account.id))

    async def _check_password(self, conn: AsyncConnection, account: Account, password: str) -> None:
        stored = (
            await conn.execute(select(accounts.c.password_hash).where(accounts.c.id == account.id))
        ).scalar()
        if not await self._verify(stored, password):
            raise BadInput("the password is wrong", 403)

    async def change_password(self, account: Account, old: str, new: str) -> str:
        """Set a new password; every other session ends. The new session's token."""
        async with self.engine.begin() as conn:
            await self._check_password(conn, account, old)
            await conn.execute(
                update(accounts)
                .where(accounts.c.id == account.id)
                .values(password_hash=await self._hash(new))
            )
            await conn.execute(delete(sessions).where(sessions.c.account_id == account.id))
            return await self._new_session(conn, account.id)

    async def reset_password(self, name: str, password: str) -> None:
        """The operator's reset (``cardtable admin reset-password``): every session ends."""
        async with self.engine.begin() as conn:
            found = (
                await conn.execute(
                    select(accounts.c.id).where(accounts.c.name_key == name_key(name))
                )
            ).scalar()
            if found is None:
                raise BadInput(f"there is no account named {name!r}", 404)
            await conn.execute(
                update(accounts)
                .where(accounts.c.id == found)
                .values(password_hash=await self._hash(password))
            )
            await conn.execute(delete(sessions).where(sessions.c.account_id == found))
            await conn.execute(
                delete(limits).where(limits.c.key == _limit_key(signin_delays.NAME, name_key(name)))
            )

    async def delete(self, account: Account, password: str) -> list[tuple[str, int]]:
        """Delete the account, its ratings, follows, blocks, invitations and e-mail address: its
        games stay, its seats (and what they said in the chat, and what it said
        as a spectator) are renamed :data:`DELETED_NAME`. The ``(table, seat)`` pairs it held."""
        async with self.engine.begin() as conn:
            await self._check_password(conn, account, password)
            held = [
                (r.table_id, r.seat)
                for r in await conn.execute(
                    select(account_seats.c.table_id, account_seats.c.seat).where(
                        account_seats.c.account_id == account.id
                    )
                )
            ]
            for table_id, seat in held:
                await conn.execute(
                    update(seats)
                    .where(seats.c.table_id == table_id, seats.c.seat == seat)
                    .values(name=DELETED_NAME)
                )
                await conn.execute(
                    update(chat)
                    .where(chat.c.table_id == table_id, chat.c.seat == seat)
                    .values(name=DELETED_NAME)
                )
            # A spectator's line carries the account's name only (names are unique).
            await conn.execute(
                update(chat)
                .where(chat.c.seat.is_(None), chat.c.name == account.name)
                .values(name=DELETED_NAME)
            )
            # Its reports as a spectator are withdrawn (a seat's name no account).
            await conn.execute(
                delete(chat_reports).where(
                    chat_reports.c.reporter == reporter_key(None, account.name, "")
                )
            )
            await conn.execute(
                delete(account_seats).where(account_seats.c.account_id == account.id)
            )
            # Its ratings go too; the other players' changes at its tables stay.
            await conn.execute(delete(ratings).where(ratings.c.account_id == account.id))
            await conn.execute(
                delete(rating_changes).where(rating_changes.c.account_id == account.id)
            )
            await conn.execute(delete(sessions).where(sessions.c.account_id == account.id))
            await conn.execute(
                delete(limits).where(
                    limits.c.key.startswith(_known_key(account.id, ""), autoescape=True)
                )
            )
            for puzzle_table in (puzzle_attempts, puzzle_players):
                await conn.execute(
                    delete(puzzle_table).where(puzzle_table.c.account_id == account.id)
                )
            # Its follows, blocks and invitations, either way (accounts/friends.py).
            for pairs, one, other in (
                (follows, follows.c.follower_id, follows.c.followed_id),
                (blocks, blocks.c.blocker_id, blocks.c.blocked_id),
                (invites, invites.c.inviter_id, invites.c.invitee_id),
            ):
                await conn.execute(delete(pairs).where((one == account.id) | (other == account.id)))
            # Its e-mail address and the notices waiting for it (accounts/notices.py).
            await conn.execute(delete(notices).where(notices.c.account_id == account.id))
            await conn.execute(
                delete(notice_addresses).where(notice_addresses.c.account_id == account.id)
            )
            # Its tournaments: what it made, entered and said stays, under DELETED_NAME.
            await conn.execute(
                update(tournaments)
                .where(tournaments.c.creator_id == account.id)
                .values(creator_id=None, creator_name=DELETED_NAME)
            )
            for said in (tournament_entrants, tournament_chat):
                await conn.execute(
                    update(said).where(said.c.account_id == account.id).values(name=DELETED_NAME)
                )
            await conn.execute(
                delete(tournament_invites).where(tournament_invites.c.account_id == account.id)
            )
            # Its browsers' Web Push subscriptions (accounts/push.py).
            await conn.execute(
                delete(push_subscriptions).where(push_subscriptions.c.account_id == account.id)
            )
            await conn.execute(delete(accounts).where(accounts.c.id == account.id))
        return held

    # --- seats ------------------------------------------------------------
    async def link_seats(
        self, account: Account, held: Sequence[tuple[str, int]], address: str
    ) -> list[tuple[str, int]]:
        """Make the seats ``held`` the account's (the caller proved each is
        theirs; ``address`` is the client's) and give them its name; a seat
        another account holds is left as it is. The seats linked."""
        linked: list[tuple[str, int]] = []
        async with self.engine.begin() as conn:
            for table_id, seat in held:
                owner = (
                    await conn.execute(
                        select(account_seats.c.account_id).where(
                            account_seats.c.table_id == table_id, account_seats.c.seat == seat
                        )
                    )
                ).scalar()
                if owner is not None:
                    continue
                await conn.execute(
                    insert(account_seats).values(
                        table_id=table_id, seat=seat, account_id=account.id, address=address
                    )
                )
                await conn.execute(
                    update(seats)
                    .where(seats.c.table_id == table_id, seats.c.seat == seat)
                    .values(name=account.name)
                )
                linked.append((table_id, seat))
        return linked

    async def copy_owners(self, old_id: str, new_id: str) -> None:
        """A rematch's seats belong to whoever held them at the old table
        (asked again, it changes nothing)."""
        async with self._copying:
            try:
                await self._copy_owners(old_id, new_id)
            except IntegrityError:
                # Another process copied them at the same moment: its rows
                # are there now, and reading again finds those seats taken.
                await self._copy_owners(old_id, new_id)

    async def _copy_owners(self, old_id: str, new_id: str) -> None:
        async with self.engine.begin() as conn:
            old = await conn.execute(
                select(
                    account_seats.c.seat, account_seats.c.account_id, account_seats.c.address
                ).where(account_seats.c.table_id == old_id)
            )
            new = await conn.execute(
                select(account_seats.c.seat).where(account_seats.c.table_id == new_id)
            )
            taken = {r.seat for r in new}
            rows = [
                {
                    "table_id": new_id,
                    "seat": r.seat,
                    "account_id": r.account_id,
                    "address": r.address,
                }
                for r in old
                if r.seat not in taken
            ]
            if rows:
                await conn.execute(insert(account_seats), rows)

    async def find(self, name: str) -> tuple[Account, int] | None:
        """The account named ``name`` (any case) and when it was made."""
        query = select(accounts.c.id, accounts.c.name, accounts.c.created_ms).where(
            accounts.c.name_key == name_key(name)
        )
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).first()
        return (Account(found.id, found.name), found.created_ms) if found else None

    async def held_seats(self, account: Account, finished: bool, limit: int) -> list[HeldSeat]:
        """The account's seats at finished tables, or at waiting and playing
        ones; newest first, at most ``limit``."""
        done = tables.c.status == "finished"
        query = (
            select(
                account_seats.c.table_id,
                account_seats.c.seat,
                tables.c.game,
                tables.c.status,
                tables.c.created_ms,
            )
            .join(tables, tables.c.id == account_seats.c.table_id)
            .where(account_seats.c.account_id == account.id, done if finished else ~done)
            .order_by(tables.c.created_ms.desc(), tables.c.id)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [HeldSeat(*r) for r in await conn.execute(query)]

    async def played_per_game(self, account: Account) -> dict[str, int]:
        """How many finished games the account played, per game."""
        query = (
            select(tables.c.game, func.count())
            .join(account_seats, tables.c.id == account_seats.c.table_id)
            .where(account_seats.c.account_id == account.id, tables.c.status == "finished")
            .group_by(tables.c.game)
        )
        async with self.engine.connect() as conn:
            return {game: count for game, count in await conn.execute(query)}


def _limit_key(budget: signin_delays.Budget, what: str) -> str:
    return f"{budget.prefix}:{what}"[:128]


def _known_key(account_id: str, address: str) -> str:
    """The row saying that ``address`` signed the account in (its ``last_ms``: when)."""
    return f"known:{account_id}|{address}"[:128]
