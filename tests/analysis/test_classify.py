"""The analysis classes follow the one rule ``docs/analysis.md`` ("Classes")
and the browser's legend state (issue 29, item 4): the move played is "best"
when it is the top of its alternatives' table; a decision is an inaccuracy,
mistake or blunder only when its loss is both clear (more than two standard
errors above zero) and at least the class's threshold; every other decision
is "fine", and names no better move. The top of each table is the move
called best, and the costliest decisions are only those named a loss."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardtable.analysis.classify import CLASSES, CLEAR_SE, NAMED, THRESHOLDS, classify
from cardtable.analysis.decisions import Decision
from cardtable.analysis.estimate import Estimate, Evaluation, GroupValue, _Samples, _summarise
from cardtable.analysis.playout import Outcome
from cardtable.analysis.report import _order, analysis_json, analysis_text, summarise
from cardtable.analysis.run import DecisionAnalysis, analyze_record, judge
from tests.analysis.conftest import record_text

LIMITS = dict(THRESHOLDS)
LOSSES = [-1.0, 0.0, 0.04, 0.3, 1.0, 2.0, 2.9, 3.0, 3.5, 5.0, 6.9, 7.0, 10.0, 15.0, 30.0]
ERRORS = [0.0, 0.25, 0.5, 1.0, 2.0, 4.2, 5.0]


def size_class(loss: float) -> str:
    return next((name for name, limit in reversed(THRESHOLDS) if loss >= limit), "fine")


def test_every_class_is_the_one_the_rule_states() -> None:
    assert CLASSES == ("best", "fine", "inaccuracy", "mistake", "blunder")
    assert LIMITS == {"inaccuracy": 3.0, "mistake": 7.0, "blunder": 15.0} and CLEAR_SE == 2.0
    for loss, se, best in itertools.product(LOSSES, ERRORS, (True, False)):
        label = classify(played_is_best=best, loss=loss, se=se)
        if best:
            assert label == "best", (loss, se)
        elif loss - 2 * se > 0 and loss >= LIMITS["inaccuracy"]:
            assert label == size_class(loss), (loss, se, label)
        else:
            assert label == "fine", (loss, se, label)


def test_a_named_loss_is_clear_and_at_least_its_threshold() -> None:
    for loss, se in itertools.product(LOSSES, ERRORS):
        label = classify(played_is_best=False, loss=loss, se=se)
        if label in NAMED:
            assert loss - 2 * se > 0 and loss >= LIMITS[label], (loss, se, label)


def test_a_large_but_unclear_loss_and_a_clear_but_small_one_are_fine() -> None:
    # The "Better: G8 … +0.0% ±4.2": no loss at all, wide error.
    assert classify(played_is_best=False, loss=0.0, se=4.2) == "fine"
    assert classify(played_is_best=False, loss=16.0, se=8.5) == "fine"  # 15 ± 2 SE reaches 0
    assert classify(played_is_best=False, loss=2.9, se=0.1) == "fine"  # clear, under 3
    assert classify(played_is_best=False, loss=3.0, se=1.4) == "inaccuracy"
    assert classify(played_is_best=False, loss=15.0, se=7.4) == "blunder"


# --- the best is the top of its table ------------------------------------------


def _samples(wins: Sequence[float]) -> _Samples:
    s = _Samples()
    for w in wins:
        s.add(Outcome(win=w, points=10 * w, moves=1))
    return s


def test_an_alternative_dropped_after_lucky_first_deals_is_valued_on_the_same_deals() -> None:
    # The table: P8 and Y8 at 62.5% after 8 deals, above the move
    # called best (58.5% over every deal). The first 8 deals were kind to
    # every move: the best won 7 of them. Paired on those deals, P8 is worse.
    rng = random.Random(5)
    later = [1.0 if rng.random() < 0.56 else 0.0 for _ in range(120)]
    best = [1, 1, 1, 1, 1, 1, 1, 0, *later]
    dropped = [1, 1, 1, 0, 1, 0, 1, 0]  # 5 of 8: 62.5%
    played = [1, 0, 1, 0, 1, 0, 1, 0] + [w * (i % 3 != 0) for i, w in enumerate(later)]
    samples = [_samples(best), _samples(dropped), _samples(played)]
    assert Estimate.of(dropped).mean > Estimate.of(best).mean  # the defect's numbers
    evaluation = _summarise(samples, [[0], [1], [2]], [0, 2], [2], 128, 264, 264)
    assert evaluation.best == 0
    assert _order(evaluation)[0] == evaluation.best
    top = evaluation.groups[0].win.mean
    # The best won 7 of the 8 deals P8 has, P8 5: it is valued 2/8 below the best.
    assert evaluation.groups[1].win.mean == pytest.approx(top - 2 / 8)
    assert evaluation.groups[1].loss_win.mean == pytest.approx(2 / 8)


def test_an_alternative_dropped_early_that_beat_the_leader_is_the_best() -> None:
    # The move played was kept to the end and leads those sampled so long,
    # but on the deals it has, another move won more: that one is the best.
    leader = [0, 0, 0, 0, 1, 1, 1, 1] + [1, 0] * 30
    dropped = [1, 1, 1, 1, 1, 1, 1, 1]
    other = [0] * 68
    evaluation = _summarise(
        [_samples(leader), _samples(dropped), _samples(other)],
        [[0], [1], [2]],
        [0, 2],
        [0],
        68,
        0,
        0,
    )
    assert evaluation.best == 1
    assert _order(evaluation)[0] == 1
    assert evaluation.groups[0].loss_win.mean == 0.5  # on the 8 deals both have
    assert judge(evaluation, 0) == "blunder"  # 50 ± 18.9: clear, and 15 or more


def test_a_tie_with_the_move_played_calls_the_move_played_best() -> None:
    same = [1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
    evaluation = _summarise([_samples(same), _samples(same)], [[0], [1]], [0, 1], [1], 10, 0, 0)
    assert evaluation.best == 1 and _order(evaluation)[0] == 1
    assert judge(evaluation, 1) == "best"


def test_in_real_analyses_the_best_tops_its_table_and_only_named_losses_name_a_better_move() -> (
    None
):
    # A whole recorded game at a small budget: many alternatives are dropped early.
    text = record_text("mt_lets_the_opponent_out.json")
    analyses = analyze_record(text, budget=0.02, seed=3)
    judged = [a for a in analyses if a.fair is not None and a.hindsight is not None]
    assert judged
    for a in judged:
        assert a.fair is not None
        for evaluation in (a.fair, a.hindsight):
            assert evaluation is not None
            order = _order(evaluation)
            assert order[0] == evaluation.best
            values = [
                (evaluation.groups[g].win.mean, evaluation.groups[g].points.mean) for g in order
            ]
            assert values == sorted(values, reverse=True)
            assert all(0.0 <= win <= 1.0 for win, _ in values)  # a chance, however measured
        assert a.label == judge(a.fair, a.decision.played)
    names = ["Ann", "Bob"]
    document = analysis_json(analyses, names, game="marshmallow-test", seed=3, budget=0.02)
    by_place = {(a.decision.round, a.decision.move): a for a in judged}
    players: Any = document["players"]
    for player, summary in zip(players, summarise(analyses, names), strict=True):
        assert all(a.label in NAMED for a in summary.costliest)
        named = sum(summary.classes[c] for c in NAMED)
        assert len(player["costliest"]) == min(3, named)
        for place in player["costliest"]:
            assert by_place[(place["round"], place["move"])].label in NAMED
    text_report = analysis_text(analyses, names, game="marshmallow-test", seed=3, budget=0.02)
    for line in text_report.splitlines():
        if line.startswith("  round ") and " better " in line:
            assert any(f" {c} " in line for c in NAMED), line
        assert "+0.0% ±" not in line or "better" not in line, line
    assert "accuracy" in text_report and "% over" in text_report
    # The header's seed is the analysis's own, never mistaken for the game's deal (issue 33).
    assert "analysis seed 3," in text_report.splitlines()[0]


def test_costliest_decisions_are_none_when_every_decision_is_best_or_fine() -> None:
    fine = _decision_analysis("fine", loss=0.0)
    best = _decision_analysis("best", loss=-0.01)
    (summary,) = summarise([fine, best], ["Ann"])
    assert summary.costliest == ()
    text = analysis_text([fine, best], ["Ann"], game="marshmallow-test", seed=0, budget=0.1)
    assert "no inaccuracy, mistake or blunder" in text
    assert "better" not in text.split("Every decision")[0].split("Ann (seat 0)")[1]


def _decision_analysis(label: str, loss: float) -> DecisionAnalysis:
    """A decision valued by hand: two alternatives, the second losing ``loss``."""
    groups = tuple(
        GroupValue(
            moves=(i,),
            samples=8,
            win=Estimate(0.5 - i * loss, 0.05),
            points=Estimate(5.0, 0.5),
            loss_win=Estimate(i * loss, 0.04),
            loss_points=Estimate(0.0, 0.1),
        )
        for i in range(2)
    )
    evaluation = Evaluation(groups, 0, 16, 16)
    played = 1 if label == "fine" else 0
    # Moves and views are only printed, never played: plain text stands in for them.
    decision = Decision(0, 1, 1 + played, 0, None, ("B1", "B2"), played, None)  # type: ignore[arg-type]
    return DecisionAnalysis(decision, evaluation, evaluation, label)
