"""Web Push: notices shown by the browser itself, even with no cardtable page open.

A browser subscribes with the server's public VAPID key (``GET /api/push/key``)
at its push service (Google's, Mozilla's, Apple's) and gives the server what
it got: an endpoint URL and its own keys (``POST /api/me/push``, stored in
``ct_push_subscriptions``). To notify it, the server encrypts a small JSON
payload for that browser's key (RFC 8291, ``aes128gcm``), signs a VAPID token
for the endpoint's origin with its private key (RFC 8292), and posts both to
the endpoint; the browser's service worker (static/push-sw.js) shows it.

The VAPID key is made once and kept in the data folder beside the session
secret: the same key after a restart keeps every subscription working. A push
service that answers 404 or 410 has forgotten the subscription (the person
took the permission back): its row is deleted. What is sent is words and a
link (accounts/notices.py writes them), never a card.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPusher
from sqlalchemy import delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardtable.core.errors import CardtableError
from cardtable.server.db.schema import push_subscriptions
from cardtable.server.wire import BadInput

log = logging.getLogger(__name__)

KEY_FILE = "push-vapid-key.pem"
ENDPOINT_CHARS = 1024  # ct_push_subscriptions.endpoint; real ones are a few hundred
PER_ACCOUNT = 10  # browsers per account: the oldest goes when an 11th subscribes
AT_ONCE = 8  # pushes in flight at once, per process
TOKEN_SECONDS = 12 * 3600  # a VAPID token's life (RFC 8292: at most 24 h)
TTL_SECONDS = 24 * 3600  # how long a push service keeps a notice for a browser that is off
POST_SECONDS = 10.0  # how long a push service may take to answer
GONE = (404, 410)  # the push service forgot the subscription

#: ``post(url, headers, body)``: sends one request, answers the status code.
Post = Callable[[str, Mapping[str, str], bytes], Awaitable[int]]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64url(text: str, where: str, size: int, what: str) -> bytes:
    """``text`` decoded from base64url, or a 400 saying where and why."""
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        data = b""
    if len(data) != size:
        raise BadInput(f"{where}: not {what} ({size} bytes in base64url)")
    return data


def load_or_create_vapid(folder: Path) -> Vapid02:
    """The VAPID key in ``folder``, written there first (readable by its owner
    only) if missing, like the session secret (accounts/secret.py)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / KEY_FILE
    try:
        # O_EXCL: two servers starting at once cannot both write one.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        try:
            return Vapid02.from_pem(path.read_bytes())
        except Exception:
            raise CardtableError(
                f"{path}: not a VAPID key (a P-256 private key in PEM); delete it to make"
                " a new one (every browser must then subscribe again)"
            ) from None
    vapid = Vapid02()
    vapid.generate_keys()
    with os.fdopen(fd, "wb") as file:
        file.write(vapid.private_pem())
    return vapid


def application_server_key(vapid: Vapid02) -> str:
    """The public key as browsers take it (``applicationServerKey``): the
    uncompressed P-256 point in base64url."""
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


@dataclass(frozen=True)
class Subscription:
    """One browser's ``PushSubscription.toJSON()``, checked."""

    endpoint: str
    p256dh: str
    auth: str

    @classmethod
    def checked(cls, endpoint: str, p256dh: str, auth: str, where: str) -> Subscription:
        """The subscription, or a 400 naming the field that is wrong and why."""
        parts = urlsplit(endpoint)
        if parts.scheme != "https" or not parts.hostname or len(endpoint) > ENDPOINT_CHARS:
            raise BadInput(
                f"{where}.endpoint: {endpoint[:80]!r} is not a push service's https URL"
                f" (at most {ENDPOINT_CHARS} characters)"
            )
        point = _unb64url(p256dh, f"{where}.keys.p256dh", 65, "a P-256 public key")
        if point[0] != 4:
            raise BadInput(f"{where}.keys.p256dh: not an uncompressed P-256 point (04…)")
        _unb64url(auth, f"{where}.keys.auth", 16, "an auth secret")
        return cls(endpoint, p256dh, auth)


@dataclass(frozen=True)
class Message:
    """What the service worker shows: a title, a sentence, the page it opens."""

    title: str
    body: str
    url: str

    def payload(self) -> bytes:
        return json.dumps(
            {"title": self.title, "body": self.body, "url": self.url}, ensure_ascii=False
        ).encode("utf-8")


async def _aiohttp_post(url: str, headers: Mapping[str, str], body: bytes) -> int:
    """The real transport (aiohttp comes with pywebpush)."""
    import aiohttp

    timeout = aiohttp.ClientTimeout(total=POST_SECONDS)
    async with (
        aiohttp.ClientSession(timeout=timeout) as session,
        session.post(url, headers=dict(headers), data=body) as answer,
    ):
        return answer.status


