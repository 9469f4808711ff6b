"""How the generic search bot plays a sampled position out, and what the end is worth.

Every seat follows a playout policy, a function from a state to the move of
the seat to move. It is the game's own evaluator's when the manifest names
one (``evaluator``, a factory ``(game) ->`` an object with ``policy(rng)``,
``groups(view, legal)`` and ``cutoff``: the protocol written down in
``cardtable.analysis.evaluator``, read here by its attributes only, since
bots may not import analysis); else the game's ``heuristic`` bot in every
seat, each deciding from its own ``view(seat)``; else random moves.

What a playout is worth, from the deciding seat's side:

- with the evaluator's cutoff, the playout stops after that many moves and
  takes the cutoff's estimate of the seat's chance to win (or its share of
  the win, ``1/k`` of ``k`` winners, where the game ended first). The
  estimate is asked with no win model (the analysis fits one over 600
  games, too slow for a bot built per game), so the game values the
  standings by its own rules;
- else the playout ends with the round of the decision (or the game), and
  is worth the seat's score margin then: its total minus the best other
  total (higher totals ahead, as the arena ranks a finish). Playing on to
  the game's end and counting wins measured far worse: Marshmallow Test, 2
  players, 50 ms a move against the heuristic, 27% (19-36%, 100 games) to
  the end of the game, 70% (55-82%, 40 games) to the end of the round; the
  fixture game was the same either way (61% against random, 300 games).
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

# A playout still in its round after this many moves is valued as it stands:
# a guard against a policy that never ends a round (the analysis's bound).
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
    what chance brings next), follow the policy, and return what the playout
    is worth to ``seat`` (module doc)."""
    policy = playouts.policy(rng)
    cutoff = playouts.cutoff
    round_number = state.round_number
    state.apply(move)
    moves = 1
    if cutoff is not None:
        limit = min(MAX_MOVES, cutoff.moves)
        while not state.finished and moves < limit:
            state.apply(policy(state))
            moves += 1
        if state.finished:
            winners = state.winners
            return 1.0 / len(winners) if seat in winners else 0.0
        return cutoff.value(state, seat, _no_win_model)[0]
    while not state.finished and state.round_number == round_number and moves < MAX_MOVES:
        state.apply(policy(state))
        moves += 1
    scores = state.scores
    return float(scores[seat] - max(x for s, x in enumerate(scores) if s != seat))
