"""The HTTP routes: lobby JSON, joining, records, replays, analyses, rematches, pages.

Every fault is an HTTP 4xx with ``{"error": "one sentence"}``
(:func:`error_response`), and a database that cannot be reached a 503 with
``Retry-After`` (:func:`store_unavailable_response`); bodies are read with a size limit, parsed with
:func:`cardtable.server.wire.parse_json` and checked against their schema
(:mod:`cardtable.server.requests`).
"""

from __future__ import annotations

import logging
import re
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from cardtable.core.errors import CardtableError
from cardtable.core.registry import game_names, manifest
from cardtable.server.accounts.accounts import Accounts
from cardtable.server.accounts.friends import seating_refusal
from cardtable.server.db.storage import unreachable
from cardtable.server.guard.limits import TooMany, client_address
from cardtable.server.live.analyses import Analyses
from cardtable.server.live.hub import Hub
from cardtable.server.live.play import Play
from cardtable.server.quick.turn_based import check_room
from cardtable.server.requests import Analyze, Join, Rematch
from cardtable.server.tables.listing import entry, live_ids, online, tables_page
from cardtable.server.tables.lobby import WORDS_FILE, WORDS_FOLDER, games_json, parse_create
from cardtable.server.tables.replay import Seat, replay_step
from cardtable.server.tables.table import Table
from cardtable.server.tournaments.director import Director
from cardtable.server.tournaments.rules import sealed_refusal
from cardtable.server.web.session_cookie import signed_in
from cardtable.server.wire import BadInput, convert, display_name, read_json

log = logging.getLogger(__name__)

# How long a client is asked to wait while the database is unreachable: about
# what a restarting PostgreSQL takes, or a lease for another process to step in.
STORE_RETRY_SECONDS = 5
FILE_NAME = r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}"
# The board of every game whose manifest names no web_client: it draws any view
# (cardtable/server/web/static/generic-board.js, docs/browser.md).
GENERIC_BOARD = "/static/generic-board.js"


def error_response(request: Request, exc: Exception) -> Response:
    if isinstance(exc, TooMany):
        headers = {"Retry-After": str(exc.retry_after)}
        return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=headers)
    if isinstance(exc, BadInput):
        return JSONResponse(exc.body(), status_code=exc.status)
    if isinstance(exc, HTTPException):
        return JSONResponse({"error": f"{request.url.path}: {exc.detail}"}, exc.status_code)
    raise exc


def store_unavailable_response(request: Request, exc: Exception) -> Response:
    """503 with ``Retry-After`` while the database cannot be reached; any
    other database error is a fault of ours (500, with its traceback)."""
    if not unreachable(exc):
        raise exc
    log.warning("%s %s: the database is unreachable (%s)", request.method, request.url.path, exc)
    return JSONResponse(
        {"error": "the server cannot reach its database just now; try again in a few seconds"},
        status_code=503,
        headers={"Retry-After": str(STORE_RETRY_SECONDS)},
    )


def _number(text: str | None, what: str) -> int:
    if text is None or not text.isdigit() or len(text) > 12:
        raise BadInput(f"{what} must be a whole number, e.g. {what}=0")
    return int(text)


