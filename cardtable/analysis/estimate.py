"""Values of a decision's alternatives from paired playouts, with standard errors.

Every alternative is played out from the *same* sampled positions with the
*same* playout seeds (common random numbers): deal ``i`` and its chance are
shared, so the difference between two alternatives is measured on equal
terms and its standard error comes from the paired differences.

The work is spent in stages (successive halving): every alternative gets
``MIN_DEALS`` samples (fewer where that would take more than a third of the
budget, never fewer than ``PILOT_DEALS``), then each stage doubles the
samples of the alternatives still in contention: at most half of them (the
better half by their means so far; one dropped earlier comes back if its
mean rises into that half), and none that is clearly worse than the leader
(paired difference more than ``DROP_Z`` standard errors below zero).
``keep``, the move played, is never dropped. An alternative dropped keeps
its coarser estimate and wider error. The amount of work depends only on
the outcomes, never on the clock, so the same seed gives the same values.

Every alternative's value is given on the same footing. Those sampled to
the end have every sample; one dropped earlier has only the first deals,
which may have been kind (or unkind) to every move alike, so its own mean
there would not compare with the others'. Its value is instead the
reference's mean over every sample less its paired difference from the
reference on the deals it has (common random numbers make that difference
the sharp measurement), with the reference the alternative that leads
among those sampled to the end; kept within what can be (a win chance
from 0 to 1, points within the outcomes seen).

The *best* alternative is the one with the highest value so found: win
chance, points breaking ties, the move played preferred among equals. So
the alternatives sorted by their values put the best first (:mod:`.report`
sorts them so). The *loss* of an alternative is how much less it wins (and
scores) than the best. Picking the best and measuring a loss on the same
samples would favour whichever alternative had lucky samples, so the loss
is cross-fitted: on the odd samples it is measured against the best of the
even samples, and the other way round. (Where an alternative dropped early
is the best, losses are its paired differences on the deals it has.)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardtable.analysis.evaluator import Evaluator
from cardtable.analysis.playout import ChanceAfterRound, Outcome, play_out
from cardtable.analysis.seeds import derive_seed
from cardtable.core.game import Move, State

__all__ = ["DROP_Z", "MIN_DEALS", "Estimate", "Evaluation", "GroupValue", "evaluate"]

MIN_DEALS = 8  # samples every alternative gets before any is dropped
PILOT_DEALS = 2
# A win-chance loss's standard error is at least this over the sample count:
# a handful of identical samples must not pass for certainty.
WIN_SE_FLOOR = 0.5
MAX_DEALS = 4096  # enough for any decision; short playouts would otherwise run on
DROP_Z = 3.0  # how clear "clearly worse" must be to stop sampling an alternative


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean and its standard error (``inf`` from fewer than two samples)."""

    mean: float
    se: float

    @staticmethod
    def of(values: Sequence[float]) -> Estimate:
        n = len(values)
        if n == 0:
            return Estimate(0.0, math.inf)
        mean = math.fsum(values) / n
        if n == 1:
            return Estimate(mean, math.inf)
        if min(values) == max(values):
            return Estimate(values[0], 0.0)  # exactly, not a rounding error's worth
        var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
        return Estimate(mean, math.sqrt(var / n))


@dataclass(frozen=True, slots=True)
class GroupValue:
    """One distinct alternative: the legal moves (indices) that make it, its
    values (win chance and points on the common footing of the module doc:
    sorted by ``(win.mean, points.mean)`` the best comes first), and its loss
    against the best alternative."""

    moves: tuple[int, ...]
    samples: int
    win: Estimate
    points: Estimate
    loss_win: Estimate
    loss_points: Estimate


@dataclass(frozen=True, slots=True)
class Evaluation:
    groups: tuple[GroupValue, ...]
    best: int  # index into ``groups``: the highest (win, points) value
    playouts: int
    moves: int  # playout moves simulated

    def group_of(self, legal_index: int) -> int:
        return next(g for g, value in enumerate(self.groups) if legal_index in value.moves)

    def is_best(self, group: int) -> bool:
        """Whether ``group`` is the best or level with it (equal means)."""
        a, b = self.groups[group], self.groups[self.best]
        return (a.win.mean, a.points.mean) >= (b.win.mean, b.points.mean)


