"""How analysis plays a position out: the playout policy a game offers.

An :class:`Evaluator` gives the policy every seat follows in a playout (a
function from a state to the move of the seat to move), how fast it runs (to
turn ``--budget`` seconds into a fixed amount of work) and which legal moves
are the same decision (to evaluate each once). A game may offer a faster one
through its manifest (``evaluator``, a factory ``(game) -> Evaluator``); a
game's evaluator needs nothing from this package, it only has to have these
attributes. Without one, :class:`BotEvaluator` seats the game's ``heuristic``
bot (``random`` where it has none) in every seat, each deciding from its own
``view(seat)``.

A policy must decide from what the seat to move could know (its own hand and
the public table), or playouts would be games between cheats.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from cardtable.bots import Bot, bot_entries, make_bot
from cardtable.bots.playout import BotPlayouts
from cardtable.core.game import Game, Move, State, View
from cardtable.core.registry import manifest

__all__ = [
    "BOT_MOVES_PER_SECOND",
    "BotEvaluator",
    "Cutoff",
    "Evaluator",
    "PlayoutPolicy",
    "evaluator_for",
    "singletons",
]

PlayoutPolicy = Callable[[State], Move]

# Nominal speed of the bot-seated playouts: heuristic decisions (view plus
# choice plus apply) per CPU second on one core of the reference machine (2
# shared cores; Marshmallow Test's analysis at 4 players measured 55,000,
# determinization and cloning included).
BOT_MOVES_PER_SECOND = 50_000.0


# (totals after a round, seat, round that ended) -> chance to win the game,
# or None where the win model cannot tell (:mod:`.winmodel`)
ChanceAfterRound = Callable[[Sequence[int], int, int], float | None]


class Cutoff(Protocol):
    """Where a game's playouts may stop before the round ends, and what the
    position is then worth: a playout's outcome varies less the sooner it
    stops, at the price of trusting the game's estimate of the rest."""

    @property
    def moves(self) -> int:
        """Moves a playout makes (the decision included) before it is cut off."""
        ...

    def value(self, state: State, seat: int, chance: ChanceAfterRound) -> tuple[float, float]:
        """``seat``'s chance to win the game and expected points in the round
        in play, estimated at ``state`` from what the playout reached;
        ``chance`` values the standings a round would leave."""
        ...


class Evaluator(Protocol):
    """What analysis needs from a game to play positions out (module doc)."""

    @property
    def cutoff(self) -> Cutoff | None:
        """Where playouts stop early; None: they play to the round's end."""
        ...

    @property
    def moves_per_second(self) -> float:
        """Nominal playout moves per second on one core: the ``--budget`` rate."""
        ...

    def policy(self, rng: random.Random) -> PlayoutPolicy:
        """A fresh policy for one playout, drawing its chance only on ``rng``."""
        ...

    def groups(self, view: View, legal: Sequence[Move]) -> Sequence[Sequence[int]]:
        """Indices into ``legal`` of the moves that leave the same position,
        one group per distinct decision (every index exactly once)."""
        ...


def singletons(legal: Sequence[Move]) -> list[list[int]]:
    """Every move its own group: what to assume when nothing more is known."""
    return [[i] for i in range(len(legal))]


class BotEvaluator(BotPlayouts):
    """Playouts with one of the game's bots in every seat, each seeing its own
    view: the search bot's :class:`~cardtable.bots.playout.BotPlayouts`, the
    bot named (a level too) instead of given as a factory."""

    moves_per_second = BOT_MOVES_PER_SECOND

    def __init__(self, game: Game, bot: str | None = None) -> None:
        self.bot = bot if bot is not None else _default_bot(game.name)
        super().__init__(game, self._seat_bot)

    def _seat_bot(self, seat: int, game: Game, rng: random.Random) -> Bot:
        return make_bot(self.bot, game, seat, rng)


def _default_bot(game_name: str) -> str:
    return "heuristic" if "heuristic" in bot_entries(game_name) else "random"


def evaluator_for(game: Game) -> Evaluator:
    """The game's own evaluator if its manifest names one, else :class:`BotEvaluator`."""
    game_manifest = manifest(game.name)
    if game_manifest.has("evaluator"):
        factory: Callable[[Game], Evaluator] = game_manifest.part("evaluator")
        return factory(game)
    return BotEvaluator(game)
