"""How the generic search bot plays a sampled position out, and what the end is worth.

Every seat follows a playout policy, a function from a state to the move of
the seat to move. It is the game's own evaluator's when the manifest names
one (``evaluator``, a factory ``(game) ->`` an object with ``policy(rng)``,
``groups(view, legal)`` and ``cutoff``: the protocol written down in
``cardtable.analysis.evaluator``, read here by its attributes only, since
bots may not import analysis); else the game's ``heuristic`` bot in every
seat, each deciding from its own ``view(seat)``; else random moves.

A playout is worth the deciding seat's share of the win at the game's end (1,
``1/k`` of a win shared by ``k``, or 0), the outcome every game defines. Where
the evaluator has a cutoff, the playout stops after that many moves and takes
the cutoff's estimate instead: shorter playouts vary less. The estimate is
asked with no win model (the analysis fits one over 600 games, too slow for a
bot built per game), so the game values the standings by its own rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from cardtable.bots.base import Bot, RandomBot
from cardtable.core.game import Game, Move, State, View
from cardtable.core.manifest import resolve
from cardtable.core.registry import manifest

__all__ = ["MAX_MOVES", "BotPlayouts", "Playouts", "play_out", "playouts_for"]

Policy = Callable[[State], Move]
SeatBot = Callable[[int, Game, random.Random], Bot]  # a BotFactory, called without a budget

# A playout that has not finished after this many moves is scored as lost:
# a guard against a policy that never ends a game (the analysis's bound).
MAX_MOVES = 5_000


class Cutoff(Protocol):
    @property
    def moves(self) -> int: ...

    def value(self, state: State, seat: int, chance: Any) -> tuple[float, float]: ...


class Playouts(Protocol):
    """What the search needs from a game to play positions out (module doc)."""

    @property
    def cutoff(self) -> Cutoff | None: ...

    def policy(self, rng: random.Random) -> Policy: ...

    def groups(self, view: View, legal: Sequence[Move]) -> Sequence[Sequence[int]]: ...


class BotPlayouts:
    """One bot of the game in every seat, each with its own generator and view."""

    cutoff = None

    def __init__(self, game: Game, factory: SeatBot) -> None:
        self.game = game
        self.factory = factory

    def policy(self, rng: random.Random) -> Policy:
        # One generator per seat, drawn up front, so a seat's chance does not
        # depend on the order seats first move: every candidate move of a
        # decision is played out against the same opponents' luck.
        rngs = [random.Random(rng.getrandbits(64)) for _ in range(self.game.num_players)]
        bots: dict[int, Bot] = {}

        def choose(state: State) -> Move:
            seat = state.to_move
            assert seat is not None, "a playout state always has a seat to move"
            bot = bots.get(seat)
            if bot is None:
                bot = bots[seat] = self.factory(seat, self.game, rngs[seat])
            return bot.choose(state.view(seat), state.legal_moves())

        return choose

    def groups(self, view: View, legal: Sequence[Move]) -> Sequence[Sequence[int]]:
        return [[i] for i in range(len(legal))]


def playouts_for(game: Game) -> Playouts:
    """The game's evaluator if its manifest names one, else its heuristic bot, else random."""
    found = manifest(game.name)
    if found.evaluator is not None:
        evaluator: Playouts = resolve(found.evaluator)(game)
        return evaluator
    heuristic = found.bots.get("heuristic")
    factory: SeatBot = RandomBot if heuristic is None else resolve(heuristic.target)
    return BotPlayouts(game, factory)


def _no_win_model(scores: Sequence[int], seat: int, round_ended: int) -> None:
    return None  # the game values the standings itself (module doc)


def play_out(state: State, seat: int, move: Move, playouts: Playouts, rng: random.Random) -> float:
    """Apply ``move`` to ``state`` (changed in place; it needs a generator for
    the deals after this round), follow the policy to the end, and return
    ``seat``'s share of the win there (or the cutoff's estimate)."""
    policy = playouts.policy(rng)
    cutoff = playouts.cutoff
    limit = MAX_MOVES if cutoff is None else min(MAX_MOVES, cutoff.moves)
    state.apply(move)
    moves = 1
    while not state.finished and moves < limit:
        state.apply(policy(state))
        moves += 1
    if state.finished:
        winners = state.winners
        return 1.0 / len(winners) if seat in winners else 0.0
    if cutoff is not None:
        return cutoff.value(state, seat, _no_win_model)[0]
    return 0.0
