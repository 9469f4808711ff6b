"""The HTTP routes of accounts: sign up, in and out, password, delete, claim, My games, profiles.

The session is the cookie of :mod:`cardtable.server.web.session_cookie`. Pages
``/account``, ``/me`` and ``/players/{name}`` are the browser shell, drawn
by ``static/account.js``, ``mygames.js`` and ``profile.js``.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardtable.server.accounts.accounts import DELETED_NAME, Accounts, TooSoon
from cardtable.server.accounts.passwords import new_password
from cardtable.server.db.ratings import Ratings
from cardtable.server.guard.limits import client_address
from cardtable.server.live.hub import Hub
from cardtable.server.requests import Claim, Confirm, Credentials, NewPassword
from cardtable.server.web.history import my_games, profile
from cardtable.server.web.session_cookie import (
    COOKIE,
    need_account,
    signed_in,
    signed_out,
    with_session,
)
from cardtable.server.wire import BadInput, convert, display_name, read_json


def routes(hub: Hub, accounts: Accounts, ratings: Ratings, static: Path) -> list[BaseRoute]:
    def rename(account_name: str, held: list[tuple[str, int]]) -> None:
        # Tables in memory show the new name at once; the database has it already.
        for table_id, seat in held:
            table = hub.tables.get(table_id)
            if table is not None and seat < len(table.seats):
                table.seats[seat].facts.name = account_name

    async def me(request: Request) -> Response:
        account = await signed_in(accounts, request)
        return JSONResponse({"account": None if account is None else {"name": account.name}})

    async def sign_up(request: Request) -> Response:
        body = convert(await read_json(request), Credentials, "request")
        name = display_name(body.name, "request.name")
        password = new_password(body.password, "request.password")
        client = client_address(request.scope, hub.settings.limits)
        await hub.gate.may_sign_up(client)  # before the argon2 hash, 64 MiB of memory
        account, token = await accounts.sign_up(name, password, client)
        return with_session({"account": {"name": account.name}}, token, 201)

    async def sign_in(request: Request) -> Response:
        body = convert(await read_json(request), Credentials, "request")
        address = client_address(request.scope, hub.settings.limits)
        session = request.cookies.get(COOKIE)
        try:
            account, token = await accounts.sign_in(
                body.name.strip(), body.password, address, session
            )
        except TooSoon as exc:
            return JSONResponse(
                {"error": str(exc)}, 429, headers={"Retry-After": str(exc.retry_after)}
            )
        return with_session({"account": {"name": account.name}}, token)

    async def sign_out(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        if token:
            await accounts.sign_out(token)
        return signed_out({"account": None})

    async def sign_out_everywhere(request: Request) -> Response:
        await accounts.sign_out_everywhere(await need_account(accounts, request))
        return signed_out({"account": None})

    async def change_password(request: Request) -> Response:
        account = await need_account(accounts, request)
        body = convert(await read_json(request), NewPassword, "request")
        token = await accounts.change_password(
            account, body.old, new_password(body.new, "request.new")
        )
        return with_session({"account": {"name": account.name}}, token)

    async def delete_account(request: Request) -> Response:
        account = await need_account(accounts, request)
        body = convert(await read_json(request), Confirm, "request")
        held = await accounts.delete(account, body.password)
        rename(DELETED_NAME, held)
        for table in hub.tables.values():  # the chat kept in memory, as the database has it
            seats = {seat for table_id, seat in held if table_id == table.id}
            table.rename_in_chat(account.name, seats, DELETED_NAME)
        return signed_out({"account": None})

    async def claim(request: Request) -> Response:
        """Make the guest seats this browser holds (by their tokens) the account's."""
        account = await need_account(accounts, request)
        body = convert(await read_json(request), Claim, "request")
        # Seat tokens are secrets: every wrong one counts as on a socket, and
        # one past the limit refuses the claim (nothing is claimed).
        client = client_address(request.scope, hub.settings.limits)
        proven = []
        for guest in body.seats:
            try:
                table = await hub.get(guest.table)
            except BadInput:
                continue  # a table gone from this server: nothing to claim
            seat = table.seat_for_token(guest.token)
            if seat is None:
                await hub.gate.wrong_token(client)
            else:
                proven.append((table.id, seat))
        linked = await accounts.link_seats(account, proven, client)
        rename(account.name, linked)
        return JSONResponse({"claimed": len(linked)})

    async def games(request: Request) -> Response:
        return JSONResponse(await my_games(hub, accounts, await need_account(accounts, request)))

    async def player(request: Request) -> Response:
        name = request.path_params["name"]
        found = await accounts.find(name)
        if found is None:
            raise BadInput(f"there is no player named {name[:40]!r}", 404)
        ledger = request.app.state.tournaments.store
        return JSONResponse(await profile(hub, accounts, ratings, ledger, *found))

    async def shell(request: Request) -> Response:
        return FileResponse(static / "index.html", media_type="text/html")

    a = "/api/account"
    return [
        Route("/account", shell),
        Route("/me", shell),
        Route("/my/turns", shell),
        Route("/players/{name}", shell),
        Route(a, me),
        Route(a + "/signup", sign_up, methods=["POST"]),
        Route(a + "/signin", sign_in, methods=["POST"]),
        Route(a + "/signout", sign_out, methods=["POST"]),
        Route(a + "/signout-everywhere", sign_out_everywhere, methods=["POST"]),
        Route(a + "/password", change_password, methods=["POST"]),
        Route(a + "/delete", delete_account, methods=["POST"]),
        Route(a + "/claim", claim, methods=["POST"]),
        Route("/api/me/games", games),
        Route("/api/players/{name}", player),
    ]
