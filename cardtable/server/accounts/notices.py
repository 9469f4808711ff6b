"""E-mail notices of turn-based play: what to tell whom, and when.

A person with an account may give an e-mail address (verified by a link
mailed at once) and choose, per kind, what they are told of:

- ``your_turn``: their turn begins at a turn-based table;
- ``deadline_soon``: an hour or less is left for their move (once per turn);
- ``finished``: a turn-based game of theirs ended;
- ``invite``: a friend invited them to a table (accounts/friends.py).

An event enqueues a notice (``ct_notices``) for each account that wants it,
unique per account, kind, table and turn: two processes that see the same
event make one row, so a deadline's notice is sent once across processes.
Every process runs :meth:`Notices.send_due` every :data:`SEND_SECONDS`: a
person's pending notices go out together in one digest, at most one an hour
(claimed by a conditional update of ``last_digest_ms``, so two processes
never both send it). A notice whose turn has passed by then (the person
moved) is dropped, not sent. A mail names games, players, time left and
links, never a card: nothing of any seat's view is read here.

Web Push (accounts/push.py) has a switch of its own per kind
(``push_your_turn``…): a notice for an account with a subscribed browser
whose push switch is on is pushed at once, not digested, by the process
whose row it is (the unique key again: one push across processes). The
switches outlive the address (a row with no address keeps them); an account
that never set them has every one on. A notice only pushed is marked sent as
it goes, so that no digest waits for it; the mails' unsubscribe link turns
the e-mail switches off and leaves the browser's as they are.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Select, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardtable.server.accounts.accounts import Account
from cardtable.server.accounts.mailer import Mail, Mailer
from cardtable.server.accounts.push import Message, Pusher, subscriptions
from cardtable.server.accounts.signin_delays import upsert
from cardtable.server.db.schema import (
    account_seats,
    accounts,
    notice_addresses,
    notices,
    push_subscriptions,
    seats,
)
from cardtable.server.db.schema import tables as game_tables
from cardtable.server.db.storage import unreachable
from cardtable.server.periodic import Periodic
from cardtable.server.tables.facts import HOUR_LEFT_MS
from cardtable.server.tables.lobby import title
from cardtable.server.tables.table import Table
from cardtable.server.wire import BadInput

log = logging.getLogger(__name__)

KINDS = ("your_turn", "deadline_soon", "finished", "invite")
# Each kind's switch for Web Push, beside its switch for e-mail (the kind's name).
PUSH = {kind: f"push_{kind}" for kind in KINDS}
SWITCHES = (*KINDS, *PUSH.values())
LANGUAGES = ("en", "de", "fr")
SEND_SECONDS = 60.0  # how often each process looks for digests due
DIGEST_MS = 3_600_000  # at most one digest an hour per person
VERIFY_MS = 7 * 24 * 3_600_000  # how long a verification link works
RESEND_MS = 60_000  # a new verification mail at most once a minute
KEEP_SENT_MS = 8 * 24 * 3_600_000  # past the longest turn (72 h): a sent notice's key is kept
CATALOGS = Path(__file__).parents[1] / "web" / "static" / "i18n" / "mail"
# An address: something@domain.tld, no spaces or angle brackets (RFC 5321's
# 254 characters at most). The verification mail proves the rest.
ADDRESS = re.compile(r"[^\s@<>,;\"]{1,64}@[^\s@<>,;\"]+\.[^\s@<>,;\".]{2,}")

_Key = tuple[str, str, int, tuple[int, ...]]  # table, kind, turn, seats: one notice


@cache
def catalog(lang: str) -> dict[str, str]:
    """The mail's words in ``lang`` (English where it has none)."""
    chosen = lang if lang in LANGUAGES else "en"
    words: dict[str, str] = json.loads((CATALOGS / f"{chosen}.json").read_text("utf-8"))
    return words


def words(lang: str, key: str, **values: object) -> str:
    return catalog(lang)[key].format(**values)


def checked_address(email: str, where: str) -> str:
    """``email`` stripped, or a 400 saying why it is no address."""
    email = email.strip()
    if len(email) > 254 or not ADDRESS.fullmatch(email):
        raise BadInput(f"{where}: {email[:80]!r} is not an e-mail address (name@example.org)")
    return email


