"""The lobby's requests: what games exist, and checking a new table's settings.

Everything per game comes from the registry: the game's options are checked
by the game itself (``cardtable.load`` raises an ``OptionError`` naming the
option), its bots by ``cardtable.bots``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cardtable.bots import LEVELS, bot_entries, bot_names, make_bot
from cardtable.core.errors import CardtableError
from cardtable.core.game import Game
from cardtable.core.registry import game_names, load, manifest, manifests
from cardtable.server.storage import SeatRow
from cardtable.server.wire import (
    BadInput,
    expect_object,
    get_bool,
    get_choice,
    get_int,
    get_optional_int,
    only_keys,
)

STAND_INS = ("easy", "medium", "random")
CREATE_KEYS = ("game", "options", "seats", "private", "turn_seconds", "bot_delay_ms", "stand_in")


@dataclass(frozen=True)
class NewTable:
    """A table's checked settings, before it exists."""

    game: Game
    seats: list[SeatRow]
    private: bool
    turn_seconds: int | None
    bot_delay_ms: int
    stand_in: str


def games_json() -> list[dict[str, Any]]:
    """``GET /api/games``: every registered game as the lobby offers it."""
    out = []
    for name, m in manifests().items():
        bots = bot_entries(name)
        levels = [n for n in bot_names(name) if n in LEVELS]
        out.append(
            {
                "name": name,
                "title": m.title,
                "summary": m.summary,
                "players": list(m.players),
                "default_players": m.default_players,
                "options": [{"name": o.name, "help": o.help} for o in m.options],
                "bots": [{"name": n, "summary": b.summary} for n, b in bots.items()],
                "levels": [{"name": n, "summary": LEVELS[n].summary} for n in levels],
                "board": f"/games/{name}/board.js" if m.has("web_client") else None,
                "tutorial": m.has("tutorial"),
            }
        )
    return out


def parse_create(body: Any) -> NewTable:
    """Check ``POST /api/tables``; :class:`BadInput` names the first fault."""
    obj = expect_object(body, "request")
    only_keys(obj, CREATE_KEYS, "request")
    name = obj.get("game")
    if not isinstance(name, str) or name not in game_names():
        raise BadInput(f"request.game must be one of {', '.join(game_names())}")
    seats_json = obj.get("seats")
    if not isinstance(seats_json, list) or not seats_json:
        raise BadInput("request.seats must be a list with one entry per seat")
    options = dict(expect_object(obj.get("options", {}), "request.options"))
    options.setdefault("players", len(seats_json))
    try:
        game = load(name, **options)
    except CardtableError as exc:
        raise BadInput(f"request.options: {exc}") from None
    if len(seats_json) != game.num_players:
        raise BadInput(
            f"request.seats has {len(seats_json)} entries for {game.num_players} players"
        )
    seats = [_seat(game, i, s) for i, s in enumerate(seats_json)]
    offered = bot_names(name)
    default = next(b for b in STAND_INS if b in offered)  # "random" plays every game
    stand_in = get_choice(obj, "stand_in", "request", STAND_INS, default)
    if stand_in not in offered:
        raise BadInput(f"request.stand_in: {name} has no {stand_in!r} bot")
    return NewTable(
        game=game,
        seats=seats,
        private=get_bool(obj, "private", "request", False),
        turn_seconds=get_optional_int(obj, "turn_seconds", "request", 1, 3600),
        bot_delay_ms=get_int(obj, "bot_delay_ms", "request", 0, 10_000, default=800),
        stand_in=stand_in,
    )


def _seat(game: Game, i: int, obj: Any) -> SeatRow:
    where = f"request.seats[{i}]"
    seat = expect_object(obj, where)
    only_keys(seat, ("kind", "bot"), where)
    kind = get_choice(seat, "kind", where, ("human", "bot"), "human")
    if kind == "human":
        if "bot" in seat:
            raise BadInput(f"{where}: a human seat has no bot")
        return SeatRow(i, "human")
    bot = seat.get("bot", "medium")
    if not isinstance(bot, str) or bot not in bot_names(game.name):
        raise BadInput(f"{where}.bot must be one of {', '.join(bot_names(game.name))}")
    try:
        make_bot(bot, game, i, random.Random(0))  # a bot whose extra is missing says so now
    except CardtableError as exc:
        raise BadInput(f"{where}.bot: {exc}") from None
    return SeatRow(i, "bot", bot=bot)


def title(game: str) -> str:
    return manifest(game).title