class _Samples:
    """The outcomes of one alternative, sample by sample."""

    def __init__(self) -> None:
        self.win: list[float] = []
        self.points: list[float] = []

    def add(self, outcome: Outcome) -> None:
        self.win.append(outcome.win)
        self.points.append(outcome.points)

    def key(self, index: Sequence[int] | None = None) -> tuple[float, float]:
        """(mean win, mean points) over ``index`` (all samples when ``None``)."""
        if index is None:
            return Estimate.of(self.win).mean, Estimate.of(self.points).mean
        return (
            Estimate.of([self.win[i] for i in index]).mean,
            Estimate.of([self.points[i] for i in index]).mean,
        )


def _floored(estimate: Estimate, floor: float) -> Estimate:
    return Estimate(estimate.mean, max(estimate.se, floor))


def _argmax(candidates: Sequence[int], keys: Callable[[int], tuple[float, float]]) -> int:
    # First candidate wins ties: the order of groups is the order of legal moves.
    best = candidates[0]
    best_key = keys(best)
    for g in candidates[1:]:
        key = keys(g)
        if key > best_key:
            best, best_key = g, key
    return best


def _constant(samples: list[_Samples], groups: Sequence[int]) -> bool:
    return all(
        min(s.win) == max(s.win) and min(s.points) == max(s.points)
        for s in (samples[g] for g in groups)
    )


def _fold_key(samples: list[_Samples], fold: list[int]) -> Callable[[int], tuple[float, float]]:
    return lambda g: samples[g].key(fold)


def _diffs(a: _Samples, b: _Samples, n: int) -> tuple[list[float], list[float]]:
    return (
        [a.win[i] - b.win[i] for i in range(n)],
        [a.points[i] - b.points[i] for i in range(n)],
    )


def _clearly_worse(leader: _Samples, other: _Samples) -> bool:
    n = min(len(leader.win), len(other.win))
    if n < MIN_DEALS:
        return False
    win, points = _diffs(leader, other, n)
    w = Estimate.of(win)
    if w.mean - DROP_Z * w.se > 0:
        return True
    # Where the win chance cannot differ (a game already decided), points decide.
    p = Estimate.of(points)
    return all(d == 0 for d in win) and p.mean - DROP_Z * p.se > 0


