"""The WebSocket of a table: ``/ws/{table_id}?token=T`` (no token: a spectator).

Each connection has a queue drained by its own sender task, so a slow
browser never holds up a broadcast; one that falls too far behind is
disconnected (it reconnects and gets the current state).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from cardtable.server.accounts.accounts import Accounts
from cardtable.server.accounts.friends import muted_names
from cardtable.server.db.storage import LIVE
from cardtable.server.guard.limits import TooMany, client_address
from cardtable.server.live.hub import Hub, ServedElsewhere, TableMoving
from cardtable.server.live.play import Play
from cardtable.server.tables.messages import error
from cardtable.server.tables.table import Client, Reader
from cardtable.server.tournaments.director import Director
from cardtable.server.tournaments.rules import sealed_refusal
from cardtable.server.web.session_cookie import COOKIE
from cardtable.server.wire import BadInput

MAX_QUEUE = 256  # unsent messages before a client counts as gone
# The table moved to another server process, or this one stops: reconnect
# (the browser's socket does, and lands on whichever process serves it now).
CLOSE_RECONNECT = 1012
CLOSE_TRY_AGAIN = 1013  # the table is between two processes for a moment
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_BAD_TOKEN = 4403
CLOSE_TOO_SLOW = 4408
CLOSE_TOO_MANY = 4429
CLOSE_SEALED = 4409  # a tournament's table, its deal still played elsewhere


async def _refuse(ws: WebSocket, message: str, code: int) -> None:
    await ws.send_text(error(message))
    await ws.close(code)


async def _reader(ws: WebSocket, hub: Hub) -> Reader:
    """Who is signed in on this socket: a signed-in spectator chats under the
    account's name (a guest as "spectator"), and whoever is signed in is not
    sent the lines of the accounts they blocked."""
    cookie = ws.cookies.get(COOKIE)
    accounts: Accounts = ws.app.state.accounts
    found = await accounts.session(cookie) if cookie else None
    if found is None:
        return Reader()
    return Reader(found.name, found.id, await muted_names(hub.storage.engine, found.id))


def endpoint(hub: Hub, play: Play) -> Callable[[WebSocket], Awaitable[None]]:
    async def table_socket(ws: WebSocket) -> None:
        await ws.accept()
        table_id = ws.path_params["table_id"][:40]
        loaded = hub.tables.get(table_id)
        # A spectator sees nothing of a tournament's table while its deal is
        # played at another (the browser tries again later). A table in
        # memory says itself whether it belongs to one: no query for others.
        if not ws.query_params.get("token") and (loaded is None or loaded.facts.tournament):
            director: Director = ws.app.state.tournaments
            if await director.store.sealed(table_id):
                refusal = sealed_refusal()
                await ws.send_text(error(str(refusal), key=refusal.body()["key"]))
                await ws.close(CLOSE_SEALED)
                return
        try:
            table = await hub.get(ws.path_params["table_id"], keep=True)
        except ServedElsewhere as there:  # the owner keeps it: this socket is relayed
            assert hub.owners is not None
            address = client_address(ws.scope, hub.settings.limits)
            token = ws.query_params.get("token") or None
            reader = await _reader(ws, hub)  # the owner filters its chat as it would here
            await hub.owners.relay(ws, there.table_id, token, address, there.holder, reader)
            return
        except TableMoving:  # no error message: the browser would take it for a bad token
            await ws.close(CLOSE_TRY_AGAIN)
            return
        except BadInput as exc:
            await _refuse(ws, str(exc), CLOSE_UNKNOWN_TABLE)
            return
        token = ws.query_params.get("token")
        seat = None
        address = client_address(ws.scope, hub.settings.limits)
        if token:
            seat = table.seat_for_token(token)
            if seat is None:
                try:
                    await hub.gate.wrong_token(address)
                except TooMany as exc:
                    await _refuse(ws, str(exc), CLOSE_TOO_MANY)
                    return
                await _refuse(
                    ws, f"this token belongs to no seat of table {table.id}", CLOSE_BAD_TOKEN
                )
                return
        queue: asyncio.Queue[str | int] = asyncio.Queue()  # text to send, or a close code

        def send(text: str) -> None:
            if queue.qsize() < MAX_QUEUE:
                queue.put_nowait(text)
            else:
                queue.put_nowait(CLOSE_TOO_SLOW)  # too far behind: the sender closes the socket

        async def pump() -> None:
            while isinstance(text := await queue.get(), str):
                await ws.send_text(text)
            await ws.close(text)

        reader = await _reader(ws, hub)
        if table.status in LIVE and hub.tables.get(table.id) is not table:
            # Parked or let go while this socket was set up: the browser
            # connects again, and finds it where it is served now.
            await ws.close(CLOSE_TRY_AGAIN)
            return
        client = Client(
            seat,
            send,
            queue.put_nowait,
            address=address,
            account=reader.name if reader.name and seat is None else None,
            viewer=reader.viewer,
            muted=reader.muted,
        )
        sender = asyncio.create_task(pump())
        play.connect(table, client)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    send(error("send JSON as text frames, not binary"))
                    continue
                await play.handle(table, client, text)
        except WebSocketDisconnect:
            pass
        finally:
            play.disconnect(table, client)
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender

    return table_socket
