"""Sockets whose table another process serves, relayed over Redis.

The proxy sends a table's sockets to one process, and a socket that lands
elsewhere normally brings the table with it (a hand-over,
:mod:`cardtable.server.cluster.cluster`). When the table's owner has sockets of its
own at that table, it keeps the table, and the socket is **relayed**
instead: the process it landed on (the relay) forwards each text frame from
the browser to the owner, and the owner sends that socket's frames — built,
as for any socket, from ``view(seat)`` of the seat its token names — to a
Redis channel of that socket alone, which the relay forwards to the browser.
The relay never holds the table's state nor any frame but its own socket's.

Messages between processes are JSON on each process's channel
(``cardtable:to:<process>``): ``open`` (a relayed socket: its link id,
table, token and address), ``text``, ``alive`` (every few seconds, so the
owner drops the links of a relay that died) and ``close``; the owner answers
on ``cardtable:link:<link>`` with ``{"t": text}`` or ``{"close": code}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardtable.server.db.leases import Leases
from cardtable.server.guard.limits import TooMany
from cardtable.server.live.hub import Hub
from cardtable.server.live.play import Play
from cardtable.server.tables.messages import error
from cardtable.server.tables.table import Client, Reader, Table

log = logging.getLogger(__name__)

ALIVE_SECONDS = 2.0  # how often a relay says its links live (and checks the owner)
LINK_TIMEOUT = 3 * ALIVE_SECONDS  # an owner drops a link not heard of for this long
RECONNECT = 1012
BAD_TOKEN = 4403
TOO_MANY = 4429


def process_channel(process: str) -> str:
    """The Redis channel on which ``process`` takes messages from the others."""
    return f"cardtable:to:{process}"


def link_channel(link: str) -> str:
    return f"cardtable:link:{link}"


@dataclass(eq=False)
class _Link:
    """A relayed socket as its table's owner sees it."""

    link: str
    table: Table
    client: Client
    seen: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # its frames, one at a time


