"""Analyzing decisions: fair (from the seat's view) and in hindsight (true cards).

*Fair*: each sample is a deal drawn by the game's ``determinize`` (the cards
the seat could not see, consistent with everything it saw); every
alternative is played out on it to the end of the round by the evaluator's
policy. *Hindsight*: the same alternatives played out from the true state,
the real hidden cards; what is left to chance there is only what the rules
draw later (a reshuffle) and the policy's own chance.

``budget`` is nominal seconds per decision, turned into a fixed amount of
work (playout moves = seconds × the evaluator's ``moves_per_second``), so
the numbers never depend on the machine or its load; hindsight gets
``HINDSIGHT_SHARE`` of it. Seeds are derived per decision by hashing
(:mod:`.seeds`), so any subset of the decisions, in any number of
processes, gives the same values.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from cardtable.analysis.classify import classify
from cardtable.analysis.decisions import Decision, walk
from cardtable.analysis.estimate import Evaluation, evaluate
from cardtable.analysis.evaluator import Evaluator, evaluator_for
from cardtable.analysis.seeds import derive_seed
from cardtable.analysis.winmodel import WinModel, fit_win_model
from cardtable.core.game import Game, Move, State, View
from cardtable.core.registry import manifest
from cardtable.core.replay import parse_record

__all__ = [
    "DEFAULT_BUDGET",
    "HINDSIGHT_SHARE",
    "Analyzer",
    "DecisionAnalysis",
    "analyze_record",
    "judge",
]

DEFAULT_BUDGET = 0.4  # nominal seconds per decision
HINDSIGHT_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class DecisionAnalysis:
    decision: Decision
    fair: Evaluation | None  # None for a forced decision
    hindsight: Evaluation | None
    label: str | None  # the class (:func:`.classify.classify`); None when forced

    @property
    def played_group(self) -> int | None:
        return None if self.fair is None else self.fair.group_of(self.decision.played)


class Analyzer:
    """Everything one game's analysis shares: evaluator, win model, determinizer."""

    def __init__(
        self, game: Game, *, evaluator: Evaluator | None = None, model: WinModel | None = None
    ) -> None:
        self.game = game
        self.evaluator = evaluator if evaluator is not None else evaluator_for(game)
        self.model = model if model is not None else fit_win_model(game, self.evaluator)
        self.determinize: Callable[[Game, View, random.Random], State] = manifest(game.name).part(
            "determinize"
        )

    def budget_moves(self, seconds: float) -> int:
        return max(1, int(seconds * self.evaluator.moves_per_second))

    def _evaluate(
        self,
        starts: Callable[[int], State],
        view: View,
        legal: Sequence[Move],
        seat: int,
        budget: float,
        seed: int,
        keep: Sequence[int],
        *,
        stop_when_constant: bool = False,
    ) -> Evaluation:
        groups = self.evaluator.groups(view, legal)
        return evaluate(
            starts,
            seat,
            legal,
            groups,
            self.evaluator,
            self.model.chance,
            budget_moves=self.budget_moves(budget),
            seed=seed,
            keep=[g for g, members in enumerate(groups) if any(m in members for m in keep)],
            stop_when_constant=stop_when_constant,
        )

    def evaluate_view(
        self,
        view: View,
        legal: Sequence[Move],
        *,
        seat: int,
        budget: float,
        seed: int,
        keep: Sequence[int] = (),
    ) -> Evaluation:
        """Value ``legal`` from ``view`` alone (the fair evaluation; the
        terminal's hint). ``keep``: legal-move indices never dropped."""

        def starts(i: int) -> State:
            return self.determinize(self.game, view, random.Random(derive_seed(seed, i, "deal")))

        return self._evaluate(starts, view, legal, seat, budget, seed, keep)

    def analyze(self, decision: Decision, *, budget: float, seed: int) -> DecisionAnalysis:
        """The fair and hindsight evaluations of one decision, and its class."""
        if decision.forced:
            return DecisionAnalysis(decision, None, None, None)
        where = (decision.round, decision.move)
        keep = (decision.played,)
        fair = self.evaluate_view(
            decision.view,
            decision.legal,
            seat=decision.seat,
            budget=budget,
            seed=derive_seed(seed, "fair", *where),
            keep=keep,
        )
        hindsight = self._evaluate(
            lambda i: decision.true_state.clone(),
            decision.view,
            decision.legal,
            decision.seat,
            budget * HINDSIGHT_SHARE,
            derive_seed(seed, "hindsight", *where),
            keep,
            stop_when_constant=True,
        )
        return DecisionAnalysis(decision, fair, hindsight, judge(fair, decision.played))


def judge(evaluation: Evaluation, played: int) -> str:
    """The class (:func:`.classify.classify`) of playing legal move ``played``
    as ``evaluation`` values it: the fair evaluation's is the decision's class;
    the hindsight one's says whether the real cards show a clear loss."""
    group = evaluation.group_of(played)
    loss = evaluation.groups[group].loss_win
    return classify(
        played_is_best=evaluation.is_best(group), loss=100 * loss.mean, se=100 * loss.se
    )


def _analyze_share(
    text: str,
    seats: Collection[int] | None,
    indices: Sequence[int],
    budget: float,
    seed: int,
    model: WinModel,
) -> list[DecisionAnalysis]:
    """Analyze the decisions at ``indices``: a worker walks the record itself,
    so only text and the win model cross between processes."""
    parsed = parse_record(text)
    analyzer = Analyzer(parsed.game, model=model)
    wanted = set(indices)
    return [
        analyzer.analyze(d, budget=budget, seed=seed)
        for d in walk(parsed, seats)
        if d.index in wanted
    ]


def analyze_record(
    text: str,
    *,
    seats: Collection[int] | None = None,
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    model: WinModel | None = None,
) -> list[DecisionAnalysis]:
    """Every decision of ``seats`` in the record ``text`` (which must replay
    without error), in record order; ``jobs`` processes share the work and
    give the same result as one. ``model``: a win model already fitted for
    this game and options (else it is fitted here)."""
    parsed = parse_record(text)
    analyzer = Analyzer(parsed.game, model=model)
    decisions = list(walk(parsed, seats))
    total = len(decisions)
    results: list[DecisionAnalysis] = []
    if jobs <= 1:
        for decision in decisions:
            results.append(analyzer.analyze(decision, budget=budget, seed=seed))
            if progress is not None:
                progress(len(results), total)
        return results
    # Interleaved shares balance early (long) and late (short) decisions.
    shares = [list(range(k, total, jobs * 4)) for k in range(min(total, jobs * 4))]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(_analyze_share, text, seats, share, budget, seed, analyzer.model)
            for share in shares
        ]
        for future in futures:
            results.extend(future.result())
            if progress is not None:
                progress(len(results), total)
    results.sort(key=lambda a: a.decision.index)
    return results
