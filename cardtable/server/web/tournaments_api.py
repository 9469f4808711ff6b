"""Tournaments over HTTP: the list, one tournament (its standings and the
caller's seat), a deal's tables once it is over everywhere, the whole
tournament as one download, and the creator's and entrants' actions.

``/tournaments``, ``/tournaments/{id}`` and ``/tournaments/{id}/deals/{k}``
are the browser shell (``static/tournaments.js`` draws them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from msgspec import Meta
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardtable.server.accounts.accounts import Account, Accounts
from cardtable.server.accounts.friends import muted_names
from cardtable.server.clock import now_ms
from cardtable.server.guard.limits import client_address
from cardtable.server.live.hub import Hub
from cardtable.server.requests import Closed
from cardtable.server.tables.chat import checked_text
from cardtable.server.tournaments.director import Director, new_tournament_id, new_tournament_seed
from cardtable.server.tournaments.ledger import DealTable, Entrant, Tournament, scored_tables
from cardtable.server.tournaments.rules import (
    MAX_ENTRANTS,
    MAX_UPCOMING,
    TournamentRefusal,
    check_new,
    sealed_refusal,
    standings,
)
from cardtable.server.web.session_cookie import need_account, signed_in
from cardtable.server.wire import BadInput, convert, read_json

FORMAT = "cardtable-tournament-record/1"  # the command line's results are cardtable-tournament/1
CHAT_PAGE = 200  # chat lines per answer


class CreateTournament(Closed):
    """``POST /api/tournaments`` (its values checked by ``rules.check_new``)."""

    name: Annotated[str, Meta(max_length=200)]
    game: Annotated[str, Meta(max_length=64)]
    players: int
    deals: int
    form: Annotated[str, Meta(max_length=16)]
    start_in_minutes: int  # from now (a time in ms is more digits than the wire takes)
    access: Annotated[str, Meta(max_length=16)]
    rated: bool
    bot: Annotated[str, Meta(max_length=16)]
    move_hours: int | None = None


class Said(Closed):
    """``POST /api/tournaments/{id}/chat``: a line of text."""

    text: Annotated[str, Meta(max_length=2000)]


class Someone(Closed):
    """``POST /api/tournaments/{id}/invite``: an account's name."""

    name: Annotated[str, Meta(max_length=200)]


def summary(t: Tournament, people: int) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "game": t.game,
        "players": t.players,
        "deals": t.deals,
        "form": t.form,
        "start_ms": t.start_ms,
        "move_hours": t.move_hours,
        "access": t.access,
        "rated": t.rated,
        "bot": t.bot,
        "status": t.status,
        "entrants": people,
        "creator": t.creator_name,
        "deal": t.deal,
        "url": f"/tournaments/{t.id}",
    }


def people_in(entrants: list[Entrant]) -> int:
    """The people among the entrants (the bots that fill the tables are not counted)."""
    return sum(e.account_id is not None for e in entrants)


def _entrant_json(e: Entrant) -> dict[str, Any]:
    return {"name": e.name, "bot": e.bot}


def _standings_json(entrants: list[Entrant], tables: list[DealTable]) -> list[dict[str, Any]]:
    scored = scored_tables(tables)
    return [
        {
            **_entrant_json(entrants[s.entrant]),
            "place": s.place,
            "total": round(s.total, 2),
            "deals": s.deals,
            "rating_before": entrants[s.entrant].rating_before,
            "rating_after": entrants[s.entrant].rating_after,
        }
        for s in standings(len(entrants), scored)
    ]


def _deal_json(deal: int, tables: list[DealTable], entrants: list[Entrant]) -> dict[str, Any]:
    return {
        "deal": deal,
        "tables": [
            {
                "number": d.number,
                "table_id": d.table_id,
                "url": f"/t/{d.table_id}",
                "seats": [
                    {
                        **_entrant_json(entrants[e]),
                        "points": (d.points or ())[seat],
                        "percent": round((d.percentages or ())[seat], 2),
                    }
                    for seat, e in enumerate(d.seats)
                ],
            }
            for d in tables
        ],
    }


