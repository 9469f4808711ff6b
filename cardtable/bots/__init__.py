"""Bots by name, for every place that seats one (terminal, arena, server).

Each game's manifest lists its bots. Some bots play every game that offers
what they need, and are added here to the game's own: ``random`` plays every
game, ``search`` (:mod:`cardtable.bots.search`) and ``so-ismcts``
(:mod:`cardtable.bots.ismcts`) every game that resamples hidden cards
(``determinize``), ``openspiel-ismcts`` every game that also has an
OpenSpiel layout, and ``learned`` (:mod:`cardtable.bots.learned`) every game
that ships a learned policy (``playout_policy``). A game's own bot of the
same name comes first.

The levels for people (``easy``, ``medium``, ``hard``, ``expert``) map onto a
game's heuristic and search bots: a level that a bot of the game's manifest
claims (``BotEntry.levels``: Marshmallow Test's ``hard`` and ``expert``
search with learned playouts) seats that bot; otherwise ``medium``, ``hard``
and ``expert`` seat the bot its manifest marks ``search=True`` (the built-in
games' tuned ``pimc``), else the generic ``search``; ``easy`` seats the
game's ``heuristic``, else the search bot at a fifth of medium's time
(:data:`EASY_SEARCH`; weaker than medium, and still a player, where
``random`` would be no opponent at all).

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
    bot: str | None  # None: the game's search bot (its manifest's, else the generic one)
    budget: Budget | None = None


# Easy plays by rules of thumb; medium, hard and expert search, hard five
# times as long as medium and expert up to 2 s a move (issue 26, item 3).
LEVELS: dict[str, Level] = {
    "easy": Level("rules of thumb, instant", "heuristic"),
    "medium": Level("searches 0.1 s a move", None, Budget(seconds=0.1)),
    "hard": Level("searches 0.5 s a move", None, Budget(seconds=0.5)),
    "expert": Level("searches up to 2 s a move", None, Budget(seconds=2.0)),
}
# ``easy`` for a game with no heuristic but a search bot: a fifth of medium,
# as hard is five times medium.
EASY_SEARCH = Level("searches 0.02 s a move (the game has no rules-of-thumb bot)", None,
                    Budget(seconds=0.02))  # fmt: skip

RANDOM = BotEntry("cardtable.bots.base:RandomBot", "plays a legal move at random")
SEARCH = BotEntry(
    "cardtable.bots.search:SearchBot",
    "generic determinized search (PIMC): samples the unseen cards from the view,"
    " plays each move out with the game's own playout policy",
    strength="measured per game in docs/strength.md",
    time_per_move="0.1 s (medium), 0.5 s (hard), 2 s (expert) where the game has no search"
    " bot of its own",
    search=True,
)
ISMCTS = BotEntry(
    "cardtable.bots.ismcts:IsmctsBot",
    "generic information-set tree search (single-observer ISMCTS): one tree of what"
    " the seat knows, grown over samples of the unseen cards, the game's own playouts",
    strength="measured per game in docs/strength.md",
    time_per_move="0.1 s unless given a budget",
    search=True,
)
LEARNED = BotEntry(
    "cardtable.bots.learned:LearnedBot",
    "the game's learned policy alone (fitted to its search's choices in self-play):"
    " its best-rated legal move",
    strength="measured per game in docs/strength.md",
    time_per_move="under 1 ms",
)
OPENSPIEL_ISMCTS = BotEntry(
    "cardtable.adapters.openspiel_bot:OpenSpielISMCTSBot",
    "OpenSpiel's information-set MCTS through the adapter",
    strength="measured per game in docs/strength.md",
    time_per_move="20 ms in the measured rows",
    extra="rl",
)

__all__ = [
    "EASY_SEARCH",
    "ISMCTS",
    "LEARNED",
    "LEVELS",
    "OPENSPIEL_ISMCTS",
    "SEARCH",
    "Bot",
    "BotFactory",
    "Budget",
    "Level",
    "RandomBot",
    "UnknownBotError",
    "bot_entries",
    "bot_names",
    "level_for",
    "make_bot",
]


class UnknownBotError(CardtableError):
    pass


class MissingExtraError(CardtableError):
    """A bot needs an optional extra that is not installed."""


def _generic_entries(game: GameManifest) -> dict[str, BotEntry]:
    """The bots beside ``random`` that play every game offering what they need."""
    generic = {}
    if game.has("playout_policy"):
        generic["learned"] = LEARNED
    if game.has("determinize"):
        generic["search"] = SEARCH
        generic["so-ismcts"] = ISMCTS
        if game.has("openspiel"):
            generic["openspiel-ismcts"] = OPENSPIEL_ISMCTS
    return generic


def bot_entries(game_name: str) -> dict[str, BotEntry]:
    """The bots of ``game_name`` by name (``random`` first, then the game's own,
    then the generic ones it does not name itself), levels not included."""
    game = manifest(game_name)
    generic = _generic_entries(game)
    return {
        "random": RANDOM,
        **game.bots,
        **{k: v for k, v in generic.items() if k not in game.bots},
    }


def _search_bot(game: GameManifest) -> str | None:
    """The game's own search bot, else the generic one where it resamples."""
    return game.search_bot or ("search" if game.has("determinize") else None)


def level_for(level_name: str, game_name: str) -> tuple[str, Level] | None:
    """The bot a level seats in this game and the level as it plays there
    (its summary and budget), or ``None`` where the game has no such level."""
    game = manifest(game_name)
    level = LEVELS[level_name]
    claimed = game.level_bot(level_name)
    if claimed is not None:
        return claimed, level
    if level.bot is None:
        search = _search_bot(game)
        return None if search is None else (search, level)
    if level.bot in game.bots:
        return level.bot, level
    search = _search_bot(game) if level_name == "easy" else None
    return None if search is None else (search, EASY_SEARCH)


def bot_names(game_name: str) -> tuple[str, ...]:
    """Every name ``make_bot`` accepts for this game: the bots, then the levels it has."""
    levels = [name for name in LEVELS if level_for(name, game_name) is not None]
    return (*bot_entries(game_name), *levels)


def make_bot(
    name: str, game: Game, seat: int, rng: random.Random, budget: Budget | None = None
) -> Bot:
    """The bot called ``name`` (a ladder name or a level) for ``seat`` of ``game``."""
    entries = bot_entries(game.name)
    if name in LEVELS:
        seated = level_for(name, game.name)
        if seated is None:
            need = "a search bot" if LEVELS[name].bot is None else "a heuristic or a search bot"
            raise UnknownBotError(
                f"level {name!r} needs {need}, which {game.name} does not have (it offers no"
                f" resampling of hidden cards); choose from {', '.join(bot_names(game.name))}"
            )
        name, level = seated
        budget = budget if budget is not None else level.budget
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
