"""The HTTP routes of friends: following, blocking, inviting, and the friends page.

``/friends`` is the browser shell (``static/friends.js`` draws it). The lists
and writes are an account's only (a guest gets 401; ``GET /api/invites``
answers a guest an empty list, so any page can show it). Every write is a
JSON POST (the same-origin guard of :mod:`cardtable.server.guard.origin`)
counted like a chat line (:meth:`Gate.may_chat`: per address, and per
account under its own key). What "online" means is docs/server.md's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from msgspec import Meta
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardtable.server.accounts.accounts import Account, Accounts
from cardtable.server.accounts.friends import Friends, Refusal
from cardtable.server.accounts.notices import Notices
from cardtable.server.guard.limits import TooMany, client_address
from cardtable.server.live.hub import Hub
from cardtable.server.requests import Closed
from cardtable.server.tables.lobby import title
from cardtable.server.web.session_cookie import need_account, signed_in
from cardtable.server.wire import convert, display_name, read_json

MAX_WAITING = 20  # an account's waiting tables offered to invite to


class Someone(Closed):
    """``POST /api/friends/follow`` (and unfollow, block, unblock): a player's name."""

    name: Annotated[str, Meta(max_length=200)]


class Invitation(Closed):
    """``POST /api/invites``: whom, to which table of yours."""

    name: Annotated[str, Meta(max_length=200)]
    table: Annotated[str, Meta(max_length=64)]


class Dismissal(Closed):
    """``POST /api/invites/dismiss``: the table whose invitations you set aside."""

    table: Annotated[str, Meta(max_length=64)]


def routes(
    hub: Hub, accounts: Accounts, static: Path, notices: Notices | None = None
) -> list[BaseRoute]:
    friends = Friends(accounts, lambda: hub.settings.limits.friends_per_account, notices)

    async def writer(request: Request) -> Account:
        """The signed-in account, its write counted (refused past the rate)."""
        account = await need_account(accounts, request)
        client = client_address(request.scope, hub.settings.limits)
        try:
            await hub.gate.may_chat(client, f"{client} friends {account.id}")
        except TooMany as exc:  # the chat's own words speak of a table
            raise TooMany(
                "too many follows, blocks and invitations in the last minute, this server's limit",
                exc.retry_after,
            ) from None
        return account

    async def named(request: Request) -> str:
        body = convert(await read_json(request), Someone, "request")
        return display_name(body.name, "request.name")

    def refused(exc: Refusal) -> Response:
        return JSONResponse(exc.body(), exc.status)

    def mute(account: Account, name: str, muted: bool) -> None:
        # This process's open sockets of the account hear the change at once;
        # another process's, when they connect again.
        for table in hub.tables.values():
            for client in table.clients:
                if client.viewer == account.id:
                    client.muted = client.muted | {name} if muted else client.muted - {name}

    def changer(verb: str) -> Any:
        async def change(request: Request) -> Response:
            account = await writer(request)
            try:
                other = await getattr(friends, verb)(account, await named(request))
            except Refusal as exc:
                return refused(exc)
            if verb in ("block", "unblock"):
                mute(account, other.name, verb == "block")
            return JSONResponse({"name": other.name})

        return change

    async def listing(request: Request) -> Response:
        account = await need_account(accounts, request)
        following = await friends.following(account)
        where: dict[str, list[dict[str, Any]]] = {a.id: [] for a in following}
        for seen in await friends.seated(list(where)):
            table = hub.tables.get(seen.table_id)
            if table is None and hub.owners is None:
                continue  # alone, a live table not in memory could not be rebuilt
            # At a table of this process: online while a socket is open at the
            # seat. At another process's: its sockets are not seen from here.
            here = table is None or table.seats[seen.seat].connections > 0
            if here:
                where[seen.account_id].append(_place(seen.table_id, seen.game, seen.status, False))
        ids = set(where)
        for table in hub.tables.values():
            watchers = {c.viewer for c in table.clients if c.seat is None and c.viewer in ids}
            for viewer in watchers:
                if viewer is not None and table.status in ("waiting", "playing"):
                    where[viewer].append(_place(table.id, table.facts.game, table.status, True))
        mine = [
            {"id": held.table_id, "title": title(held.game), "url": f"/t/{held.table_id}"}
            for held in await accounts.held_seats(account, finished=False, limit=MAX_WAITING)
            if held.status == "waiting"
        ]
        return JSONResponse(
            {
                "following": [
                    {"name": a.name, "online": bool(where[a.id]), "tables": where[a.id]}
                    for a in following
                ],
                "blocked": [{"name": a.name} for a in await friends.blocked(account)],
                "my_tables": mine,
                "limit": hub.settings.limits.friends_per_account,
            }
        )

    async def invite(request: Request) -> Response:
        account = await writer(request)
        body = convert(await read_json(request), Invitation, "request")
        try:
            other = await friends.invite(
                account, display_name(body.name, "request.name"), body.table
            )
        except Refusal as exc:
            return refused(exc)
        return JSONResponse({"name": other.name, "table": body.table}, 201)

    async def invitations(request: Request) -> Response:
        account = await signed_in(accounts, request)
        found = [] if account is None else await friends.invites_for(account)
        return JSONResponse(
            {
                "invites": [
                    {
                        "from": i.inviter,
                        "table": i.table_id,
                        "game": i.game,
                        "title": title(i.game),
                        "url": f"/t/{i.table_id}",
                        "created_ms": i.created_ms,
                    }
                    for i in found
                ]
            }
        )

    async def dismiss(request: Request) -> Response:
        account = await writer(request)
        body = convert(await read_json(request), Dismissal, "request")
        await friends.dismiss(account, body.table)
        return JSONResponse({"table": body.table})

    async def shell(request: Request) -> Response:
        return FileResponse(static / "index.html", media_type="text/html")

    f = "/api/friends"
    return [
        Route("/friends", shell),
        Route(f, listing),
        *(Route(f"{f}/{verb}", changer(verb), methods=["POST"]) for verb in VERBS),
        Route("/api/invites", invitations, methods=["GET"]),
        Route("/api/invites", invite, methods=["POST"]),
        Route("/api/invites/dismiss", dismiss, methods=["POST"]),
    ]


VERBS = ("follow", "unfollow", "block", "unblock")


def _place(table_id: str, game: str, status: str, watching: bool) -> dict[str, Any]:
    """A table a friend is at: its link watches it, or takes a free seat while it waits."""
    return {
        "id": table_id,
        "game": game,
        "title": title(game),
        "status": status,
        "watching": watching,
        "url": f"/t/{table_id}",
    }