class Pusher:
    """The Web Push side of one server process. ``subject`` is the VAPID
    ``sub`` claim (``mailto:`` the --mail-from address, or the public URL;
    None: each subscription's site); ``post`` the transport (tests give
    their own); ``clock`` gives seconds."""

    def __init__(
        self,
        engine: AsyncEngine,
        vapid: Vapid02,
        clock: Callable[[], float],
        subject: str | None = None,
        post: Post | None = None,
    ) -> None:
        self.engine = engine
        self.vapid = vapid
        # The subject is a contact for the push service's operators, whatever
        # form the site's address takes (py_vapid wants mailto: or https://host).
        vapid.conf["no-strict"] = True
        self.clock = clock
        self.subject = subject
        self.post = post or _aiohttp_post
        self.public_key = application_server_key(vapid)
        self._at_once = asyncio.Semaphore(AT_ONCE)

    # --- an account's browsers ---------------------------------------------------
    async def subscribe(
        self, account_id: str, subscription: Subscription, lang: str, base_url: str
    ) -> None:
        """Store the browser's subscription for ``account_id`` (taking it from
        any other account it was with); at most :data:`PER_ACCOUNT` each."""
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(push_subscriptions).where(
                    push_subscriptions.c.endpoint == subscription.endpoint
                )
            )
            await conn.execute(
                insert(push_subscriptions).values(
                    account_id=account_id,
                    endpoint=subscription.endpoint,
                    p256dh=subscription.p256dh,
                    auth=subscription.auth,
                    lang=lang,
                    base_url=base_url.rstrip("/"),
                    created_ms=int(self.clock() * 1000),
                )
            )
            newest = (
                select(push_subscriptions.c.id)
                .where(push_subscriptions.c.account_id == account_id)
                .order_by(push_subscriptions.c.id.desc())
                .limit(PER_ACCOUNT)
            )
            await conn.execute(
                delete(push_subscriptions).where(
                    push_subscriptions.c.account_id == account_id,
                    push_subscriptions.c.id.not_in(newest.scalar_subquery()),
                )
            )

    async def unsubscribe(self, account_id: str, endpoint: str) -> bool:
        """Forget the account's browser at ``endpoint``; whether there was one."""
        async with self.engine.begin() as conn:
            gone = await conn.execute(
                delete(push_subscriptions).where(
                    push_subscriptions.c.account_id == account_id,
                    push_subscriptions.c.endpoint == endpoint,
                )
            )
        return bool(gone.rowcount)

    async def browsers(self, account_id: str) -> int:
        """How many browsers the account receives pushes in."""
        async with self.engine.connect() as conn:
            count = await conn.scalar(
                select(func.count()).where(push_subscriptions.c.account_id == account_id)
            )
        return int(count or 0)

    # --- sending -------------------------------------------------------------------
    async def send(self, row: Any, message: Message) -> None:
        """Encrypt ``message`` for the subscription ``row`` and post it; a
        subscription its push service no longer knows is deleted. A failure
        is logged, never raised: a notice is worth no more than one try."""
        try:
            async with self._at_once:
                status = await self.post(*self.request(row, message))
        except Exception as exc:
            log.warning("a push could not be sent (%s: %s)", type(exc).__name__, exc)
            return
        if status in GONE:
            async with self.engine.begin() as conn:
                await conn.execute(
                    delete(push_subscriptions).where(push_subscriptions.c.id == row.id)
                )
        elif status >= 300:
            log.warning("a push service answered %d to a push", status)

    def request(self, row: Any, message: Message) -> tuple[str, dict[str, str], bytes]:
        """The signed request that delivers ``message`` to the browser of ``row``."""
        info = {"endpoint": row.endpoint, "keys": {"p256dh": row.p256dh, "auth": row.auth}}
        body: bytes = WebPusher(info).encode(message.payload(), "aes128gcm")["body"]
        parts = urlsplit(row.endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int(self.clock()) + TOKEN_SECONDS,
            "sub": self.subject or row.base_url,
        }
        headers = {
            **self.vapid.sign(claims),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(TTL_SECONDS),
            "Urgency": "normal",
        }
        return row.endpoint, headers, body


async def subscriptions(conn: AsyncConnection, account_ids: list[str]) -> list[Any]:
    """The browsers of ``account_ids`` (id, account, endpoint, keys, language, site)."""
    if not account_ids:
        return []
    rows = await conn.execute(
        select(push_subscriptions)
        .where(push_subscriptions.c.account_id.in_(account_ids))
        .order_by(push_subscriptions.c.id)
    )
    return list(rows)


async def forget(conn: AsyncConnection, account_id: str) -> None:
    """Every browser of the account forgotten (it is being deleted: accounts.py)."""
    await conn.execute(
        delete(push_subscriptions).where(push_subscriptions.c.account_id == account_id)
    )