def evaluate(
    starts: Callable[[int], State],
    seat: int,
    legal: Sequence[Move],
    groups: Sequence[Sequence[int]],
    evaluator: Evaluator,
    chance: ChanceAfterRound,
    *,
    budget_moves: int,
    seed: int,
    keep: Sequence[int] = (),
    min_deals: int = MIN_DEALS,
    stop_when_constant: bool = False,
) -> Evaluation:
    """Evaluate each group of ``legal`` for ``seat`` (module doc).

    ``starts(i)`` is the ``i``-th sampled position (a fresh state each call);
    ``budget_moves`` bounds the playout moves spent (the first stage always
    runs in full); ``keep`` lists groups never dropped. With
    ``stop_when_constant`` the sampling stops as soon as no outcome varies
    from sample to sample (hindsight: the true cards leave little to chance).
    """
    samples = [_Samples() for _ in groups]
    cost = [0, 0]  # playouts, playout moves

    def fill(chosen: Sequence[int], upto: int) -> None:
        """Sample every group in ``chosen`` up to ``upto`` deals (a group
        coming back after being dropped catches up on the same deals)."""
        for i in range(min(len(samples[g].win) for g in chosen), upto):
            needing = [g for g in chosen if len(samples[g].win) == i]
            if not needing:
                continue
            base = starts(i)
            chance_seed = derive_seed(seed, i, "chance")
            policy_seed = derive_seed(seed, i, "policy")
            for g in needing:
                state = base.clone(random.Random(chance_seed))
                policy = evaluator.policy(random.Random(policy_seed))
                outcome = play_out(
                    state, seat, legal[groups[g][0]], policy, chance, evaluator.cutoff
                )
                samples[g].add(outcome)
                cost[0] += 1
                cost[1] += outcome.moves

    everyone = list(range(len(groups)))
    # A pilot of two deals measures the playouts; the first stage then takes
    # at most a third of the budget (fewer than ``min_deals`` if need be).
    fill(everyone, PILOT_DEALS)
    per_deal = cost[1] / cost[0] * len(groups)
    target = max(PILOT_DEALS, min(min_deals, int(budget_moves / (3 * per_deal)), MAX_DEALS))
    fill(everyone, target)
    active = everyone
    while len(active) > 1 and not (stop_when_constant and _constant(samples, active)):
        # Every group competes again, dropped ones with their older means.
        leader = _argmax(active, lambda g: samples[g].key())
        ranked = sorted(everyone, key=lambda g: samples[g].key(), reverse=True)
        contenders = [
            g for g in ranked if g == leader or not _clearly_worse(samples[leader], samples[g])
        ][: max(2, (len(active) + 1) // 2)]
        chosen = sorted({*contenders, *keep})
        per_playout = cost[1] / cost[0]
        missing = sum(target - len(samples[g].win) for g in chosen)
        spare = (budget_moves - cost[1]) / per_playout - missing
        extra = min(target, int(spare / len(chosen)), MAX_DEALS - target)
        if len(chosen) == 1 or extra < 1:
            break
        target += extra
        fill(chosen, target)
        active = chosen
    return _summarise(samples, groups, active, keep, target, cost[0], cost[1])


def _paired(
    reference: _Samples, other: _Samples, points_range: tuple[float, float]
) -> tuple[Estimate, Estimate]:
    """``other``'s win chance and points on the footing of ``reference``'s
    samples: the reference's means over all of them less the paired
    differences on the deals ``other`` has (errors of both, added), kept
    within what can be: a win chance in 0–1, points within ``points_range``
    (the outcomes seen)."""
    n = len(other.win)
    values = []
    ranges = ((0.0, 1.0), points_range)
    for mine, diffs, (low, high) in zip(
        (reference.win, reference.points), _diffs(reference, other, n), ranges, strict=True
    ):
        whole, gap = Estimate.of(mine), Estimate.of(diffs)
        mean = min(high, max(low, whole.mean - gap.mean))
        values.append(Estimate(mean, math.hypot(whole.se, gap.se)))
    return values[0], values[1]


def _summarise(
    samples: list[_Samples],
    groups: Sequence[Sequence[int]],
    active: list[int],
    keep: Sequence[int],
    deals: int,
    playouts: int,
    used: int,
) -> Evaluation:
    # The move played first: among equal values it is the one called best.
    first = [g for g in active if g in keep] + [g for g in active if g not in keep]
    leader = _argmax(first, lambda g: samples[g].key())
    seen = [p for s in samples for p in s.points]
    wins, points = [], []
    for g in range(len(groups)):
        if g in active:  # every sample: its own means
            wins.append(Estimate.of(samples[g].win))
            points.append(Estimate.of(samples[g].points))
        else:
            win, point = _paired(samples[leader], samples[g], (min(seen), max(seen)))
            wins.append(win)
            points.append(point)
    others = [g for g in range(len(groups)) if g != leader]
    best = _argmax([leader, *others], lambda g: (wins[g].mean, points[g].mean))
    folds = [list(range(f, deals, 2)) for f in (0, 1)]
    if best != leader:
        # An alternative dropped early is ahead: losses on the deals it has.
        reference = None
    elif len(active) > 1 and min(len(f) for f in folds) >= 2:
        # Cross-fitting: the best of one half is the reference on the other half.
        best_on = [_argmax(active, _fold_key(samples, fold)) for fold in folds]
        reference = [best_on[1 - i % 2] for i in range(deals)]
    else:
        reference = [best] * deals
    values = []
    for g, moves in enumerate(groups):
        s = samples[g]
        n = len(s.win)
        if reference is not None and g in active:
            loss_win = [samples[reference[i]].win[i] - s.win[i] for i in range(n)]
            loss_points = [samples[reference[i]].points[i] - s.points[i] for i in range(n)]
        else:
            shared = min(n, len(samples[best].win))
            loss_win, loss_points = _diffs(samples[best], s, shared)
        values.append(
            GroupValue(
                moves=tuple(moves),
                samples=n,
                win=wins[g],
                points=points[g],
                loss_win=_floored(Estimate.of(loss_win), WIN_SE_FLOOR / max(1, len(loss_win))),
                loss_points=Estimate.of(loss_points),
            )
        )
    return Evaluation(tuple(values), best, playouts, used)
