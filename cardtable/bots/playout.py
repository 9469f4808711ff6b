"""How the generic search bot plays a sampled position out, and what the end is worth.

Every seat follows a playout policy, a function from a state to the move of
the seat to move. It is the game's own evaluator's when the manifest names
one (``evaluator``, a factory ``(game) ->`` an object with ``policy(rng)``,
``groups(view, legal)`` and ``cutoff``: the protocol written down in
``cardtable.analysis.evaluator``, read here by its attributes only, since
bots may not import analysis); else the policy the game ships for the player
count (``playout_policy``, :mod:`cardtable.bots.learned`); else the game's
``heuristic`` bot in every seat, each deciding from its own ``view(seat)``
(:class:`BotPlayouts`, which analysis's ``BotEvaluator`` reuses); else
random moves.

A playout ends with the round of the decision (or the game), and is worth
the deciding seat's score margin then: its total minus the best other total
(higher totals ahead, as the arena ranks a finish). Where the evaluator has a
cutoff, the playout stops after that many moves if the round is still in
play, and each seat's total is taken as its total before the round plus the
points the cutoff expects it to make in the round: shorter playouts vary
less.

Two other values measured worse. Playing on to the game's end and counting
wins: Marshmallow Test, 2 players, 50 ms a move against the heuristic, 27%
(19-36%, 100 games) against 63% (53-72%, the same deals) to the round's end
(``benchmarks/bench_generic_search.py``); the fixture game was the same
either way (61% against random, 300 games). The
cutoff's chance to win the game, asked with no win model (the analysis fits
one over 600 games, too slow for a bot built per game): MyRummy 111's
chances differ so little early in a game that the bot declared unsorted
hands (MR-6.2) at once; its expected points do not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from cardtable.bots.base import Bot, RandomBot
from cardtable.bots.learned import NetPlayouts, policy_for
from cardtable.core.game import Game, GameTooLongError, Move, State, View, max_decisions
from cardtable.core.manifest import resolve
from cardtable.core.registry import manifest
from cardtable.core.seeds import derive_seed

__all__ = [
    "MAX_MOVES",
    "BotPlayouts",
    "Playouts",
    "has_policy",
    "margin",
    "play_out",
    "playouts_for",
    "round_totals",
]

Policy = Callable[[State], Move]
SeatBot = Callable[[int, Game, random.Random], Bot]  # a BotFactory, called without a budget

# A game that declares its length (``Game.max_decisions()``) may not be in
# play after that many moves of a playout: that raises GameTooLongError. For a
# game that declares none, a playout still in its round after this many moves
# is valued as it stands: a guard against a policy that never ends a round
# (the analysis's bound).
MAX_MOVES = 5_000


class Cutoff(Protocol):
    """Where playouts stop inside a round, and each seat's expected points
    in it then (the second number of ``value``)."""

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
        base = rng.getrandbits(64)
        bots: dict[int, Bot] = {}

        def choose(state: State) -> Move:
            seat = state.to_move
            assert seat is not None, "a playout state always has a seat to move"
            bot = bots.get(seat)
            if bot is None:
                # One generator per seat, derived from the playout's, so a
                # seat's chance does not depend on the order seats first move:
                # every candidate move is played out against the same luck.
                seat_rng = random.Random(derive_seed(base, seat))
                bot = bots[seat] = self.factory(seat, self.game, seat_rng)
            return bot.choose(state.view(seat), state.legal_moves())

        return choose

    def groups(self, view: View, legal: Sequence[Move]) -> Sequence[Sequence[int]]:
        return [[i] for i in range(len(legal))]


def playouts_for(game: Game) -> Playouts:
    """The game's evaluator if its manifest names one, else its learned
    policy for this player count, else its heuristic bot, else random."""
    found = manifest(game.name)
    if found.evaluator is not None:
        evaluator: Playouts = resolve(found.evaluator)(game)
        return evaluator
    net = policy_for(game)
    if net is not None:
        return NetPlayouts(game, net)
    heuristic = found.bots.get("heuristic")
    factory: SeatBot = RandomBot if heuristic is None else resolve(heuristic.target)
    return BotPlayouts(game, factory)


def has_policy(playouts: Playouts) -> bool:
    """Whether the playouts follow a policy worth playing for its own sake
    (an evaluator's, or a heuristic's): random moves are none."""
    return not (isinstance(playouts, BotPlayouts) and playouts.factory is RandomBot)


def _no_win_model(scores: Sequence[int], seat: int, round_ended: int) -> None:
    # The cutoff values standings for its chance to win, which is not read
    # here (module doc): only its expected points are.
    return None


def play_out(state: State, seat: int, move: Move, playouts: Playouts, rng: random.Random) -> float:
    """Apply ``move`` to ``state`` (changed in place; it needs a generator for
    what chance brings next), follow the policy to the end of the round (or
    to the cutoff), and return ``seat``'s score margin there (module doc)."""
    round_number = state.round_number
    state.apply(move)
    totals = round_totals(state, playouts, rng, round_number, moves=1)
    return margin(totals, seat, manifest(state.game.name).lowest_wins)


def round_totals(
    state: State, playouts: Playouts, rng: random.Random, round_number: int, moves: int = 0
) -> list[float]:
    """Follow the policy from ``state`` (changed in place) to the end of
    round ``round_number`` (at once if it has ended), or to the cutoff counting the
    ``moves`` already made since the playout began; every seat's total then
    (module doc). A game still in play after the most moves it declares
    (``Game.max_decisions()``) raises :class:`GameTooLongError`."""
    policy = playouts.policy(rng)
    cutoff = playouts.cutoff
    declared = max_decisions(state.game)
    bound = MAX_MOVES if declared is None else declared
    limit = bound if cutoff is None else min(bound, cutoff.moves)
    while not state.finished and state.round_number == round_number and moves < limit:
        state.apply(policy(state))
        moves += 1
    if state.finished or state.round_number != round_number:
        return [float(total) for total in state.scores]
    if declared is not None and moves >= declared:
        raise GameTooLongError.of(state.game, declared)
    if cutoff is None:
        return [float(total) for total in state.scores]
    # Cut off inside the round: each seat's total before the round plus the
    # points the game expects it to make in the round.
    rounds, scores = state.round_scores, state.scores
    this_round = rounds[round_number - 1] if len(rounds) >= round_number else [0] * len(scores)
    return [
        total - scored + cutoff.value(state, s, _no_win_model)[1]
        for s, (total, scored) in enumerate(zip(scores, this_round, strict=True))
    ]


def margin(totals: Sequence[float], seat: int, lowest_wins: bool = False) -> float:
    """How far ``seat`` is ahead of the best of the others: its total minus
    theirs, or (``lowest_wins``: totals are penalties) theirs minus its own.

    >>> margin([10, 4, 7], 0), margin([10, 4, 7], 0, lowest_wins=True)
    (3.0, -6.0)
    """
    others = [t for s, t in enumerate(totals) if s != seat]
    if lowest_wins:
        return float(min(others) - totals[seat])
    return float(totals[seat] - max(others))
