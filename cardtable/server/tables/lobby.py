"""The lobby's requests: what games exist, and checking a new table's settings.

Everything per game comes from the registry: the game's options are checked
by the game itself (``cardtable.load`` raises an ``OptionError`` naming the
option), its bots by ``cardtable.bots``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from importlib import resources
from typing import Any

from cardtable.bots import LEVELS, Level, bot_entries, bot_names, level_for, make_bot
from cardtable.bots.ratings import display_rating, published
from cardtable.core.errors import CardtableError
from cardtable.core.game import Game
from cardtable.core.manifest import GameManifest
from cardtable.core.registry import game_names, load, manifest, manifests
from cardtable.server.requests import STAND_INS, UNSET, CreateTable, SeatRequest
from cardtable.server.tables.facts import SeatFacts
from cardtable.server.wire import BadInput, convert


@dataclass(frozen=True)
class NewTable:
    """A table's checked settings, before it exists."""

    game: Game
    seats: list[SeatFacts]
    private: bool
    turn_seconds: int | None
    bot_delay_ms: int
    stand_in: str
    rated: bool = True  # False: friendly, never rated (rating_rules.py)
    move_hours: int | None = None  # turn-based: hours per move (None: real time)
    on_timeout: str | None = None  # turn-based: what running out of time does
    # A tournament's table: the tournament, and the seed its deal is dealt
    # from (the same at every table of the deal).
    tournament: str | None = None
    deal_seed: int | None = None


#: Where a game drawn by the generic board keeps its words for the lobby (its
#: options' labels and help, its summary: docs/plugins.md#option-labels), as
#: a board keeps its catalogs beside board.js: ``i18n.<lang>.json`` files in
#: this folder of its package, served at ``/games/{game}/i18n.<lang>.json``.
WORDS_FOLDER = "web"
WORDS_FILE = r"i18n\.[a-z]{2,3}\.json"


def words_url(m: GameManifest) -> str | None:
    """The address the lobby reads a boardless game's ``i18n.<lang>.json``
    from (``None``: it has a board, whose catalogs serve, or no words)."""
    if m.web_client is not None or m.package is None:
        return None
    if not resources.files(m.package).joinpath(WORDS_FOLDER, "i18n.en.json").is_file():
        return None
    return f"/games/{m.name}/"


def games_json() -> list[dict[str, Any]]:
    """``GET /api/games``: every registered game as the lobby offers it."""
    out = []
    for name, m in manifests().items():
        bots = bot_entries(name)
        # Each level as it plays this game (easy searches where there is no heuristic).
        levels = [(n, seated[1]) for n in LEVELS if (seated := level_for(n, name)) is not None]
        players = m.default_players
        out.append(
            {
                "name": name,
                "title": m.title,
                "summary": m.summary,
                "players": list(m.players),
                "default_players": m.default_players,
                "options": [o.to_json() for o in m.options],
                "bots": [{"name": n, "summary": b.summary} for n, b in bots.items()],
                "levels": [level_json(name, players, n, level) for n, level in levels],
                "board": f"/games/{name}/board.js" if m.has("web_client") else None,
                "words": words_url(m),
                "tutorial": m.has("tutorial"),
            }
        )
    return out


def level_json(game: str, players: int, name: str, level: Level) -> dict[str, Any]:
    """A level as the lobby words it: how long it thinks, and its published
    rating at the game's default player count (``measured`` false: a lower
    bound, see ``cardtable.bots.ratings.published``)."""
    seconds = level.budget.seconds if level.budget is not None else None
    found = published(game, players, name)
    return {
        "name": name,
        "summary": level.summary,
        "seconds": seconds,
        "rating": None if found is None else display_rating(found[0]),
        "measured": None if found is None else found[1],
    }


def parse_create(body: Any) -> NewTable:
    """Check ``POST /api/tables``; :class:`BadInput` names the first fault.

    The schema checks the shape (:class:`~cardtable.server.requests.CreateTable`);
    the game, its options and its bots are then checked by the registry."""
    request = convert(body, CreateTable, "request")
    name = request.game
    if name not in game_names():
        raise BadInput(f"request.game must be one of {', '.join(game_names())}")
    options = dict(request.options)
    options.setdefault("players", len(request.seats))
    try:
        game = load(name, **options)
    except CardtableError as exc:
        raise BadInput(f"request.options: {exc}") from None
    if len(request.seats) != game.num_players:
        raise BadInput(
            f"request.seats has {len(request.seats)} entries for {game.num_players} players"
        )
    seats = [_seat(game, i, s) for i, s in enumerate(request.seats)]
    offered = bot_names(name)
    default = next(b for b in STAND_INS if b in offered)  # "random" plays every game
    stand_in = default if request.stand_in is UNSET else request.stand_in
    if stand_in not in offered:
        raise BadInput(f"request.stand_in: {name} has no {stand_in!r} bot")
    if request.move_hours is None and request.on_timeout is not UNSET:
        raise BadInput("request.on_timeout: only a turn-based table (move_hours) has one")
    if request.move_hours is not None and request.turn_seconds is not None:
        raise BadInput("request.turn_seconds: a turn-based table counts move_hours instead")
    on_timeout = None
    if request.move_hours is not None:
        on_timeout = "stand-in" if request.on_timeout is UNSET else request.on_timeout
    return NewTable(
        game=game,
        seats=seats,
        private=request.private,
        turn_seconds=request.turn_seconds,
        bot_delay_ms=request.bot_delay_ms,
        stand_in=stand_in,
        rated=request.rated,
        move_hours=request.move_hours,
        on_timeout=on_timeout,
    )


def _seat(game: Game, i: int, seat: SeatRequest) -> SeatFacts:
    where = f"request.seats[{i}]"
    if seat.kind == "human":
        if seat.bot is not UNSET:
            raise BadInput(f"{where}: a human seat has no bot")
        return SeatFacts(i, "human")
    bot = "medium" if seat.bot is UNSET else seat.bot
    if bot not in bot_names(game.name):
        raise BadInput(f"{where}.bot must be one of {', '.join(bot_names(game.name))}")
    try:
        make_bot(bot, game, i, random.Random(0))  # a bot whose extra is missing says so now
    except CardtableError as exc:
        raise BadInput(f"{where}.bot: {exc}") from None
    return SeatFacts(i, "bot", bot=bot)


def title(game: str) -> str:
    return manifest(game).title
