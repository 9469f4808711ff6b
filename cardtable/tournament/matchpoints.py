"""Duplicate scoring, as bridge clubs score pairs: matchpoints.

Every table plays the same deal with the same cards in each seat. A seat's
**result** on a deal is its points on that deal less the mean of the other
seats' points at its table (so a deal on which everybody scores a lot is no
better in itself than a lean one; what counts is doing well with the cards
one held). That result is compared with the result of the same seat at every
other table: 2 matchpoints for each one it beats, 1 for each tie, 0 for each
it loses to. The matchpoints become a percentage of the most it could have
earned (2 for each other table), so 100% is the best result in that seat and
50% the middle. A tournament's standing is the sum of an entrant's
percentages over its deals.
"""

from __future__ import annotations

from collections.abc import Sequence


def seat_results(points: Sequence[float]) -> list[float]:
    """Each seat's result on one deal at one table: its points less the mean
    of the others' points.

    >>> seat_results([6, 2, 1])
    [4.5, -1.5, -3.0]
    """
    total, n = sum(points), len(points)
    return [p - (total - p) / (n - 1) for p in points]


def matchpoint_percentages(results: Sequence[float]) -> list[float]:
    """The same seat's results on one deal at every table, as percentages:
    2 for each table beaten, 1 for each tie, of 2 for each other table.
    A seat alone on its deal (one table) gets the middle, 50%.

    >>> matchpoint_percentages([3.0, 1.0, 1.0, -2.0])
    [100.0, 50.0, 50.0, 0.0]
    """
    others = len(results) - 1
    if others == 0:
        return [50.0]
    return [
        100 * sum(_matchpoints(r, o) for j, o in enumerate(results) if j != i) / (2 * others)
        for i, r in enumerate(results)
    ]


def _matchpoints(result: float, other: float) -> int:
    return 2 if result > other else 1 if result == other else 0
