"""The lab's statistics: intervals for means, ratios and shares, tests against fair values.

Standard library only, so a figure costs no extra dependency. Every interval
is a two-sided 95% interval; every test returns a two-sided p-value.

- Shares use the arena's Wilson interval.
- Means use the normal interval of the mean (games are many, so the central
  limit theorem holds well; the interval is the mean ± 1.96 standard errors).
- Figures per decision (branching factor, forced share) are ratios of sums
  over *games*, whose decisions are not independent of each other; their
  interval is the ratio estimator's, with the games as clusters.
- Seat advantage is tested against the fair share with an exact binomial test
  per seat and a chi-square test over all seats together.
- Games of one duplicate deal share their cards, so they are not independent:
  shares and tests then use the *effective* number of games (Kish), the games
  divided by the design effect measured over the deals as clusters, and the
  chi-square statistic is divided by the seats' mean design effect (the
  first-order Rao–Scott correction). A design effect below 1 (the rotation
  cancelling luck) is taken as 1, so intervals never get narrower for it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardtable.arena.stats import Z95, wilson_interval

__all__ = [
    "binomial_test",
    "chi_square_test",
    "clusters_of",
    "design_effect",
    "histogram",
    "mean_interval",
    "percentiles",
    "ratio_interval",
    "wilson_interval",
]


def mean_interval(values: Sequence[float]) -> tuple[float, float, float, float]:
    """(mean, standard deviation, low, high) of the mean's 95% interval.

    >>> [round(x, 3) for x in mean_interval([1, 2, 3, 4])]
    [2.5, 1.291, 1.235, 3.765]
    >>> mean_interval([])
    (0.0, 0.0, 0.0, 0.0)
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return (mean, sd, mean - half, mean + half)


def ratio_interval(tops: Sequence[float], bottoms: Sequence[float]) -> tuple[float, float, float]:
    """(ratio, low, high) of ``sum(tops) / sum(bottoms)``, one pair per cluster (game).

    >>> ratio_interval([2, 4], [1, 2])
    (2.0, 2.0, 2.0)
    >>> ratio_interval([], [])
    (0.0, 0.0, 0.0)
    """
    total = math.fsum(bottoms)
    n = len(bottoms)
    if n == 0 or total == 0:
        return (0.0, 0.0, 0.0)
    ratio = math.fsum(tops) / total
    if n == 1:
        return (ratio, ratio, ratio)
    mean_bottom = total / n
    residuals = math.fsum(
        ((t - ratio * b) / mean_bottom) ** 2 for t, b in zip(tops, bottoms, strict=True)
    )
    half = Z95 * math.sqrt(residuals / (n * (n - 1)))
    return (ratio, ratio - half, ratio + half)


def clusters_of(values: Sequence[float], clusters: Sequence[int]) -> tuple[list[float], list[int]]:
    """Per cluster: the sum of its values and its size, in order of first appearance.

    >>> clusters_of([1, 0, 1, 1], [0, 0, 1, 1])
    ([1, 2], [2, 2])
    """
    sums: dict[int, float] = {}
    sizes: dict[int, int] = {}
    for value, cluster in zip(values, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0) + value
        sizes[cluster] = sizes.get(cluster, 0) + 1
    return [sums[c] for c in sizes], list(sizes.values())


def design_effect(values: Sequence[float], clusters: Sequence[int]) -> float:
    """How much the clusters widen the variance of the mean of ``values``
    against independent values: at least 1, and 1 when nothing varies.

    >>> design_effect([1, 1, 0, 0], [0, 0, 1, 1])  # clusters all alike inside
    3.0
    >>> design_effect([1, 0, 1, 0], [0, 0, 1, 1])
    1.0
    """
    n = len(values)
    if n < 2 or len(set(clusters)) < 2:
        return 1.0
    _, sd, _, _ = mean_interval(values)
    if sd == 0:
        return 1.0
    _, low, high = ratio_interval(*clusters_of(values, clusters))
    clustered = ((high - low) / (2 * Z95)) ** 2
    return max(1.0, clustered / (sd * sd / n))


def percentiles(values: Sequence[float], qs: Sequence[float]) -> list[float]:
    """Linear-interpolation percentiles (``q`` in 0…100) of ``values``.

    >>> percentiles([1, 2, 3, 4, 5], [0, 50, 90])
    [1.0, 3.0, 4.6]
    """
    data = sorted(values)
    if not data:
        return [0.0 for _ in qs]
    found = []
    for q in qs:
        at = (len(data) - 1) * q / 100
        low = math.floor(at)
        high = min(low + 1, len(data) - 1)
        found.append(float(data[low] + (data[high] - data[low]) * (at - low)))
    return found


def histogram(values: Sequence[int], bins: int = 20) -> tuple[list[int], list[int]]:
    """(edges, counts): ``bins`` equal integer-wide bins from the least to the
    greatest value; ``counts[i]`` holds ``edges[i] <= v < edges[i+1]``.

    >>> histogram([1, 2, 2, 3, 10], bins=3)
    ([1, 5, 9, 13], [4, 0, 1])
    """
    if not values:
        return ([], [])
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    count = math.ceil((high - low + 1) / width)
    edges = [low + width * i for i in range(count + 1)]
    counts = [0] * count
    for v in values:
        counts[(v - low) // width] += 1
    return edges, counts


def binomial_test(successes: float, trials: int, p: float) -> float:
    """Two-sided exact binomial p-value: the chance of a count at most as
    likely as ``successes`` under share ``p``. Shared wins (fractions) are
    rounded to the nearest count.

    >>> round(binomial_test(5, 10, 0.5), 6)
    1.0
    >>> binomial_test(10, 10, 0.5) < 0.002
    True
    """
    if trials <= 0:
        return 1.0
    k = round(successes)
    if p <= 0 or p >= 1:
        return 1.0 if k == round(p * trials) else 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    base = math.lgamma(trials + 1)

    def log_pmf(i: int) -> float:
        return (
            base
            - math.lgamma(i + 1)
            - math.lgamma(trials - i + 1)
            + i * log_p
            + (trials - i) * log_q
        )

    observed = log_pmf(k)
    # Counts exactly as likely as the observed one count too (a relative slack
    # absorbs rounding of the logarithms).
    limit = observed + 1e-7 * max(1.0, abs(observed))
    total = math.fsum(math.exp(log_pmf(i)) for i in range(trials + 1) if log_pmf(i) <= limit)
    return min(1.0, total)


def chi_square_test(
    observed: Sequence[float], expected: Sequence[float]
) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of Pearson's goodness-of-fit test.

    >>> stat, df, p = chi_square_test([50, 50], [50, 50])
    >>> stat, df, p
    (0.0, 1, 1.0)
    >>> chi_square_test([90, 10], [50, 50])[2] < 1e-10
    True
    """
    pairs = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    stat = math.fsum((o - e) ** 2 / e for o, e in pairs)
    df = len(pairs) - 1
    if df < 1:
        return (stat, 0, 1.0)
    return (stat, df, upper_gamma_q(df / 2, stat / 2))


def upper_gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x): the chi-square
    survival function is ``Q(df / 2, stat / 2)``. Series below ``a + 1``, a
    continued fraction above (the classical split: each converges fast there).

    >>> round(upper_gamma_q(1, 1), 6) == round(math.exp(-1), 6)
    True
    """
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's method for the continued fraction of Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)
