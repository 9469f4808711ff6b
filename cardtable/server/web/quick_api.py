"""The quick-match routes (docs/server.md, "Quick match"): plain JSON over HTTP.

A person joins with ``POST /api/quick`` and gets a secret ticket; the page
then long-polls ``GET /api/quick/{ticket}?wait=S&waiting=N`` (N: the count
of people waiting it shows, so a poll answers as soon as that count is
another) until the answer says ``seated`` (with the table, the seat and its
token), and cancels with ``POST /api/quick/{ticket}/cancel``. Plain requests rather than a socket:
each answer stands alone, a dropped connection only costs the next poll, and
a page that stops asking is dropped by the queue itself.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardtable.server.accounts.accounts import Accounts
from cardtable.server.guard.limits import client_address
from cardtable.server.quick.match import PlayNow, QuickMatch
from cardtable.server.quick.turn_based import PaceRefusal, PaceRequest, TurnBasedMatch
from cardtable.server.requests import QuickJoin, QuickTurnBased
from cardtable.server.web.session_cookie import signed_in
from cardtable.server.wire import BadInput, convert, display_name, read_json

MAX_POLL_SECONDS = 25  # a long poll's longest wait, under common proxies' idle timeouts


def routes(quick: QuickMatch, paced: TurnBasedMatch, accounts: Accounts) -> list[BaseRoute]:
    gate = quick.hub.gate

    async def waiting(request: Request) -> Response:
        counts = await quick.counts()
        return JSONResponse(
            {"waiting": [{"game": g, "players": n, "count": c} for (g, n), c in counts.items()]}
        )

    async def join(request: Request) -> Response:
        client = client_address(request.scope, quick.hub.settings.limits)
        await gate.may_join(client)  # a seat request like any other: counted before any work
        body = convert(await read_json(request), QuickJoin, "request")
        account = await signed_in(accounts, request)
        name = account.name if account else display_name(body.name, "request.name")
        asked = PlayNow(body.game, body.players, name, body.wait_seconds, body.bots)
        entry = await quick.join(asked, account, client)
        return JSONResponse(await quick.answer(entry), status_code=201)

    async def poll(request: Request) -> Response:
        raw = request.query_params.get("wait", "0")
        if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_POLL_SECONDS:
            raise BadInput(f"wait must be a whole number of seconds from 0 to {MAX_POLL_SECONDS}")
        shown = request.query_params.get("waiting")  # the count the page shows, if any
        if shown is not None and not (shown.isascii() and shown.isdigit() and len(shown) < 7):
            raise BadInput("waiting must be a whole number of people")
        entry = await quick.poll(
            request.path_params["ticket"], int(raw), None if shown is None else int(shown)
        )
        return JSONResponse(await quick.answer(entry))

    async def cancel(request: Request) -> Response:
        await quick.cancel(request.path_params["ticket"])
        return JSONResponse({"cancelled": True})

    async def turn_based(request: Request) -> Response:
        # A seat at once, at an open turn-based table or a new one (quick/turn_based.py).
        client = client_address(request.scope, quick.hub.settings.limits)
        await gate.may_join(client)
        body = convert(await read_json(request), QuickTurnBased, "request")
        account = await signed_in(accounts, request)
        if account is None:
            raise PaceRefusal(
                "sign in to play turn-based: your games wait for you on any device", 401, "signIn"
            )
        asked = PaceRequest(body.game, body.players, body.move_hours)
        return JSONResponse(await paced.seat(asked, account, client), status_code=201)

    return [
        Route("/api/quick", waiting, methods=["GET"]),
        Route("/api/quick/turn-based", turn_based, methods=["POST"]),
        Route("/api/quick", join, methods=["POST"]),
        Route("/api/quick/{ticket}", poll, methods=["GET"]),
        Route("/api/quick/{ticket}/cancel", cancel, methods=["POST"]),
    ]
