"""Exact endgames for Marshmallow Test: the last tricks of a round, solved.

Near a round's end few cards are left, and the rest of the round can be
searched to its end instead of played out by a policy. What the seat cannot
see is still hidden: with 2 to 4 players cards lie aside from the deal, and a
player who goes out puts their hand aside unseen (MT-3.1, MT-6.2), so the
unseen cards are rarely determined by the view. The bot therefore solves a
handful of determinizations (each drawn with the game's own
:func:`~cardtable.games.marshmallow_test.determinize.determinize`, so from the
view alone) and plays the move with the best mean; where the view does fix
every card (5 players, nobody out) each sample is the true position.

Each sample is solved exactly by **max-n**: at every decision the seat to
move picks the card that maximises its own chance of winning the game, seen
from the round's end (1 for reaching the target, MT-8.1; otherwise the same
softmax of the scores :mod:`.pimc` uses, :func:`.playout.score_chances`).
A transposition table solves each position once, however its tricks were
won: with 2 players and 7 cards each, a few thousand positions rather than
25 million orders of play. Before the endgame (more positions to solve than
:data:`POSITION_LIMIT`) it plays as :class:`~.pimc.PIMCBot` with the same
budget.

>>> import random
>>> from cardtable.games.marshmallow_test import MarshmallowTest
>>> game = MarshmallowTest(players=3)
>>> view = game.new_game(random.Random(1)).view(0)  # 12 cards each: 2 billion positions
>>> EndgameBot(0, game, random.Random(2)).in_endgame(view)
False
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot
from cardtable.games.marshmallow_test.bots.playout import score_chances
from cardtable.games.marshmallow_test.determinize import determinize
from cardtable.games.marshmallow_test.game import MarshmallowTest
from cardtable.games.marshmallow_test.state import MarshmallowState
from cardtable.games.marshmallow_test.view import MarshmallowView

# The most positions at the starts of tricks (:func:`positions_to_solve`)
# for the bot to solve the rest of the round. Measured on one core here
# (heuristic games, round 1): 2 players with 7 cards each (3,432) took a
# median 29 ms a sample and at most 0.13 s; 3 players with 5 each (2,252) at
# most 17 ms; 4 players with 4 each (1,810) at most 9 ms. One more card each
# costs five to twenty times as much.
POSITION_LIMIT = 4000
SAMPLES = 16  # determinizations solved per endgame decision
# Solved before a clock budget may stop the sampling: a bot given seconds
# (the levels are) keeps to them within one sample's time, however slow the
# machine; one given iterations always solves ``samples``.
MIN_SAMPLES = 4


def positions_to_solve(view: MarshmallowView) -> int:
    """How many ways the players still in can be left holding the same number
    of cards fewer, summed over the tricks to come: the positions at the
    starts of tricks the solver may meet (what the transposition table
    bounds; the cards of a trick in progress multiply it by a few)."""
    sizes = [size for seat, size in enumerate(view.hand_sizes) if not view.out[seat]]
    return sum(
        math.prod(math.comb(size, played) for size in sizes) for played in range(max(sizes) + 1)
    )


def end_value(state: MarshmallowState) -> tuple[float, ...]:
    """Each seat's chance of winning the game from a round that has ended."""
    if state.finished:
        winners = state.winners
        return tuple(1 / len(winners) if s in winners else 0.0 for s in range(len(state.scores)))
    return _chances(state.scores)


@lru_cache(maxsize=4096)
def _chances(scores: tuple[int, ...]) -> tuple[float, ...]:
    # Many leaves end on the same scores: numpy once per distinct scores.
    return tuple(float(c) for c in score_chances(np.array([scores]), len(scores))[0])


Values = dict[tuple[object, ...], tuple[float, ...]]


def solve(state: MarshmallowState, known: Values | None = None) -> tuple[float, ...]:
    """The max-n value of the rest of the round, every card seen: each seat
    to move plays the card best for itself (the first of equals).

    ``known`` holds the positions already solved on these cards, by
    :meth:`~.state.MarshmallowState.position_key`: tricks won in another
    order, or cards of a trick played in another order that leave the same
    hands, are solved once (a transposition table; pass one dict for every
    move solved from one sample)."""
    if state.finished or state.awaiting_deal:
        return end_value(state)
    if known is None:
        known = {}
    key = state.position_key()
    found = known.get(key)
    if found is not None:
        return found
    seat = state.to_move
    assert seat is not None
    best: tuple[float, ...] | None = None
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        value = solve(child, known)
        if best is None or value[seat] > best[seat]:
            best = value
    assert best is not None
    known[key] = best
    return best


class EndgameBot:
    """:class:`~.pimc.PIMCBot` (or the search ``searcher`` names) until the
    round's rest is small enough, then max-n solved exactly on ``samples``
    determinizations (fewer, though at least :data:`MIN_SAMPLES`, where
    ``budget.seconds`` runs out first)."""

    searcher: type[PIMCBot] = PIMCBot  # what plays before the endgame

    def __init__(
        self,
        seat: int,
        game: MarshmallowTest,
        rng: random.Random,
        budget: Budget | None = None,
        *,
        samples: int = SAMPLES,
        position_limit: int = POSITION_LIMIT,
    ) -> None:
        self.seat = seat
        self.game = game
        self.rng = rng
        self.samples = samples
        self.position_limit = position_limit
        self.seconds = None if budget is None else budget.seconds
        self.search = self.searcher(seat, game, rng, budget)
        self.last_values: tuple[float, ...] = ()  # mean solved value per move, last endgame
        self.last_samples = 0  # determinizations solved, last endgame

    def in_endgame(self, view: MarshmallowView) -> bool:
        return not view.trump_due and positions_to_solve(view) <= self.position_limit

    def choose(self, view: MarshmallowView, legal: Sequence[Any]) -> Any:
        if not isinstance(view, MarshmallowView) or view.seat != self.seat:
            raise TypeError("EndgameBot decides from its own seat's MarshmallowView only")
        if len(legal) == 1 or not self.in_endgame(view):
            return self.search.choose(view, legal)
        values = self.solve_moves(view, legal)
        return legal[max(range(len(legal)), key=values.__getitem__)]

    def solve_moves(self, view: MarshmallowView, legal: Sequence[Any]) -> tuple[float, ...]:
        """Each move's mean solved chance of winning the game over the samples."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        totals = [0.0] * len(legal)
        solved = 0
        while solved < self.samples:
            if solved >= MIN_SAMPLES and deadline is not None and time.perf_counter() > deadline:
                break
            solved += 1
            state = determinize(self.game, view, self.rng)
            state.detach_rng()  # the round's end is the leaf: deal nothing after it
            known: Values = {}
            for i, move in enumerate(legal):
                child = state.clone()
                child.apply(move)
                totals[i] += solve(child, known)[self.seat]
        self.last_samples = solved
        self.last_values = tuple(t / solved for t in totals)
        return self.last_values
