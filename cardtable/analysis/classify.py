"""Naming a decision by what it cost, in the words the browser's legend uses
(``docs/analysis.md``, "Classes").

The loss is the drop in the chance of winning the game, in percentage
points, against the best alternative (:mod:`.estimate`: the top of the
alternatives sorted by win chance), ``loss ± se``. One rule:

* ``best``: the move played is that top (or level with it);
* ``inaccuracy``, ``mistake``, ``blunder``: the loss is **clear** (more than
  ``CLEAR_SE`` standard errors above zero) **and** at least the class's
  threshold: 3, 7 or 15 points;
* ``fine``: every other decision: a loss too small to name, or too
  uncertain to be sure of at this budget. Nothing better is claimed for it.

So a decision named a loss always has a better move that wins clearly
(and by at least 3 points) more, and one that is not names no better move.

Forced decisions (a single legal move) get no class.

>>> classify(played_is_best=False, loss=20.0, se=2.0)
'blunder'
>>> classify(played_is_best=False, loss=8.0, se=2.5)
'mistake'
>>> classify(played_is_best=False, loss=3.5, se=1.0)
'inaccuracy'
>>> classify(played_is_best=False, loss=1.0, se=0.3)  # clear, but under 3
'fine'
>>> classify(played_is_best=False, loss=16.0, se=8.5)  # 15 or more, but not clear
'fine'
>>> classify(played_is_best=True, loss=0.0, se=1.0)
'best'
>>> round(accuracy([0.0, 10.0]), 1)
81.8
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "CLASSES",
    "CLEAR_SE",
    "NAMED",
    "THRESHOLDS",
    "accuracy",
    "classify",
    "decision_accuracy",
]

# Percentage points of win chance lost, mildest first.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("inaccuracy", 3.0),
    ("mistake", 7.0),
    ("blunder", 15.0),
)
NAMED = tuple(name for name, _ in THRESHOLDS)  # the classes that name a loss
CLASSES = ("best", "fine", *NAMED)
CLEAR_SE = 2.0  # a loss is clear when it is more than this many standard errors above zero


def classify(*, played_is_best: bool, loss: float, se: float) -> str:
    """The class of a decision whose loss (percentage points) is ``loss ± se``;
    ``played_is_best``: the move played is the best alternative found."""
    if played_is_best:
        return "best"
    if loss - CLEAR_SE * se > 0:
        return next((name for name, limit in reversed(THRESHOLDS) if loss >= limit), "fine")
    return "fine"


def decision_accuracy(loss: float) -> float:
    """0–100 (percent) for one decision losing ``loss`` percentage points of
    win chance: lichess's curve ``103.1668 e^(-0.04354 loss) - 3.1669``,
    clipped (a loss of 0 is 100, 5 points about 80, 20 points about 40)."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss)) - 3.1669
    return min(100.0, max(0.0, value))


def accuracy(losses: Sequence[float]) -> float:
    """A player's accuracy in percent: the mean of :func:`decision_accuracy`
    over their unforced decisions (100 with none)."""
    if not losses:
        return 100.0
    return math.fsum(decision_accuracy(x) for x in losses) / len(losses)
