"""What game analysis needs from MyRummy 111 (the manifest's ``evaluator``).

Playouts follow the heuristic's rule of thumb read straight off the state
(:func:`~cardtable.games.myrummy_111.bots.playout.policy_move`: the mover's own hand
and the face-up middle only, MR-5), about twice as fast as seating the
heuristic bot on views. Placements that leave the same hand (MR-4.4 lists
``p left`` and ``p-1 right`` both) are one decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.core.game import Game, Move, State, View
from cardtable.games.myrummy_111.bots.playout import policy_move
from cardtable.games.myrummy_111.exchange import hand_after_place
from cardtable.games.myrummy_111.moves import Place
from cardtable.games.myrummy_111.state import MyRummyState
from cardtable.games.myrummy_111.view import MyRummyView

__all__ = ["MyRummyEvaluator"]


class MyRummyEvaluator:
    """A ``cardtable.analysis.evaluator.Evaluator`` for MyRummy 111."""

    # Playout moves per second on one core of the reference machine (2 shared
    # cores), determinization and cloning included.
    moves_per_second = 12_000.0

    def __init__(self, game: Game) -> None:
        self.game = game

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
