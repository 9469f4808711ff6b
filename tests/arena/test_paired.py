"""The paired comparison's numbers on small inputs worked out by hand."""

from __future__ import annotations

import pytest

from cardtable.arena.paired import (
    correlation,
    paired_interval,
    pairs_needed,
    sample_variance,
    summarize,
)
from cardtable.arena.stats import wilson_interval

# (1.959964 + 0.841621)² = 7.848880: the 95% two-sided and 80% power quantiles.
Z_SUM_SQUARED = 7.848880

# X won pairs 1, 3, 4; Y won pair 3 only.
XS = [1.0, 0.0, 1.0, 1.0, 0.0]
YS = [0.0, 0.0, 1.0, 0.0, 0.0]


def test_the_paired_interval_is_the_mean_difference_plus_minus_z_standard_errors() -> None:
    # differences 1, 0, 0, 1, 0: mean 0.4; variance (2 × 0.36 + 3 × 0.16) / 4 = 0.3;
    # standard error √(0.3 / 5) = 0.244949; × 1.959964 = 0.480091.
    assert paired_interval(XS, YS) == pytest.approx((0.4, 0.4 - 0.480091, 0.4 + 0.480091), abs=1e-6)


def test_the_correlation_is_pearsons() -> None:
    # means 0.6 and 0.2; Σ(x−x̄)(y−ȳ) = −0.08 + 0.12 + 0.32 − 0.08 + 0.12 = 0.4;
    # Σ(x−x̄)² = 1.2, Σ(y−ȳ)² = 0.8: ρ = 0.4 / √0.96 = 0.408248.
    assert correlation(XS, YS) == pytest.approx(0.408248, abs=1e-6)
    assert correlation(XS, XS) == pytest.approx(1.0)
    assert correlation(XS, [1 - x for x in XS]) == pytest.approx(-1.0)


def test_an_outcome_that_never_varies_has_no_correlation() -> None:
    assert correlation(XS, [1.0] * 5) == 0.0


def test_games_needed_for_five_points_near_half_with_independent_games() -> None:
    # two independent coins at 50%: var(X − Y) = 0.25 + 0.25; 7.848880 × 0.5 / 0.05² = 1569.8
    assert pairs_needed(0.5, 0.05) == 1570
    # correlation 0.5 at equal variances halves var(X − Y): 0.25 → 784.9
    assert pairs_needed(0.25 + 0.25 - 2 * 0.5 * 0.25, 0.05) == 785
    # ten points need a quarter of the games: 392.4
    assert pairs_needed(0.5, 0.10) == 393


def test_the_summary_holds_every_figure() -> None:
    s = summarize(XS, YS)
    assert s.pairs == 5
    assert (s.x, s.y) == pytest.approx((0.6, 0.2))
    assert s.x_ci95 == wilson_interval(3, 5)
    assert s.y_ci95 == wilson_interval(1, 5)
    assert s.difference == pytest.approx(0.4)
    assert s.difference_ci95 == pytest.approx((0.4 - 0.480091, 0.4 + 0.480091), abs=1e-6)
    assert s.correlation == pytest.approx(0.408248, abs=1e-6)
    # var(X − Y) 0.3: 7.848880 × 0.3 / 0.0025 = 941.9
    assert s.pairs_needed == 942
    # var(X) 0.3 + var(Y) 0.2, as if the games were independent: 1569.8
    assert s.unpaired_needed == 1570


def test_the_sample_variance_divides_by_n_minus_one() -> None:
    assert sample_variance([1.0, 0.0]) == pytest.approx(0.5)
    assert sample_variance([1.0]) == 0.0


@pytest.mark.parametrize(
    ("xs", "ys", "words"),
    [([1.0], [], "1 outcomes of X against 0 of Y"), ([], [], "no pairs")],
)
def test_pairs_need_both_outcomes(xs: list[float], ys: list[float], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        summarize(xs, ys)


def test_a_claim_of_no_difference_cannot_be_sized() -> None:
    with pytest.raises(ValueError, match="delta 0"):
        pairs_needed(0.5, 0)
