"""The analysis classes follow exactly the rule the browser's legend states
(``analysis.explain``): a clear loss (more than two standard errors) is named
by its size; "best" never costs anything; "unclear" only where no loss is
clear yet another move may be an inaccuracy better (issue 16, item 9)."""

from __future__ import annotations

import itertools

from cardtable.analysis.classify import THRESHOLDS, classify

LIMITS = dict(THRESHOLDS)
LOSSES = [-1.0, 0.0, 0.3, 1.0, 2.0, 2.9, 3.0, 3.5, 5.0, 6.9, 7.0, 10.0, 15.0, 30.0]
ERRORS = [0.0, 0.25, 0.5, 1.0, 2.0, 5.0]
RIVALS = [-50.0, 0.0, 2.9, 3.0, 8.0]


def size_class(loss: float) -> str:
    return next((name for name, limit in reversed(THRESHOLDS) if loss >= limit), "good")


def test_every_class_is_the_one_the_legend_states() -> None:
    for loss, se, hi, best in itertools.product(LOSSES, ERRORS, RIVALS, (True, False)):
        label = classify(played_is_best=best, loss=loss, se=se, hi=hi)
        clear = loss - 2 * se > 0
        if clear:
            assert label == size_class(loss), (loss, se, hi, best, label)
        elif hi >= LIMITS["inaccuracy"]:
            assert label == "unclear", (loss, se, hi, best, label)
        else:
            assert label == ("best" if best and loss <= 0 else "good"), (loss, se, hi, best)


def test_a_loss_three_or_four_standard_errors_wide_is_never_unclear() -> None:
    for se in (0.5, 1.0, 2.0):
        for width in (3.0, 3.5, 4.0):
            label = classify(played_is_best=False, loss=width * se, se=se, hi=20.0)
            assert label != "unclear" and label == size_class(width * se)


def test_best_never_shows_a_cost() -> None:
    for loss, se, hi in itertools.product(LOSSES, ERRORS, RIVALS):
        if classify(played_is_best=True, loss=loss, se=se, hi=hi) == "best":
            assert loss <= 0
