"""Bots by name, for every place that seats one (terminal, arena, server).

Each game's manifest lists its bots; ``random`` plays every game, and the
levels for people (``easy``, ``medium``, ``hard``) map onto a game's
heuristic and search bots where the game has them.

>>> import random, cardtable
>>> game = cardtable.load("marshmallow-test", players=3)
>>> bot = make_bot("heuristic", game, seat=1, rng=random.Random(0))
>>> bot.seat
1
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardtable.bots.base import Bot, BotFactory, Budget, RandomBot
from cardtable.core.errors import CardtableError
from cardtable.core.extras import install_command
from cardtable.core.game import Game
from cardtable.core.manifest import BotEntry, GameManifest, resolve
from cardtable.core.registry import manifest


@dataclass(frozen=True)
class Level:
    """A name on the ladder for people: which bot, and how long it may think."""

    summary: str
    bot: str | None  # None: the game's search bot (its manifest marks it)
    budget: Budget | None = None


# Easy plays by rules of thumb; medium and hard search, hard five times as long.
LEVELS: dict[str, Level] = {
    "easy": Level("rules of thumb, instant", "heuristic"),
    "medium": Level("searches 0.1 s a move", None, Budget(seconds=0.1)),
    "hard": Level("searches 0.5 s a move", None, Budget(seconds=0.5)),
}

RANDOM = BotEntry("cardtable.bots.base:RandomBot", "plays a legal move at random")

__all__ = [
    "LEVELS",
    "Bot",
    "BotFactory",
    "Budget",
    "Level",
    "RandomBot",
    "UnknownBotError",
    "bot_entries",
    "bot_names",
    "make_bot",
]


class UnknownBotError(CardtableError):
    pass


class MissingExtraError(CardtableError):
    """A bot needs an optional extra that is not installed."""


def _level_bot(level: Level, game: GameManifest) -> str | None:
    name = level.bot if level.bot is not None else game.search_bot
    return name if name in game.bots else None


def bot_entries(game_name: str) -> dict[str, BotEntry]:
    """The bots of ``game_name`` by name (``random`` first), levels not included."""
    return {"random": RANDOM, **manifest(game_name).bots}


def bot_names(game_name: str) -> tuple[str, ...]:
    """Every name ``make_bot`` accepts for this game: the bots, then the levels it has."""
    game = manifest(game_name)
    levels = [name for name, level in LEVELS.items() if _level_bot(level, game)]
    return (*bot_entries(game_name), *levels)


def make_bot(
    name: str, game: Game, seat: int, rng: random.Random, budget: Budget | None = None
) -> Bot:
    """The bot called ``name`` (a ladder name or a level) for ``seat`` of ``game``."""
    entries = bot_entries(game.name)
    if name in LEVELS:
        level = LEVELS[name]
        bot_name = _level_bot(level, manifest(game.name))
        if bot_name is None:
            raise UnknownBotError(
                f"level {name!r} needs a {'search' if level.bot is None else level.bot} bot,"
                f" which {game.name} does not have; choose from {', '.join(bot_names(game.name))}"
            )
        name, budget = bot_name, budget if budget is not None else level.budget
    entry = entries.get(name)
    if entry is None:
        raise UnknownBotError(
            f"unknown bot {name!r} for {game.name}; choose from {', '.join(bot_names(game.name))}"
        )
    try:
        factory: BotFactory = resolve(entry.target)
    except ModuleNotFoundError as exc:
        if entry.extra is None:
            raise
        raise MissingExtraError(
            f"bot {name!r} needs the {entry.extra!r} extra ({exc.name} is missing):"
            f" {install_command(entry.extra)}"
        ) from None
    return factory(seat, game, rng, budget)
