"""The numbers of a paired comparison: two bots, each outcome measured in pairs.

A duplicate comparison plays each position twice, once with bot X and once
with bot Y in the same seat, against the same field with the same seeds. The
two outcomes of a pair share the position's luck, so they are correlated, and
the difference of two correlated means is known far better than the
difference of two independent ones: its variance is
``σx² + σy² − 2ρσxσy`` instead of ``σx² + σy²``.

Everything here is a pure function of the outcomes, in the standard library:

- :func:`~cardtable.arena.stats.wilson_interval` for each bot's own rate;
- :func:`paired_interval`: the mean of the differences ± z standard errors
  (normal approximation: fine from a few dozen pairs on);
- :func:`correlation`: Pearson's ρ between the two outcomes of the pairs;
- :func:`pairs_needed`: how many pairs make a difference of ``delta`` show,
  at 95% confidence two-sided with 80% power:
  ``n = (z₀.₉₇₅ + z₀.₈)² · var(X − Y) / delta²``. With independent games
  near 50% (``var = 0.25 + 0.25``) and ``delta`` 0.05 this is 1,570 games for
  each bot, the "≈1,500 per bot for 5 points" of ``docs/strength.md``.

>>> pairs_needed(variance=0.5, delta=0.05)
1570
>>> round(correlation([1, 0, 1, 0], [1, 0, 0, 0]), 4)
0.5774
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.arena.stats import Z95, wilson_interval

Z80_POWER = 0.8416212335729143  # the one-sided 80% quantile of the normal distribution


def mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def sample_variance(values: Sequence[float]) -> float:
    """The unbiased variance (``n − 1`` in the denominator); 0 for one value."""
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.fsum((v - centre) ** 2 for v in values) / (len(values) - 1)


def paired_interval(
    xs: Sequence[float], ys: Sequence[float], z: float = Z95
) -> tuple[float, float, float]:
    """The mean of ``x − y`` over the pairs and its interval ``(mean, low, high)``:
    ``mean ± z · sd(x − y) / √n``, ``sd`` with ``n − 1``.

    >>> [round(v, 4) for v in paired_interval([1, 1, 0, 1], [0, 1, 0, 0])]
    [0.5, -0.0658, 1.0658]
    """
    diffs = _differences(xs, ys)
    centre = mean(diffs)
    half = z * math.sqrt(sample_variance(diffs) / len(diffs))
    return (centre, centre - half, centre + half)


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation of the pairs' two outcomes; 0 where either
    outcome never varies (no shared luck can be measured then)."""
    _differences(xs, ys)
    mx, my = mean(xs), mean(ys)
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return 0.0
    return sxy / math.sqrt(sxx * syy)


def pairs_needed(
    variance: float, delta: float, z_confidence: float = Z95, z_power: float = Z80_POWER
) -> int:
    """Pairs (or, with ``variance`` of two independent outcomes, games for
    each bot) for a true difference of ``delta`` to be found at 95% two-sided
    with 80% power: ``ceil((z_confidence + z_power)² · variance / delta²)``."""
    if delta <= 0:
        raise ValueError(f"delta {delta}: give a difference above 0")
    return math.ceil((z_confidence + z_power) ** 2 * variance / delta**2)


@dataclass(frozen=True, slots=True)
class PairedSummary:
    """One outcome (win share, or the share of opponents finished ahead of)
    of X and Y over the same pairs."""

    pairs: int
    x: float  # X's mean outcome
    x_ci95: tuple[float, float]  # Wilson, counting each pair as one trial
    y: float
    y_ci95: tuple[float, float]
    difference: float  # mean of x − y
    difference_ci95: tuple[float, float]  # paired interval
    correlation: float
    pairs_needed: int  # for `delta` at the measured variance of x − y
    unpaired_needed: int  # games per bot for `delta` with independent games, same variances
    delta: float


def summarize(xs: Sequence[float], ys: Sequence[float], delta: float = 0.05) -> PairedSummary:
    """Every figure of one outcome. The outcomes lie in [0, 1]; Wilson's
    interval on their sum over ``n`` trials is exact for wins and cautious
    for fractions (a fraction varies less than a coin with the same mean)."""
    n = len(_differences(xs, ys))
    centre, low, high = paired_interval(xs, ys)
    unpaired = sample_variance(xs) + sample_variance(ys)
    return PairedSummary(
        pairs=n,
        x=mean(xs),
        x_ci95=wilson_interval(math.fsum(xs), n),
        y=mean(ys),
        y_ci95=wilson_interval(math.fsum(ys), n),
        difference=centre,
        difference_ci95=(low, high),
        correlation=correlation(xs, ys),
        pairs_needed=pairs_needed(sample_variance(_differences(xs, ys)), delta),
        unpaired_needed=pairs_needed(unpaired, delta),
        delta=delta,
    )


def _differences(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    if len(xs) != len(ys):
        raise ValueError(f"{len(xs)} outcomes of X against {len(ys)} of Y: pairs need both")
    if not xs:
        raise ValueError("no pairs: play at least one")
    return [x - y for x, y in zip(xs, ys, strict=True)]
