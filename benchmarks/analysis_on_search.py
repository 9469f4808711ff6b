"""The analysis and the puzzles on the learned policy: what changes (issue 26).

    python benchmarks/analysis_on_search.py [--bot learned] [--puzzles 328] [--calibration 60]

The analysis values a move by playing the rest of the round out, every seat
following the game's playout policy: for Marshmallow Test its ``heuristic``
bot, each seat deciding from its own view. Issue 26's ``hard`` level plays
out with a policy learned from the search instead. This script asks what the
analysis and the shipped puzzles would become with playouts by ``--bot``
(``learned`` by default, the network the playouts of ``hard`` are distilled
from) in every seat:

- **Puzzles kept.** Each of the first ``--puzzles`` shipped Marshmallow Test
  puzzles is valued again as the build's recheck values it (the same budget,
  seed and rule: its solution must be found best again), once with the
  shipped evaluator and once with ``--bot``'s playouts. Printed: how many
  each keeps, how many both keep, the CPU seconds each took, and the ids of
  the puzzles one of them does not keep (the first to drop or rebuild if
  the analysis moves to those playouts).
- **Calibration.** ``benchmarks/analysis_calibration.py``'s comparison of the
  analysis' estimates with exact values (every deal consistent with the
  view, near a round's end), for both evaluators: a standard normal has
  95.4% of its z values within 2, 99.7% within 3 and a mean square of 1.

Counts, not the clock, bound the work, so a loaded machine gives the same
figures, only later.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import cardtable
from cardtable.analysis.evaluator import BotEvaluator
from cardtable.analysis.run import Analyzer
from cardtable.bots import make_bot
from cardtable.core.errors import CardtableError
from cardtable.learn.build import rechecked
from cardtable.learn.puzzles import PuzzleSet, load_puzzles

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.analysis.test_calibration import describe, mt_zs

GAME = "marshmallow-test"


def build_budget(puzzles: PuzzleSet) -> float:
    """The budget the set was built and rechecked at (its last build's)."""
    budget = puzzles.builds[-1]["budget"]
    assert isinstance(budget, int | float)
    return float(budget)


def at_least_one(text: str) -> int:
    """A count of 1 or more, else argparse's one-line usage error."""
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number, 1 or more")
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="learned", help="the bot every playout seat follows")
    parser.add_argument("--puzzles", type=at_least_one, default=328, help="puzzles to recheck")
    parser.add_argument("--calibration", type=at_least_one, default=60, help="positions")
    args = parser.parse_args()

    shipped = load_puzzles(GAME)
    game = cardtable.load(shipped.game, **shipped.options)
    try:
        make_bot(args.bot, game, 0, random.Random(0))
    except CardtableError as error:
        parser.error(f"--bot {args.bot}: {error}")
    puzzles = shipped.puzzles[: args.puzzles]
    budget = build_budget(shipped)
    kept: dict[str, set[str]] = {}
    for label, analyzer in (
        ("shipped evaluator", Analyzer(game)),
        (f"{args.bot} in every seat", Analyzer(game, evaluator=BotEvaluator(game, args.bot))),
    ):
        start = time.process_time()
        kept[label] = {p.id for p in rechecked(analyzer, puzzles, budget)}
        seconds = time.process_time() - start
        print(
            f"puzzles, {label}: {len(kept[label])} of {len(puzzles)} keep their solution"
            f" ({seconds:.0f} CPU s)",
            flush=True,
        )
    both = set.intersection(*kept.values())
    print(f"puzzles kept by both: {len(both)} of {len(puzzles)}", flush=True)
    changed = sorted({p.id for p in puzzles} - both)
    print(f"puzzles whose solution one of them does not find: {' '.join(changed)}", flush=True)

    print(describe("calibration, shipped evaluator", mt_zs(args.calibration, 0.1)), flush=True)
    print(
        describe(f"calibration, {args.bot} in every seat", mt_zs(args.calibration, 0.1, args.bot)),
        flush=True,
    )


if __name__ == "__main__":
    main()
