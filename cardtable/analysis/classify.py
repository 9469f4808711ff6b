"""Naming a decision by what it cost, in the words the browser's legend uses.

The loss is the drop in the chance of winning the game, in percentage
points, against the best alternative (:mod:`.estimate`), ``loss ± se``. With
``hi`` the most any other alternative may win more (its paired difference
plus two standard errors; below zero when every other alternative is
clearly worse):

* a **clear loss** (``loss`` more than two standard errors above zero) is
  named by its size: ``blunder`` from 15 points, ``mistake`` from 7,
  ``inaccuracy`` from 3, ``good`` below 3;
* no clear loss and ``hi`` below the inaccuracy threshold: ``best`` when the
  move played has the highest estimate and costs nothing measured
  (``loss <= 0``: a "best" move never shows a cost), else ``good``;
* otherwise ``unclear``: no clear loss, yet another move may be an
  inaccuracy or more better: too close to call at this budget (more budget
  decides it).

So a loss three or four standard errors wide is never unclear, and the
browser's legend (``analysis.explain`` in its catalogs) states exactly this.

Forced decisions (a single legal move) get no class.

>>> classify(played_is_best=False, loss=20.0, se=2.0, hi=24.0)
'blunder'
>>> classify(played_is_best=False, loss=8.0, se=2.5, hi=13.0)
'mistake'
>>> classify(played_is_best=False, loss=3.5, se=1.0, hi=5.5)
'inaccuracy'
>>> classify(played_is_best=False, loss=1.0, se=0.3, hi=2.0)
'good'
>>> classify(played_is_best=True, loss=0.0, se=1.0, hi=4.0)
'unclear'
>>> classify(played_is_best=True, loss=0.0, se=0.0, hi=-50.0)
'best'
>>> classify(played_is_best=True, loss=0.4, se=0.5, hi=1.0)
'good'
>>> round(accuracy([0.0, 10.0]), 1)
81.8
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["CLASSES", "THRESHOLDS", "accuracy", "classify", "decision_accuracy"]

# Percentage points of win chance lost, mildest first.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("inaccuracy", 3.0),
    ("mistake", 7.0),
    ("blunder", 15.0),
)
CLASSES = ("best", "good", "unclear", *(name for name, _ in THRESHOLDS))


def classify(*, played_is_best: bool, loss: float, se: float, hi: float) -> str:
    """The class of a decision whose loss (percentage points) is ``loss ± se``
    and no alternative of which wins more than ``hi`` points more."""
    if loss - 2 * se > 0:  # a clear loss: named by its size
        return next((name for name, limit in reversed(THRESHOLDS) if loss >= limit), "good")
    if hi >= THRESHOLDS[0][1]:
        return "unclear"
    return "best" if played_is_best and loss <= 0 else "good"


def decision_accuracy(loss: float) -> float:
    """0–100 for one decision losing ``loss`` percentage points of win chance:
    lichess's curve ``103.1668 e^(-0.04354 loss) - 3.1669``, clipped (a loss
    of 0 is 100, 5 points about 80, 20 points about 40)."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss)) - 3.1669
    return min(100.0, max(0.0, value))


def accuracy(losses: Sequence[float]) -> float:
    """A player's accuracy: the mean of :func:`decision_accuracy` over their
    unforced decisions (100 with none)."""
    if not losses:
        return 100.0
    return math.fsum(decision_accuracy(x) for x in losses) / len(losses)