def routes(hub: Hub, play: Play, analyses: Analyses, static: Path) -> list[BaseRoute]:
    async def list_games(request: Request) -> Response:
        # Every game is drawn in the browser: by its own board, else the generic one.
        return JSONResponse([{**g, "board": g["board"] or GENERIC_BOARD} for g in games_json()])

    async def list_tables(request: Request) -> Response:
        if hub.owners is not None:  # several processes: the list of them all
            return JSONResponse(await hub.owners.tables_page(request.query_params))
        return JSONResponse(tables_page(hub.tables.values(), request.query_params))

    async def count_online(request: Request) -> Response:
        # People with a table open, seated or watching: one per socket (a
        # lobby page alone opens none; quick match counts its own waiters).
        if hub.owners is not None:  # several processes: all of theirs
            return JSONResponse({"online": await hub.owners.online()})
        return JSONResponse({"online": online(hub.tables.values())})

    async def live_tables(request: Request) -> Response:
        # "Your tables" in the lobby: the live ones of the tables a browser
        # holds seats at (their ids are their links: anyone with one may look).
        ids = live_ids(request.query_params.get("ids", ""))
        return JSONResponse({"tables": await hub.live_lines(ids)})

    async def create_table(request: Request) -> Response:
        client = client_address(request.scope, hub.settings.limits)
        await hub.gate.may_create(client)  # before any work
        new = parse_create(await read_json(request))
        if any(s.kind == "human" for s in new.seats):  # it will wait for people
            await hub.gate.may_wait(client, await hub.waiting_of(client))
        table = await hub.create(new, creator=client)
        play.changed(table)
        return JSONResponse({"id": table.id, "url": f"/t/{table.id}"}, status_code=201)

    async def get_table(request: Request) -> Response:
        table = await hub.get(request.path_params["table_id"])
        return JSONResponse(entry(table))  # the lobby's line: a person's own table shows the same

    async def join(request: Request) -> Response:
        client = client_address(request.scope, hub.settings.limits)
        await hub.gate.may_join(client)
        table = await hub.get(request.path_params["table_id"])
        body = convert(await read_json(request), Join, "request")
        # A signed-in person sits under their account's name, and the seat becomes theirs.
        accounts: Accounts = request.app.state.accounts
        account = await signed_in(accounts, request)
        # A block between this account and one seated here keeps it away (either way).
        if account and (refused := await seating_refusal(accounts.engine, account.id, table.id)):
            return JSONResponse(refused.body(), refused.status)
        if account and table.facts.turn_based:  # a seat for days: counted per account
            limit = hub.settings.limits.turn_based_per_account
            await check_room(accounts.engine, account.id, limit)
        name = account.name if account else display_name(body.name, "request.name")
        token = await hub.join(table, body.seat, name, account=account is not None)
        if account:
            await accounts.link_seats(account, [(table.id, body.seat)], client)
        play.changed(table)
        return JSONResponse({"seat": body.seat, "token": token})

    async def shown(request: Request) -> Table:
        """The table, unless it plays a tournament's deal still being played
        at another table: nothing of it is shown before that deal is over
        everywhere (tournaments/director.py)."""
        table = await hub.get(request.path_params["table_id"])
        if table.facts.tournament is not None:
            director: Director = request.app.state.tournaments
            if await director.store.sealed(table.id):
                raise sealed_refusal()
        return table

    async def record(request: Request) -> Response:
        table = await shown(request)
        if table.status != "finished":
            raise BadInput("the record is offered once the game is over", 409)
        filename = f"cardtable-{table.id}.json"
        return JSONResponse(
            table.record(),
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def replay(request: Request) -> Response:
        table = await shown(request)
        step = _number(request.query_params.get("step", "0"), "step")
        raw = request.query_params.get("seat")
        seat: Seat = raw if raw in (None, "all") else _number(raw, "seat")
        out = replay_step(table, step, seat)
        # The chat said up to this step, both channels: the game is over, nothing is secret.
        said = await hub.storage.load_chat(table.id)
        out["chat"] = [line.to_json() for line in said if line.move <= step]
        return JSONResponse(out)

    async def analysis(request: Request) -> Response:
        table = await shown(request)
        raw = request.query_params.get("seat")
        seat = None if raw in (None, "all") else _number(raw, "seat")
        return JSONResponse(await analyses.document(table, seat))

    async def analyze(request: Request) -> Response:
        table = await shown(request)
        body = convert(await read_json(request), Analyze, "request")
        document, queued = await analyses.request(table, body.seat)
        return JSONResponse(document, status_code=202 if queued else 200)

    async def rematch(request: Request) -> Response:
        token = convert(await read_json(request), Rematch, "request").token
        client = client_address(request.scope, hub.settings.limits)
        old = await hub.get(request.path_params["table_id"], keep=True)  # one rematch, not two
        try:
            if old.seat_for_token(token) is None:
                await hub.gate.wrong_token(client)
            table = await hub.rematch(old, token)
        finally:
            hub.forget_if_idle(old)
        accounts: Accounts = request.app.state.accounts
        await accounts.copy_owners(old.id, table.id)
        play.changed(old)
        play.changed(table)
        return JSONResponse({"id": table.id, "url": f"/t/{table.id}"})

    async def board(request: Request) -> Response:
        name, file = request.path_params["game"], request.path_params["file"]
        if not re.fullmatch(FILE_NAME, file):
            raise BadInput(f"there is no file {file[:40]!r}", 404)
        if name not in game_names():
            raise BadInput(f"there is no game {name[:40]!r}", 404)
        m = manifest(name)
        # A game drawn by the generic board serves its words only (WORDS_FOLDER).
        words = m.web_client is None and re.fullmatch(WORDS_FILE, file) is not None
        if m.package is None or (m.web_client is None and not words):
            raise BadInput(
                f"{name} offers no browser drawing of its own: the generic board"
                f" {GENERIC_BOARD} draws it",
                404,
            )
        # board.js is the manifest's web_client; other files sit beside it.
        folder, _, module = (m.web_client or f"{WORDS_FOLDER}/").rpartition("/")
        where = resources.files(m.package).joinpath(folder or ".")
        where = where.joinpath(module if file == "board.js" else file)
        try:
            body = where.read_bytes()
        except (OSError, CardtableError):
            raise BadInput(f"{name} has no file {file!r}", 404) from None
        kind = "text/javascript" if file.endswith(".js") else _media_type(file)
        return Response(body, media_type=kind)

    def page(name: str) -> Any:
        async def serve(request: Request) -> Response:
            for candidate in (name, "index.html"):
                if (static / candidate).is_file():
                    return FileResponse(static / candidate, media_type="text/html")
            raise BadInput("the browser client is not installed (cardtable/server/web/static)", 404)

        return serve

    t = "/api/tables/{table_id}"
    return [
        Route("/", page("index.html")),
        Route("/t/{table_id}", page("table.html")),
        Route("/api/games", list_games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/online", count_online),
        Route("/api/live-tables", live_tables),
        Route("/api/tables", create_table, methods=["POST"]),
        Route(t, get_table),
        Route(t + "/join", join, methods=["POST"]),
        Route(t + "/record", record),
        Route(t + "/replay", replay),
        Route(t + "/analysis", analysis, methods=["GET"]),
        Route(t + "/analysis", analyze, methods=["POST"]),
        Route(t + "/rematch", rematch, methods=["POST"]),
        Route("/games/{game}/{file:str}", board),
        Mount("/static", StaticFiles(directory=static, check_dir=False), name="static"),
    ]


def _media_type(file: str) -> str:
    for suffix, kind in (
        (".css", "text/css"),
        (".json", "application/json"),
        (".svg", "image/svg+xml"),
    ):
        if file.endswith(suffix):
            return kind
    return "application/octet-stream"
