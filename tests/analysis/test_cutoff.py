"""A playout cut off by its evaluator's cutoff takes the cutoff's value, and
only while the round of the decision is in play (docs/analysis.md, "Playouts")."""

from __future__ import annotations

import random
from collections.abc import Sequence

import cardtable
from cardtable.analysis.evaluator import BotEvaluator, ChanceAfterRound
from cardtable.analysis.playout import play_out
from cardtable.core.game import State
from tests.analysis.conftest import play


class FixedCutoff:
    """Stops after ``moves`` and values every position alike, counting its calls."""

    def __init__(self, moves: int) -> None:
        self.moves = moves
        self.calls: list[tuple[int, int]] = []

    def value(self, state: State, seat: int, chance: ChanceAfterRound) -> tuple[float, float]:
        self.calls.append((state.round_number, seat))
        return 0.25, 7.0


def no_chance(totals: Sequence[int], seat: int, round_ended: int) -> float | None:
    return None  # the playout must then play to the game's end


def playout(cutoff: FixedCutoff | None, seed: int = 3) -> tuple[float, float, int]:
    start = play("marshmallow-test", 4, seed, moves=5)
    evaluator = BotEvaluator(cardtable.load("marshmallow-test", players=4))
    state = start.clone(random.Random(1))
    move = state.legal_moves()[0]
    outcome = play_out(state, 1, move, evaluator.policy(random.Random(2)), no_chance, cutoff)
    return outcome.win, outcome.points, outcome.moves


def test_a_cutoff_stops_the_playout_and_gives_its_value() -> None:
    cutoff = FixedCutoff(moves=4)
    win, points, moves = playout(cutoff)
    assert (win, points, moves) == (0.25, 7.0, 4)
    assert cutoff.calls == [(1, 1)]  # once, in the round of the decision, for the seat


def test_a_cutoff_beyond_the_round_changes_nothing() -> None:
    cutoff = FixedCutoff(moves=10_000)
    assert playout(cutoff) == playout(None)
    assert cutoff.calls == []  # the round ended first: the rounds after are played out
    win, _, moves = playout(None)
    # No win model: the playout went on to the game's end (MT-8), many rounds.
    assert win in (0.0, 1 / 4, 1 / 3, 1 / 2, 1.0)
    assert moves > 100
