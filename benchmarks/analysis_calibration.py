"""Calibration of analysis estimates against exact values, on more positions than the test.

    python benchmarks/analysis_calibration.py [--mt 60] [--mr 30] [--cutoff 400]

Runs ``tests/analysis/test_calibration.py``'s comparisons (see its module
doc: exact values over every deal consistent with the view, near the end of
a round) over more positions and prints how the z values
``(estimate - exact) / se`` are spread: a standard normal has 95.4% within 2,
99.7% within 3 and a mean square of 1.

Then, for each game whose evaluator cuts playouts off, the cutoff's estimate
against what it stands for: at positions from self-play (a random moment of
a round, the seat to move), the cutoff's value of the position after the
policy's move, and the mean of ``REPEATS`` playouts of the rest of the round
from there (the plain estimate, with the same win model); printed: their
mean difference with a 95% interval, and both means by bands of the
cutoff's estimate.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
from pathlib import Path

import cardtable
from cardtable.analysis.evaluator import evaluator_for
from cardtable.analysis.playout import play_out
from cardtable.analysis.winmodel import fit_win_model
from cardtable.core.registry import game_names, manifest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.analysis.test_calibration import describe, mr_zs, mt_zs

REPEATS = 4
BANDS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0001)


def cutoff_pairs(
    name: str, players: int, positions: int
) -> list[tuple[float, float, float, float]]:
    """``(cutoff win, played-out win, cutoff points, played-out points)`` per position."""
    game = cardtable.load(name, players=players)
    evaluator = evaluator_for(game)
    cutoff = evaluator.cutoff
    assert cutoff is not None
    chance = fit_win_model(game, evaluator).chance
    rng = random.Random(0)
    pairs: list[tuple[float, float, float, float]] = []
    while len(pairs) < positions:
        state = game.new_game(random.Random(rng.getrandbits(32)))
        policy = evaluator.policy(random.Random(rng.getrandbits(32)))
        for _ in range(rng.randrange(200)):
            if state.finished:
                break
            state.apply(policy(state))
        seat = state.to_move
        if state.finished or seat is None:
            continue
        move = policy(state)
        after = state.clone(random.Random(1))
        after.apply(move)
        if after.finished or after.round_number != state.round_number:
            continue  # the round ended with the move: nothing left to estimate
        win, points = cutoff.value(after, seat, chance)
        played = [
            play_out(
                state.clone(random.Random(r)),
                seat,
                move,
                evaluator.policy(random.Random(r)),
                chance,
            )
            for r in range(REPEATS)
        ]
        pairs.append(
            (
                win,
                statistics.fmean(o.win for o in played),
                points,
                statistics.fmean(o.points for o in played),
            )
        )
    return pairs


def describe_cutoff(name: str, pairs: list[tuple[float, float, float, float]]) -> list[str]:
    def gap(diffs: list[float]) -> str:
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        return f"{statistics.fmean(diffs):+.3f} ± {half:.3f}"

    lines = [
        f"{name}, the cutoff against playing the round out ({len(pairs)} positions):"
        f" win {gap([w - p for w, p, _, _ in pairs])} (cutoff - played),"
        f" points {gap([c - p for _, _, c, p in pairs])}"
    ]
    for low, high in itertools.pairwise(BANDS):
        band = [(w, p) for w, p, _, _ in pairs if low <= w < high]
        if band:
            lines.append(
                f"  cutoff win {low:.1f}–{min(high, 1):.1f}: {len(band)} positions, cutoff mean"
                f" {statistics.fmean(w for w, _ in band):.3f}, played out"
                f" {statistics.fmean(p for _, p in band):.3f}"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mt", type=int, default=60, help="Marshmallow Test positions")
    parser.add_argument("--mr", type=int, default=30, help="MyRummy 111 hands")
    parser.add_argument("--cutoff", type=int, default=400, help="positions per cutoff check")
    args = parser.parse_args()
    print(describe("Marshmallow Test, last 2-3 tricks (win and points)", mt_zs(args.mt, 0.1)))
    print(describe("MyRummy 111, one exchange from sorted (points)", mr_zs(args.mr, 0.3)))
    for name in game_names():
        if evaluator_for(cardtable.load(name)).cutoff is None:
            continue
        for players in manifest(name).players[:2]:  # the two smallest tables
            pairs = cutoff_pairs(name, players, args.cutoff)
            print("\n".join(describe_cutoff(f"{name} {players}p", pairs)))


if __name__ == "__main__":
    main()