def routes(hub: Hub, director: Director, accounts: Accounts, static: Path) -> list[BaseRoute]:
    store = director.store

    async def found(request: Request) -> Tournament:
        t = await store.get(request.path_params["tournament_id"][:40])
        if t is None:
            raise TournamentRefusal("there is no such tournament; check the link", 404, "unknown")
        return t

    async def writer(request: Request) -> Account:
        """The signed-in account (only accounts enter, make or run tournaments)."""
        return await need_account(accounts, request)

    async def listing(request: Request) -> Response:
        account = await signed_in(accounts, request)
        found_ = await store.listing(None if account is None else account.id)
        people = await store.people_counts([t.id for t in found_])
        out: dict[str, Any] = {"upcoming": [], "running": [], "finished": [], "server_ms": now_ms()}
        for t in found_:
            out[t.status].append(summary(t, people.get(t.id, 0)))
        return JSONResponse(out)

    async def create(request: Request) -> Response:
        account = await writer(request)
        # Counted as a table's creation: it makes tables, many of them.
        await hub.gate.may_create(client_address(request.scope, hub.settings.limits))
        body = convert(await read_json(request), CreateTournament, "request")
        new = check_new({f: getattr(body, f) for f in body.__struct_fields__}, now_ms())
        if await store.upcoming_of(account.id) >= MAX_UPCOMING:
            raise TournamentRefusal(
                f"you have {MAX_UPCOMING} upcoming tournaments, the most: wait for one to start",
                409,
                "tooMany",
                most=MAX_UPCOMING,
            )
        tournament_id = new_tournament_id()
        creator = (account.id, account.name)
        await store.create(tournament_id, new, creator, new_tournament_seed(), now_ms())
        return JSONResponse({"id": tournament_id, "url": f"/tournaments/{tournament_id}"}, 201)

    async def one(request: Request) -> Response:
        t = await found(request)
        account = await signed_in(accounts, request)
        entrants = await store.entrants(t.id)
        tables = await store.deal_tables(t.id)
        out = summary(t, people_in(entrants))
        out["lineup"] = [_entrant_json(e) for e in entrants]
        out["deals_over"] = len({d.deal for d in tables if d.percentages is not None})
        out["standings"] = _standings_json(entrants, tables)
        out["me"] = None
        out["table"] = None
        out["progress"] = None
        if account is not None:
            out["me"] = {
                "entered": any(e.account_id == account.id for e in entrants),
                "invited": await store.invited(t.id, account.id),
                "creator": t.creator_id == account.id,
            }
            seat = director.seat_of(t, account.id, entrants, tables)
            if seat is not None:
                out["table"] = {
                    "id": seat.table_id,
                    "seat": seat.seat,
                    "token": seat.token,
                    "deal": seat.deal,
                }
        if t.status == "running" and t.deal is not None:
            now = [d for d in tables if d.deal == t.deal]
            statuses = await store.statuses([d.table_id for d in now])
            done = sum(statuses.get(d.table_id) == "finished" for d in now)
            out["progress"] = {"deal": t.deal, "tables": len(now), "finished": done}
        return JSONResponse(out)

    async def deal(request: Request) -> Response:
        t = await found(request)
        text = request.path_params["deal"]
        if not text.isdigit() or not 0 <= int(text) < t.deals:
            raise TournamentRefusal(
                f"there is no deal {text[:10]!r}: deals are 0 to {t.deals - 1}", 404, "noDeal"
            )
        number = int(text)
        tables = await store.deal_tables(t.id, number)
        if not tables or any(d.percentages is None for d in tables):
            raise sealed_refusal()
        return JSONResponse(_deal_json(number, tables, await store.entrants(t.id)))

    async def download(request: Request) -> Response:
        t = await found(request)
        entrants = await store.entrants(t.id)
        tables = [d for d in await store.deal_tables(t.id) if d.percentages is not None]
        deals = []
        for number in sorted({d.deal for d in tables}):
            part = _deal_json(number, [d for d in tables if d.deal == number], entrants)
            for row, d in zip(part["tables"], (d for d in tables if d.deal == number), strict=True):
                row["record"] = (await hub.get(d.table_id)).record()
            deals.append(part)
        document = {
            "schema": FORMAT,
            "tournament": summary(t, people_in(entrants)),
            "options": t.options,
            "entrants": [_entrant_json(e) for e in entrants],
            "standings": _standings_json(entrants, tables),
            "deals": deals,
        }
        filename = f"cardtable-tournament-{t.id}.json"
        return JSONResponse(
            document, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
        )

    async def enter(request: Request) -> Response:
        account = await writer(request)
        t = await found(request)
        welcome = t.access == "open" or t.creator_id == account.id
        if not welcome and not await store.invited(t.id, account.id):
            raise TournamentRefusal(
                "this tournament is by invitation: ask its creator", 403, "notInvited"
            )
        if people_in(await store.entrants(t.id)) >= MAX_ENTRANTS:
            raise TournamentRefusal(
                f"this tournament is full ({MAX_ENTRANTS})", 409, "full", most=MAX_ENTRANTS
            )
        if not await store.enter(t.id, account.id, account.name, now_ms()):
            raise _started()
        return JSONResponse({"entered": True})

    async def leave(request: Request) -> Response:
        account = await writer(request)
        t = await found(request)
        if not await store.leave(t.id, account.id):
            raise _started()
        return JSONResponse({"entered": False})

    async def creator_only(request: Request) -> tuple[Account, Tournament]:
        account = await writer(request)
        t = await found(request)
        if t.creator_id != account.id:
            raise TournamentRefusal("only the tournament's creator may do this", 403, "notCreator")
        return account, t

    async def start(request: Request) -> Response:
        _, t = await creator_only(request)
        if not await store.set_start(t.id, now_ms()):
            raise _started()
        await director.begin(t.id)
        started = await store.get(t.id)
        assert started is not None
        return JSONResponse(summary(started, people_in(await store.entrants(t.id))))

    async def cancel(request: Request) -> Response:
        _, t = await creator_only(request)
        if not await store.cancel(t.id, now_ms()):
            raise _started()
        return JSONResponse({"status": "cancelled"})

    async def invite(request: Request) -> Response:
        _, t = await creator_only(request)
        name = convert(await read_json(request), Someone, "request").name
        invited = await accounts.find(name)
        if invited is None:
            raise TournamentRefusal(f"there is no account named {name[:40]!r}", 404, "noAccount")
        invitee = invited[0]
        await store.invite(t.id, invitee.id)
        return JSONResponse({"invited": invitee.name})

    async def chat(request: Request) -> Response:
        """The lines after ``?after=N``; whether one may speak now (never while a
        deal is being played: it could tell others how it goes)."""
        t = await found(request)
        after = request.query_params.get("after", "-1")
        if not after.lstrip("-").isdigit():
            raise BadInput(f"after: a line number, not {after[:20]!r}")
        lines = await store.chat(t.id, int(after), CHAT_PAGE)
        account = await signed_in(accounts, request)
        if account is not None:  # an account's page never shows whom it blocked
            muted = await muted_names(accounts.engine, account.id)
            lines = [line for line in lines if line["name"] not in muted]
        return JSONResponse({"open": chat_open(t), "lines": lines})

    async def say(request: Request) -> Response:
        account = await writer(request)
        t = await found(request)
        text = checked_text(convert(await read_json(request), Said, "request").text)
        if not chat_open(t):
            raise TournamentRefusal(
                "the tournament's chat is closed while a deal is being played", 409, "chatClosed"
            )
        entrants = await store.entrants(t.id)
        if t.creator_id != account.id and all(e.account_id != account.id for e in entrants):
            raise TournamentRefusal(
                "only its entrants speak in a tournament's chat", 403, "notEntrant"
            )
        address = client_address(request.scope, hub.settings.limits)
        await hub.gate.may_chat(address, f"tournament:{t.id}:{account.id}")
        n = await store.say(t.id, account.id, account.name, text, now_ms())
        return JSONResponse({"n": n}, 201)

    async def shell(request: Request) -> Response:
        return FileResponse(static / "index.html", media_type="text/html")

    t = "/api/tournaments/{tournament_id}"
    return [
        Route("/tournaments", shell),
        Route("/tournaments/{tournament_id}", shell),
        Route("/tournaments/{tournament_id}/deals/{deal}", shell),
        Route("/api/tournaments", listing, methods=["GET"]),
        Route("/api/tournaments", create, methods=["POST"]),
        Route(t, one, methods=["GET"]),
        Route(t + "/deals/{deal}", deal, methods=["GET"]),
        Route(t + "/download", download, methods=["GET"]),
        Route(t + "/enter", enter, methods=["POST"]),
        Route(t + "/leave", leave, methods=["POST"]),
        Route(t + "/start", start, methods=["POST"]),
        Route(t + "/cancel", cancel, methods=["POST"]),
        Route(t + "/invite", invite, methods=["POST"]),
        Route(t + "/chat", chat, methods=["GET"]),
        Route(t + "/chat", say, methods=["POST"]),
    ]


def chat_open(t: Tournament) -> bool:
    """A tournament's chat is open before it starts and once it is over."""
    return t.status != "running"


def _started() -> BadInput:
    return TournamentRefusal("the tournament has started (or was cancelled)", 409, "started")
