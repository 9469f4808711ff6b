"""What game analysis needs from MyRummy 111 (the manifest's ``evaluator``).

Playouts follow the heuristic's rule of thumb read straight off the state
(:func:`~cardtable.games.myrummy_111.bots.playout.policy_move`: the mover's own hand
and the face-up middle only, MR-5), about twice as fast as seating the
heuristic bot on views. Placements that leave the same hand (MR-4.4 lists
``p left`` and ``p-1 right`` both) are one decision.

A round of MyRummy 111 runs for dozens of turns, and who declares first
swings a playout's outcome so much that its value is mostly noise by the
round's end. Playouts therefore stop after ``CUTOFF_TURNS`` turns of every
seat, as the search bot's do, and the position is valued by the race
(:func:`~cardtable.games.myrummy_111.bots.playout.round_outlook`: each seat's
chance to declare first from its distance to sorted, and the round's points
then, MR-6.2/6.3), each outcome's standings valued by the analysis's own win
model (the game's end, MR-7, exactly).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.core.game import Game, Move, State, View
from cardtable.games.myrummy_111.bots.playout import game_value, policy_move, round_outlook
from cardtable.games.myrummy_111.exchange import hand_after_place
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.moves import Place
from cardtable.games.myrummy_111.scoring import game_over
from cardtable.games.myrummy_111.state import MyRummyState
from cardtable.games.myrummy_111.view import MyRummyView

__all__ = ["CUTOFF_TURNS", "MyRummyEvaluator", "RaceCutoff"]

CUTOFF_TURNS = 4  # turns of every seat a playout plays before the race values it
# How sharply the race follows the turns each seat needs, for the cutoff:
# fitted against playing the round out (benchmarks/analysis_calibration.py:
# mean square error 0.049 at the search bot's 2.0, 0.044 at 3.0, 0.042 at 4.0,
# where the bands of estimated win chance also agree with play).
CUTOFF_TEMPERATURE = 4.0

# (totals after a round, seat, round that ended) -> chance to win, or None
Chance = Callable[[Sequence[int], int, int], float | None]


class RaceCutoff:
    """Values a round in play by the race to declare (module doc)."""

    def __init__(self, game: MyRummy111, turns: int) -> None:
        self.moves = 2 * turns * game.num_players  # a turn is a take and a place (MR-4)
        self.sym = game.symbol_lookup

    def value(self, state: State, seat: int, chance: Chance) -> tuple[float, float]:
        assert isinstance(state, MyRummyState)
        opts = state.options
        round_number = state.round_number
        rounds_left = None if opts.rounds is None else opts.rounds - round_number
        win = points = 0.0
        outlook = round_outlook(state, self.sym, CUTOFF_TEMPERATURE)
        for p, scored in outlook:
            totals = [b + x for b, x in zip(state.scores, scored, strict=True)]
            over = game_over(totals, round_number, opts.rounds, opts.target)
            after = None if over else chance(totals, seat, round_number)
            if after is None:  # the game's end (MR-7), or standings the model never saw
                after = game_value(totals, seat, opts.target, 0 if over else rounds_left, scored)
            win += p * after
            points += p * scored[seat]
        total = sum(p for p, _ in outlook)
        return win / total, points / total


class MyRummyEvaluator:
    """A ``cardtable.analysis.evaluator.Evaluator`` for MyRummy 111."""

    # Playout moves per CPU second on one core of the reference machine (2
    # shared cores), determinization, cloning and the cutoff's valuation
    # included: measured 23,000 in a 2-player game's analysis.
    moves_per_second = 22_000.0

    def __init__(self, game: Game) -> None:
        assert isinstance(game, MyRummy111)
        self.game = game
        self.cutoff = RaceCutoff(game, CUTOFF_TURNS)

    def policy(self, rng: random.Random) -> Callable[[State], Move]:
        def choose(state: State) -> Move:
            assert isinstance(state, MyRummyState)
            return policy_move(state, rng)

        return choose

    def groups(self, view: View, legal: Sequence[Move]) -> Sequence[Sequence[int]]:
        if not isinstance(view, MyRummyView) or view.hand is None or view.taken_card is None:
            return [[i] for i in range(len(legal))]
        by_result: dict[Any, list[int]] = {}
        for i, move in enumerate(legal):
            key: Any = i
            if isinstance(move, Place):
                after = hand_after_place(view.hand, view.taken_card, move.position, move.side)
                key = (tuple(after), move.declare)
            by_result.setdefault(key, []).append(i)
        return list(by_result.values())
