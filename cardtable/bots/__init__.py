"""Bots by name, for every place that seats one (terminal, arena, server).

>>> import random, cardtable
>>> game = cardtable.load("marshmallow-test", players=3)
>>> bot = make_bot("heuristic", game, seat=1, rng=random.Random(0))
>>> bot.seat
1
"""

from __future__ import annotations

import random
from importlib import import_module

from cardtable.bots.base import Bot, BotFactory, Budget, RandomBot
from cardtable.core.errors import CardtableError
from cardtable.core.game import Game

# Per game, the bots beyond `random` (module:class, imported when asked for).
_OPENSPIEL_ISMCTS = "cardtable.bots.openspiel_ismcts:OpenSpielISMCTSBot"  # needs [rl]
_GAME_BOTS: dict[str, dict[str, str]] = {
    "marshmallow-test": {
        "heuristic": "cardtable.bots.marshmallow_test.heuristic:HeuristicBot",
        "ismcts": "cardtable.bots.marshmallow_test.ismcts:ISMCTSBot",
        "openspiel-ismcts": _OPENSPIEL_ISMCTS,
    },
    "myrummy-111": {
        "heuristic": "cardtable.bots.myrummy_111.heuristic:HeuristicBot",
        "ismcts": "cardtable.bots.myrummy_111.ismcts:ISMCTSBot",
        "openspiel-ismcts": _OPENSPIEL_ISMCTS,
    },
}

# Levels for people: a name on the ladder and a budget per decision. Easy
# plays by rules of thumb; medium and hard search, hard five times as long.
LEVELS: dict[str, tuple[str, Budget | None]] = {
    "easy": ("heuristic", None),
    "medium": ("ismcts", Budget(seconds=0.1)),
    "hard": ("ismcts", Budget(seconds=0.5)),
}

__all__ = ["LEVELS", "Bot", "BotFactory", "Budget", "UnknownBotError", "bot_names", "make_bot"]


class UnknownBotError(CardtableError):
    pass


def bot_names(game_name: str) -> tuple[str, ...]:
    """Every name ``make_bot`` accepts for this game, ladder first, then levels."""
    return ("random", *_GAME_BOTS.get(game_name, {}), *LEVELS)


def make_bot(
    name: str, game: Game, seat: int, rng: random.Random, budget: Budget | None = None
) -> Bot:
    """The bot called ``name`` (a ladder name or a level) for ``seat`` of ``game``."""
    if name in LEVELS:
        name, level_budget = LEVELS[name]
        budget = budget if budget is not None else level_budget
    if name == "random":
        return RandomBot(seat, game, rng, budget)
    target = _GAME_BOTS.get(game.name, {}).get(name)
    if target is None:
        raise UnknownBotError(
            f"unknown bot {name!r} for {game.name}; choose from {', '.join(bot_names(game.name))}"
        )
    module_name, class_name = target.split(":")
    factory: BotFactory = getattr(import_module(module_name), class_name)
    return factory(seat, game, rng, budget)