class Relays:
    """Both ends of relayed sockets for this process."""

    def __init__(
        self, hub: Hub, play: Play, redis: aioredis.Redis, name: str, leases: Leases
    ) -> None:
        self.hub, self.play, self.redis, self.name, self.leases = hub, play, redis, name, leases
        self.links: dict[str, _Link] = {}  # owner side: relayed sockets of tables served here
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()  # (channel, payload)
        self._tasks: list[asyncio.Task[None]] = []
        self._work: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._publish(), name="relay-publisher"),
            asyncio.create_task(self._reap(), name="relay-reaper"),
        ]

    async def stop(self) -> None:
        """Send the relayed sockets of this process's tables to reconnect
        (their tables are about to be released), then stop."""
        for link in list(self.links):
            with contextlib.suppress(RedisError, OSError):
                await self.redis.publish(link_channel(link), json.dumps({"close": RECONNECT}))
        for task in [*self._tasks, *self._work]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._work, return_exceptions=True)

    async def send(self, process: str, message: dict[str, Any]) -> None:
        await self.redis.publish(process_channel(process), json.dumps(message))

    # --- the owner's side ------------------------------------------------------
    async def on_message(self, message: dict[str, Any]) -> None:
        """A relay's ``open``, ``text``, ``alive`` or ``close`` (an ``open`` is
        awaited, its token counted, before the link's next message is read)."""
        op, link = message.get("op"), str(message.get("link"))
        if op == "open":
            await self._open(link, message)
        elif op == "text" and (known := self.links.get(link)) is not None:
            known.seen = asyncio.get_running_loop().time()
            self._spawn(self._text(known, str(message.get("text"))))
        elif op == "alive" and (known := self.links.get(link)) is not None:
            known.seen = asyncio.get_running_loop().time()
        elif op == "close":
            self._drop(link)

    async def _open(self, link: str, message: dict[str, Any]) -> None:
        table = self.hub.tables.get(str(message.get("table")))
        if table is None:  # not here (any more): the browser reconnects and finds it
            self._frame(link, {"close": RECONNECT})
            return
        token, address = message.get("token"), str(message.get("address"))
        seat = None
        if token:
            seat = table.seat_for_token(str(token))
            if seat is None:
                try:
                    await self.hub.gate.wrong_token(address)
                except TooMany as exc:
                    self._frame(link, {"t": error(str(exc))})
                    self._frame(link, {"close": TOO_MANY})
                    return
                self._frame(
                    link, {"t": error(f"this token belongs to no seat of table {table.id}")}
                )
                self._frame(link, {"close": BAD_TOKEN})
                return

        def send(text: str) -> None:
            self._frame(link, {"t": text})

        def close(code: int) -> None:
            self._frame(link, {"close": code})
            asyncio.get_running_loop().call_soon(self._drop, link)

        account, viewer = message.get("account"), message.get("viewer")
        client = Client(
            seat,
            send,
            close,
            address=address,
            account=str(account) if account and seat is None else None,
            viewer=str(viewer) if viewer else None,
            muted=frozenset(map(str, message.get("muted") or ())),
        )
        self.links[link] = _Link(link, table, client, asyncio.get_running_loop().time())
        self.play.connect(table, client)

    async def _text(self, known: _Link, text: str) -> None:
        async with known.lock:
            if self.links.get(known.link) is known:  # not closed while it waited
                await self.play.handle(known.table, known.client, text)

    def _drop(self, link: str) -> None:
        known = self.links.pop(link, None)
        if known is not None:
            self.play.disconnect(known.table, known.client)

    def _frame(self, link: str, frame: dict[str, Any]) -> None:
        self._out.put_nowait((link_channel(link), json.dumps(frame)))

    async def _publish(self) -> None:
        # One task publishes every frame: each link's frames stay in order.
        while True:
            channel, payload = await self._out.get()
            try:
                await self.redis.publish(channel, payload)
            except (RedisError, OSError) as exc:  # its relay times out and reconnects
                log.warning("Redis: cannot send a relayed frame: %s", exc)

    async def _reap(self) -> None:
        while True:
            await asyncio.sleep(ALIVE_SECONDS)
            now = asyncio.get_running_loop().time()
            for link, known in list(self.links.items()):
                if now - known.seen > LINK_TIMEOUT:
                    self._drop(link)  # its relay died or lost Redis

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    # --- the relay's side --------------------------------------------------------
    async def relay(
        self,
        ws: WebSocket,
        table_id: str,
        token: str | None,
        address: str,
        holder: str,
        reader: Reader,
    ) -> None:
        """Serve ``ws`` (accepted) through ``holder``, which serves its table."""
        link = secrets.token_urlsafe(12)
        pubsub = self.redis.pubsub()
        tasks: list[asyncio.Task[None]] = []
        try:
            await pubsub.subscribe(link_channel(link))
            opening = {
                "table": table_id,
                "token": token,
                "address": address,
                "account": reader.name,
                "viewer": reader.viewer,
                "muted": sorted(reader.muted),
            }
            await self.send(holder, {"op": "open", "link": link, **opening})
            tasks = [
                asyncio.create_task(self._downstream(ws, pubsub)),
                asyncio.create_task(self._upstream(ws, holder, link)),
                asyncio.create_task(self._watch(ws, table_id, holder, link)),
            ]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except (RedisError, OSError) as exc:
            log.warning("Redis: relaying a socket of table %s failed: %s", table_id, exc)
            with contextlib.suppress(Exception):
                await ws.close(RECONNECT)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            with contextlib.suppress(Exception):
                await self.send(holder, {"op": "close", "link": link})
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def _downstream(self, ws: WebSocket, pubsub: Any) -> None:
        """The owner's frames for this socket, to the browser."""
        try:
            async for message in pubsub.listen():
                if message["type"] != "message":
                    continue
                frame = json.loads(message["data"])
                if "t" in frame:
                    await ws.send_text(frame["t"])
                else:
                    await ws.close(int(frame["close"]))
                    return
        except (RedisError, OSError):
            await ws.close(RECONNECT)

    async def _upstream(self, ws: WebSocket, holder: str, link: str) -> None:
        """The browser's frames, to the owner, in order."""
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if text is None:
                    await ws.send_text(error("send JSON as text frames, not binary"))
                    continue
                await self.send(holder, {"op": "text", "link": link, "text": text})

    async def _watch(self, ws: WebSocket, table_id: str, holder: str, link: str) -> None:
        """Keep the link alive at the owner; end it when the table moves on."""
        while True:
            await asyncio.sleep(ALIVE_SECONDS)
            if await self.leases.holder(table_id) != holder:
                await ws.close(RECONNECT)  # the owner died or let go: find the table anew
                return
            await self.send(holder, {"op": "alive", "link": link})
