"""A seat taken at a table that another process keeps.

A request that names its table (a lobby's join, ``POST /api/tables/{id}/join``)
reaches the table's owner through the proxy, which routes by table id. Turn-based
Play now (:mod:`cardtable.server.quick.turn_based`) names no table: it lands on
any process and looks for an open table in the database. When the process
serving that table keeps it (its creator has the page open), the table cannot
move here; the seat is asked of its owner instead, over Redis: op ``seat``
(table, seat, the account's name, and a reply channel of this request alone),
answered ``{"token": …}`` or ``{"refused": …}``. The owner seats the person as
a join does (the seat's write is fenced by its lease) and tells the table's
sockets; the asker links the seat to the account and answers the browser.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any

import redis.asyncio as aioredis

from cardtable.server.cluster.relay import process_channel
from cardtable.server.live.hub import Hub
from cardtable.server.live.play import Play
from cardtable.server.tables.table import Refused

log = logging.getLogger(__name__)

ANSWER_SECONDS = 5.0  # an owner that does not answer by then is passed over


class RemoteSeats:
    """Both sides of op ``seat`` for this process."""

    def __init__(self, hub: Hub, play: Play, redis: aioredis.Redis) -> None:
        self.hub, self.play, self.redis = hub, play, redis
        self._work: set[asyncio.Task[None]] = set()

    async def take(self, holder: str, table_id: str, seat: int, name: str) -> str:
        """Ask ``holder`` to seat account ``name`` at ``seat`` of ``table_id``;
        the seat's token. Raises :class:`Refused` if it did not (or did not
        answer in time: the seat may be taken or not, so it is not offered)."""
        reply = f"cardtable:seat-reply:{secrets.token_hex(8)}"
        message = {"op": "seat", "table": table_id, "seat": seat, "name": name, "reply": reply}
        pubsub = self.redis.pubsub()
        try:
            await pubsub.subscribe(reply)  # before asking: the answer cannot come first
            await self.redis.publish(process_channel(holder), json.dumps(message))
            loop = asyncio.get_running_loop()
            until = loop.time() + ANSWER_SECONDS
            while (left := until - loop.time()) > 0:
                got = await pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
                if got is not None:
                    answer: dict[str, Any] = json.loads(got["data"])
                    if "token" in answer:
                        return str(answer["token"])
                    raise Refused(str(answer.get("refused", "the seat was refused")))
        finally:
            await pubsub.aclose()
        raise Refused(f"the process serving table {table_id} did not answer")

    def on_seat(self, message: dict[str, Any]) -> None:
        """An asker's op ``seat``: seated in a task of its own, so the
        process's channel goes on being read meanwhile."""
        task = asyncio.create_task(self._seat(message))
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    async def _seat(self, message: dict[str, Any]) -> None:
        table = self.hub.tables.get(str(message.get("table")))
        answer: dict[str, Any]
        if table is None:
            answer = {"refused": "the table is not served here any more"}
        else:
            try:
                seat, name = int(message["seat"]), str(message["name"])
                token = await self.hub.join(table, seat, name, account=True)
                self.play.changed(table)
                answer = {"token": token}
            except (Refused, KeyError, TypeError, ValueError) as exc:
                answer = {"refused": str(exc)}
            except Exception as exc:  # the database away: the asker passes it over
                log.exception("table %s: a seat asked by another process failed", table.id)
                answer = {"refused": type(exc).__name__}
        await self.redis.publish(str(message.get("reply")), json.dumps(answer))

    async def stop(self) -> None:
        for task in list(self._work):
            task.cancel()
        await asyncio.gather(*self._work, return_exceptions=True)
