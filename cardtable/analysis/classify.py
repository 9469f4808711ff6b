"""Naming a decision by what it cost, only where the numbers are clear.

The loss is the drop in the chance of winning the game, in percentage
points, against the best alternative (:mod:`.estimate`). With ``lo`` the
loss minus two standard errors and ``hi`` the most any other alternative
may win more (its paired difference plus two standard errors; below zero
when every other alternative is clearly worse):

* ``blunder`` / ``mistake`` / ``inaccuracy``: the most severe class whose
  threshold ``lo`` reaches (so at least that bad with about 97.5%
  confidence; a loss that might only be a mistake is called one);
* ``best``: ``hi`` below the inaccuracy threshold and the move played is
  the alternative with the highest estimate (or level with it);
* ``good``: ``hi`` below the inaccuracy threshold, another move estimated
  better (clearly a small loss, if any);
* ``unclear``: none of these (more budget narrows it).

So a move is called best or good only when it clearly is not even an
inaccuracy, and a blunder only when it clearly is one.

Forced decisions (a single legal move) get no class.

>>> classify(played_is_best=False, loss=20.0, se=2.0, hi=24.0)
'blunder'
>>> classify(played_is_best=False, loss=20.0, se=4.0, hi=28.0)
'mistake'
>>> classify(played_is_best=False, loss=1.0, se=0.5, hi=2.0)
'good'
>>> classify(played_is_best=True, loss=0.0, se=1.0, hi=4.0)
'unclear'
>>> classify(played_is_best=True, loss=0.0, se=0.0, hi=-50.0)
'best'
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
    lo = loss - 2 * se
    for name, threshold in reversed(THRESHOLDS):
        if lo >= threshold:
            return name
    if hi >= THRESHOLDS[0][1]:
        return "unclear"
    return "best" if played_is_best else "good"


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