def _key(token: str) -> str:
    """What the database keeps of a link's token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Choices:
    """What ``GET /api/me/notices`` answers."""

    available: bool  # the server sends mail (--smtp)
    email: str | None
    verified: bool
    kinds: dict[str, bool]
    push: bool = False  # some browser of the account is sent Web Push

    def to_json(self) -> dict[str, Any]:
        return {
            "available": self.available,
            "email": self.email,
            "verified": self.verified,
            "push": self.push,
            **self.kinds,
        }


async def _unsubscriber(conn: AsyncConnection, token: str) -> Any:
    """The address row (account, email, language) of an unsubscribe link's token, or None."""
    columns = (notice_addresses.c.account_id, notice_addresses.c.email, notice_addresses.c.lang)
    query = select(*columns).where(notice_addresses.c.unsubscribe_key == _key(token))
    return (await conn.execute(query)).first()


class Notices:
    """The notices of one server process; ``mailer`` None: it sends no mail
    (no ``--smtp``), and nothing is queued for mail; ``pusher`` None: no Web
    Push. ``clock`` gives seconds (the settings' clock, which tests drive)."""

    def __init__(
        self,
        engine: AsyncEngine,
        secret: bytes,
        mailer: Mailer | None,
        clock: Callable[[], float],
        public_url: str | None = None,
        pusher: Pusher | None = None,
    ) -> None:
        self.engine = engine
        self.pusher = pusher
        self.secret = secret
        self.mailer = mailer
        self.clock = clock
        self.public_url = public_url.rstrip("/") if public_url else None
        # (table, kind, turn, seats) already enqueued by this process: saves a
        # statement per change. The database's unique key is what makes a
        # notice once, across processes too.
        self._seen: set[_Key] = set()
        self._pending: set[asyncio.Task[None]] = set()
        self._sender = Periodic(
            SEND_SECONDS, self.send_due, "the notice sender", outage=unreachable
        )

    @property
    def available(self) -> bool:
        return self.mailer is not None

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def start(self) -> None:
        if self.available:
            self._sender.start()

    async def stop(self) -> None:
        await self._sender.stop()
        await self.settle()

    async def settle(self) -> None:
        """Wait until every notice seen so far is in the database."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    # --- events -------------------------------------------------------------
    def watch(self, table: Table) -> None:
        """After a change at ``table`` (and at each lobby sweep): enqueue what a
        turn-based table's people are to be told. Cheap when nothing is new."""
        facts = table.facts
        if not (self.available or self.pusher) or not facts.turn_based:
            return
        if table.status == "finished":
            people = [i for i, s in enumerate(table.seats) if s.human]
            self._enqueue(table.id, people, "finished", 0)
            return
        seat = table.state.to_move
        started = facts.turn_started_ms
        if table.status != "playing" or seat is None or started is None:
            return
        if table.controller(seat) is not None:
            return  # a bot's move, or a stand-in's
        self._enqueue(table.id, [seat], "your_turn", started)
        deadline = facts.deadline_ms
        if deadline is not None and deadline - self.now_ms() <= HOUR_LEFT_MS:
            self._enqueue(table.id, [seat], "deadline_soon", started)

    def _enqueue(self, table_id: str, seat_numbers: list[int], kind: str, turn_ms: int) -> None:
        # Whose notice it is belongs to the key: two people's turns may begin in
        # the same millisecond (a frozen test clock), and each is told.
        key = (table_id, kind, turn_ms, tuple(seat_numbers))
        if key in self._seen:
            return
        if len(self._seen) > 100_000:  # a bound on memory; the database still dedups
            self._seen.clear()
        self._seen.add(key)
        task = asyncio.create_task(self._store(table_id, seat_numbers, kind, turn_ms, key))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _store(
        self,
        table_id: str,
        seat_numbers: list[int],
        kind: str,
        turn_ms: int,
        key: _Key,
    ) -> None:
        try:
            async with self.engine.begin() as conn:
                owners = await conn.execute(
                    select(account_seats.c.account_id).where(
                        account_seats.c.table_id == table_id,
                        account_seats.c.seat.in_(seat_numbers),
                    )
                )
                account_ids = [r.account_id for r in owners]
                if not account_ids:  # a guest's seat, or one not linked to its account yet
                    self._seen.discard(key)  # (a seat taken through another process): next sweep
                    return
                fresh = await enqueue(
                    conn,
                    account_ids,
                    kind,
                    table_id,
                    turn_ms,
                    now=self.now_ms(),
                    mail=self.available,
                    push=self.pusher is not None,
                )
            if fresh:
                await self._push(fresh, kind, table_id, turn_ms)
        except Exception:
            self._seen.discard(key)  # the next change or sweep tries again
            log.exception("table %s: a %s notice could not be stored", table_id, kind)

    async def push_invite(self, account_ids: list[str], table_id: str) -> None:
        """Push a friend's invitation just stored (:func:`invited`) to the
        browsers of ``account_ids``."""
        if self.pusher is not None and account_ids:
            await self._push(account_ids, "invite", table_id, 0)

    async def _push(self, account_ids: list[str], kind: str, table_id: str, turn_ms: int) -> None:
        """Push the notice just enqueued to every browser of ``account_ids``,
        each in the language it subscribed in."""
        assert self.pusher is not None
        now = self.now_ms()
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    _pending_query().where(
                        notices.c.account_id.in_(account_ids),
                        notices.c.kind == kind,
                        notices.c.table_id == table_id,
                        notices.c.turn_ms == turn_ms,
                    )
                )
            ).all()
            sends = []
            for n in rows:
                for browser in await subscriptions(conn, [n.account_id]):
                    lang = browser.lang
                    said = await _said(conn, lang, n, n.account_id, now)
                    title = words(lang, f"push.{kind}")
                    message = Message(title, said, f"{browser.base_url}/t/{table_id}")
                    sends.append(self.pusher.send(browser, message))
        await asyncio.gather(*sends)

    # --- an account's address and choices ---------------------------------------
    async def choices(self, account: Account) -> Choices:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(notice_addresses).where(notice_addresses.c.account_id == account.id)
                )
            ).first()
        push = self.pusher is not None and await self.pusher.browsers(account.id) > 0
        if row is None:
            return Choices(self.available, None, False, dict.fromkeys(SWITCHES, True), push)
        kinds = {switch: bool(getattr(row, switch)) for switch in SWITCHES}
        return Choices(self.available, row.email, row.verified_ms is not None, kinds, push)

    async def choose(
        self,
        account: Account,
        email: str | None,
        kinds: Mapping[str, bool],
        lang: str,
        base_url: str,
    ) -> Choices:
        """Set the address (``""``: forget it; ``None``: keep it) and the
        switches in ``kinds`` (:data:`SWITCHES`: each kind's for e-mail and
        for Web Push). A new address, or the same one not yet verified, is
        sent a verification mail at once. The switches outlive the address:
        the browser's need none."""
        if email is not None and email != "" and self.mailer is None:
            raise BadInput(
                "this server sends no e-mail (it was started without --smtp); "
                "an address cannot be set",
                409,
            )
        now = self.now_ms()
        base = self.public_url or base_url.rstrip("/")
        mail: Mail | None = None
        async with self.engine.begin() as conn:
            row = (
                await conn.execute(
                    select(notice_addresses).where(notice_addresses.c.account_id == account.id)
                )
            ).first()
            if email == "":
                await conn.execute(delete(notices).where(notices.c.account_id == account.id))
                await conn.execute(
                    update(notice_addresses)
                    .where(notice_addresses.c.account_id == account.id)
                    .values(email=None, verified_ms=None, verify_key=None)
                )
            elif email is not None and (row is None or row.email != email or not row.verified_ms):
                mailed = row is not None and row.email is not None and not row.verified_ms
                if row is not None and mailed and now - row.set_ms < RESEND_MS:
                    raise BadInput(
                        "a verification mail went out less than a minute ago; "
                        "wait a minute before asking for another",
                        429,
                    )
                token = secrets.token_urlsafe(24)
                values = {
                    "email": email,
                    "set_ms": now,
                    "verified_ms": None,
                    "verify_key": _key(token),
                    "unsubscribe_key": _key(self._unsubscribe_token(account.id, now)),
                    "lang": lang,
                    "base_url": base,
                    # The switches stay as they were (all on for a first address).
                    **{k: kinds.get(k, getattr(row, k, True)) for k in SWITCHES},
                }
                if row is None:
                    values["last_digest_ms"] = 0
                    await conn.execute(
                        insert(notice_addresses).values(account_id=account.id, **values)
                    )
                else:
                    await conn.execute(
                        update(notice_addresses)
                        .where(notice_addresses.c.account_id == account.id)
                        .values(**values)
                    )
                await conn.execute(delete(notices).where(notices.c.account_id == account.id))
                mail = self._verification(account.name, email, lang, base, token, account.id, now)
            elif row is not None and kinds:
                await conn.execute(
                    update(notice_addresses)
                    .where(notice_addresses.c.account_id == account.id)
                    .values(**{k: v for k, v in kinds.items() if k in SWITCHES})
                )
            elif row is None and kinds:
                if self.pusher is None:
                    raise BadInput("request.email: give an address first; the switches are for it")
                # The switches alone, for Web Push: a row with no address.
                await conn.execute(
                    insert(notice_addresses).values(
                        account_id=account.id,
                        email=None,
                        set_ms=now,
                        unsubscribe_key=_key(self._unsubscribe_token(account.id, now)),
                        lang=lang,
                        base_url=base,
                        last_digest_ms=0,
                        **{k: kinds.get(k, True) for k in SWITCHES},
                    )
                )
        if mail is not None:
            await self._send(mail)  # at once, not digested
        return await self.choices(account)

    def _verification(
        self, name: str, email: str, lang: str, base: str, token: str, account_id: str, set_ms: int
    ) -> Mail:
        return Mail(
            to=email,
            subject=words(lang, "verify.subject"),
            text=words(lang, "verify.body", name=name, link=f"{base}/verify-email/{token}")
            + "\n\n"
            + self._footer(lang, base, account_id, set_ms),
            unsubscribe_url=self._unsubscribe_url(base, account_id, set_ms),
            language=lang,
        )

    async def _send(self, mail: Mail) -> None:
        if self.mailer is None:
            return
        try:
            await self.mailer.send(mail)
        except Exception as exc:
            log.warning("a mail could not be sent (%s: %s)", type(exc).__name__, exc)
            raise BadInput(
                "the mail server did not take the mail just now; try again later", 503
            ) from None

    async def verify(self, token: str) -> tuple[str, str] | None:
        """Verify the address whose link carries ``token``: ``(email, lang)``,
        or None for an unknown or expired link."""
        now = self.now_ms()
        async with self.engine.begin() as conn:
            row = (
                await conn.execute(
                    select(notice_addresses).where(notice_addresses.c.verify_key == _key(token))
                )
            ).first()
            if row is None or row.email is None or now - row.set_ms > VERIFY_MS:
                return None
            await conn.execute(
                update(notice_addresses)
                .where(notice_addresses.c.account_id == row.account_id)
                .values(verified_ms=now, verify_key=None)
            )
        return row.email, row.lang

    async def unsubscribing(self, token: str) -> tuple[str, str] | None:
        """``(email, lang)`` of the unsubscribe link's token, or None."""
        async with self.engine.connect() as conn:
            row = await _unsubscriber(conn, token)
        return None if row is None or row.email is None else (row.email, row.lang)

    async def unsubscribe(self, token: str) -> str | None:
        """Turn every notice of the link's account off; its language, or None."""
        async with self.engine.begin() as conn:
            row = await _unsubscriber(conn, token)
            if row is None:
                return None
            await conn.execute(
                update(notice_addresses)
                .where(notice_addresses.c.account_id == row.account_id)
                .values(**dict.fromkeys(KINDS, False))
            )
            await conn.execute(delete(notices).where(notices.c.account_id == row.account_id))
        lang: str = row.lang
        return lang

    def _unsubscribe_token(self, account_id: str, set_ms: int) -> str:
        """The unsubscribe link's token: the server's own, a new one with each address."""
        mac = hmac.new(self.secret, f"unsubscribe|{account_id}|{set_ms}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:24]).decode("ascii")

    def _unsubscribe_url(self, base: str, account_id: str, set_ms: int) -> str:
        return f"{base}/unsubscribe/{self._unsubscribe_token(account_id, set_ms)}"

    def _footer(self, lang: str, base: str, account_id: str, set_ms: int) -> str:
        return "-- \n" + words(
            lang,
            "footer",
            account=f"{base}/account",
            unsubscribe=self._unsubscribe_url(base, account_id, set_ms),
        )

    # --- digests ----------------------------------------------------------------
    async def send_due(self) -> int:
        """Send each person whose hour is up their pending notices in one
        mail; the number of mails sent."""
        await self.settle()
        if self.mailer is None:
            return 0
        now = self.now_ms()
        async with self.engine.begin() as conn:
            await conn.execute(delete(notices).where(notices.c.sent_ms < now - KEEP_SENT_MS))
            due = (
                await conn.execute(
                    select(notice_addresses.c.account_id, notice_addresses.c.last_digest_ms)
                    .where(
                        notice_addresses.c.verified_ms.is_not(None),
                        notice_addresses.c.last_digest_ms <= now - DIGEST_MS,
                        notice_addresses.c.account_id.in_(
                            select(notices.c.account_id).where(notices.c.sent_ms.is_(None))
                        ),
                    )
                    .order_by(notice_addresses.c.account_id)
                )
            ).all()
        sent = 0
        for account_id, last in due:
            sent += await self._digest(account_id, last, now)
        return sent

    async def _digest(self, account_id: str, last: int, now: int) -> int:
        # The claim: of two processes, one changes the row and sends.
        async with self.engine.begin() as conn:
            claimed = await conn.execute(
                update(notice_addresses)
                .where(
                    notice_addresses.c.account_id == account_id,
                    notice_addresses.c.last_digest_ms == last,
                )
                .values(last_digest_ms=now)
            )
        if claimed.rowcount != 1:
            return 0
        try:
            async with self.engine.connect() as conn:
                mail, ids = await self._compose(conn, account_id, now)
            if mail is not None:
                assert self.mailer is not None
                await self.mailer.send(mail)
        except Exception as exc:
            log.warning("a digest could not be sent (%s: %s)", type(exc).__name__, exc)
            await self._unclaim(account_id, last, now)  # tried again at the next run
            return 0
        async with self.engine.begin() as conn:
            await conn.execute(update(notices).where(notices.c.id.in_(ids)).values(sent_ms=now))
            if mail is None:  # nothing left worth a mail: the hour is not used up
                await self._unclaim_in(conn, account_id, last, now)
        return 0 if mail is None else 1

    async def _unclaim(self, account_id: str, last: int, now: int) -> None:
        async with self.engine.begin() as conn:
            await self._unclaim_in(conn, account_id, last, now)

    async def _unclaim_in(
        self, conn: AsyncConnection, account_id: str, last: int, now: int
    ) -> None:
        await conn.execute(
            update(notice_addresses)
            .where(
                notice_addresses.c.account_id == account_id,
                notice_addresses.c.last_digest_ms == now,
            )
            .values(last_digest_ms=last)
        )

    async def _compose(
        self, conn: AsyncConnection, account_id: str, now: int
    ) -> tuple[Mail | None, list[int]]:
        """The digest of ``account_id``'s pending notices (None: none is worth
        sending any more) and the ids of every notice it settles."""
        who = (
            await conn.execute(
                select(notice_addresses, accounts.c.name)
                .join(accounts, accounts.c.id == notice_addresses.c.account_id)
                .where(notice_addresses.c.account_id == account_id)
            )
        ).one()
        pending = (
            await conn.execute(
                _pending_query()
                .where(notices.c.account_id == account_id, notices.c.sent_ms.is_(None))
                .order_by(notices.c.created_ms, notices.c.id)
            )
        ).all()
        lang, base = who.lang, who.base_url
        news = [n for n in pending if getattr(who, n.kind) and _still_news(n, now)]
        # "An hour left" says "your turn" too: one line per turn.
        soon = {(n.table_id, n.turn_ms) for n in news if n.kind == "deadline_soon"}
        lines: list[str] = []
        for n in news:
            if n.kind == "your_turn" and (n.table_id, n.turn_ms) in soon:
                continue
            said = await _said(conn, lang, n, account_id, now)
            lines.append(said + "\n" + words(lang, "open", link=f"{base}/t/{n.table_id}"))
        ids = [n.id for n in pending]
        if not lines:
            return None, ids
        text = "\n\n".join(
            [
                words(lang, "digest.greeting", name=who.name),
                words(lang, "digest.intro"),
                *lines,
                self._footer(lang, base, account_id, who.set_ms),
            ]
        )
        mail = Mail(
            to=who.email,
            subject=words(lang, "digest.subject"),
            text=text,
            unsubscribe_url=self._unsubscribe_url(base, account_id, who.set_ms),
            language=lang,
        )
        return mail, ids


def _pending_query() -> Select[Any]:
    """Notices with what their sentences need of their tables."""
    return (
        select(notices, game_tables.c.game, game_tables.c.status)
        .add_columns(game_tables.c.turn_started_ms, game_tables.c.move_hours)
        .join(game_tables, game_tables.c.id == notices.c.table_id)
    )


async def _said(conn: AsyncConnection, lang: str, n: Any, account_id: str, now: int) -> str:
    """The sentence of notice ``n`` (a row of :func:`_pending_query`) for ``account_id``."""
    opponents = await _opponents(conn, n.table_id, account_id)
    return words(
        lang,
        n.kind,
        game=title(n.game),
        opponents=", ".join(opponents) or words(lang, "nobody"),
        inviter=n.detail or "",
        time=words(lang, "minutes", count=_minutes_left(n, now)),
    )


def _deadline(n: Any) -> int | None:
    if n.move_hours is None or n.turn_started_ms is None:
        return None
    deadline: int = n.turn_started_ms + n.move_hours * 3_600_000
    return deadline


def _minutes_left(n: Any, now: int) -> int:
    deadline = _deadline(n)
    return 0 if deadline is None else max(1, -(-(deadline - now) // 60_000))


def _still_news(n: Any, now: int) -> bool:
    """Whether a pending notice still says something true: the turn it is
    about has not passed, the invitation's table still waits."""
    if n.kind == "finished":
        return bool(n.status == "finished")
    if n.kind == "invite":
        return bool(n.status == "waiting")
    same_turn = n.status == "playing" and n.turn_started_ms == n.turn_ms
    if n.kind == "deadline_soon":
        deadline = _deadline(n)
        return same_turn and deadline is not None and deadline > now
    return bool(same_turn)


async def _opponents(conn: AsyncConnection, table_id: str, account_id: str) -> list[str]:
    """The names at the table's other seats (a seat's name, never its view)."""
    mine = select(account_seats.c.seat).where(
        account_seats.c.table_id == table_id, account_seats.c.account_id == account_id
    )
    rows = await conn.execute(
        select(seats.c.name, seats.c.bot)
        .where(seats.c.table_id == table_id, seats.c.seat.not_in(mine))
        .order_by(seats.c.seat)
    )
    return [r.name or r.bot or "?" for r in rows]


async def enqueue(
    conn: AsyncConnection,
    account_ids: Iterable[str],
    kind: str,
    table_id: str,
    turn_ms: int,
    detail: str | None = None,
    *,
    now: int,
    mail: bool = True,
    push: bool = False,
) -> list[str]:
    """Queue a ``kind`` notice about ``table_id`` for each of ``account_ids``
    whose verified address (``mail``) or subscribed browser (``push``) wants
    that kind; one that is queued already (another process, an earlier
    sweep) stays one. The accounts whose notice is new here and is to be
    pushed: this process pushes it, no other."""
    ids = list(account_ids)
    by_mail: set[str] = set()
    if mail:
        rows = await conn.execute(
            select(notice_addresses.c.account_id).where(
                notice_addresses.c.account_id.in_(ids),
                notice_addresses.c.verified_ms.is_not(None),
                notice_addresses.c.email.is_not(None),
                getattr(notice_addresses.c, kind).is_(True),
            )
        )
        by_mail = {r.account_id for r in rows}
    by_push: set[str] = set()
    if push:
        # The kind's push switch, where the account set it; on where it did not.
        switch = getattr(notice_addresses.c, PUSH[kind])
        rows = await conn.execute(
            select(push_subscriptions.c.account_id)
            .outerjoin(
                notice_addresses,
                notice_addresses.c.account_id == push_subscriptions.c.account_id,
            )
            .where(
                push_subscriptions.c.account_id.in_(ids),
                or_(notice_addresses.c.account_id.is_(None), switch.is_(True)),
            )
        )
        by_push = {r.account_id for r in rows}
    fresh: list[str] = []
    for account_id in sorted(by_mail | by_push):
        row = upsert(conn.dialect.name)(notices).values(
            account_id=account_id,
            kind=kind,
            table_id=table_id,
            turn_ms=turn_ms,
            detail=detail,
            created_ms=now,
            # Pushed only: sent as it is pushed, no digest waits for it.
            sent_ms=None if account_id in by_mail else now,
        )
        stored = await conn.execute(row.on_conflict_do_nothing())
        if stored.rowcount == 1 and account_id in by_push:
            fresh.append(account_id)
    return fresh


async def invited(
    conn: AsyncConnection,
    invitee_id: str,
    inviter: str,
    table_id: str,
    now: int,
    push: bool = False,
) -> list[str]:
    """A friend's invitation (accounts/friends.py), in its own transaction;
    with ``push``, ``[invitee_id]`` if it is to be pushed (after the commit:
    :meth:`Notices.push_invite`)."""
    return await enqueue(
        conn, [invitee_id], "invite", table_id, 0, inviter[:64], now=now, push=push
    )
