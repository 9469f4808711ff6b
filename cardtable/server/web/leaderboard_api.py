"""The leaderboards: ``GET /leaderboard/{game}`` (the shell, drawn by
``static/leaderboard.js``) and ``GET /api/leaderboard``, a page at a time.

One board per game and player count, of established ratings only (a
provisional player joins after :data:`cardtable.server.tables.outcomes.PROVISIONAL_GAMES`
rated games), best first. A page's ``next`` is the position the next page
starts at: a rating that changes between two requests can move a player
across pages, as on any live leaderboard.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardtable.core.registry import game_names, manifest
from cardtable.server.db.ratings import BOARD_PAGE, Ratings
from cardtable.server.tables.listing import whole_number
from cardtable.server.tables.outcomes import PROVISIONAL_GAMES
from cardtable.server.wire import BadInput

CURSOR = re.compile(r"\d{1,9}")
PARAMETERS = ("game", "players", "cursor", "limit")


async def board_page(ratings: Ratings, query: dict[str, str]) -> dict[str, Any]:
    """One page of a leaderboard as ``GET /api/leaderboard`` answers it."""
    for name in query:
        if name not in PARAMETERS:
            raise BadInput(f"there is no parameter {name[:40]!r}; give {', '.join(PARAMETERS)}")
    game = query.get("game")
    if game is None or game not in game_names():
        raise BadInput(f"game must be one of {', '.join(game_names())}")
    counts = manifest(game).players
    players = whole_number(query.get("players"), "players", 1, 99)
    if players is None:  # where people play rated games, else the game's default
        players = await ratings.busiest(game) or manifest(game).default_players
    if players not in counts:
        shown = ", ".join(str(n) for n in counts)
        raise BadInput(f"players must be one of {shown} for {game}, got {players}")
    limit = whole_number(query.get("limit"), "limit", 1, BOARD_PAGE) or BOARD_PAGE
    cursor = query.get("cursor")
    if cursor is not None and not CURSOR.fullmatch(cursor):
        raise BadInput("cursor must be the 'next' value of an earlier page")
    offset = int(cursor) if cursor is not None else 0
    entries, more = await ratings.leaderboard(game, players, offset, limit)
    return {
        "game": game,
        "title": manifest(game).title,
        "players": players,
        "player_counts": list(counts),
        "established_after": PROVISIONAL_GAMES,
        "total": await ratings.established(game, players),
        "entries": entries,
        "next": str(offset + limit) if more else None,
    }


def routes(ratings: Ratings, static: Path) -> list[BaseRoute]:
    async def shell(request: Request) -> Response:
        return FileResponse(static / "index.html", media_type="text/html")

    async def board(request: Request) -> Response:
        return JSONResponse(await board_page(ratings, dict(request.query_params)))

    return [Route("/leaderboard/{game}", shell), Route("/api/leaderboard", board)]
