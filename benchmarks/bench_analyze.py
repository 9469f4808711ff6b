"""How long analyzing one seat of a whole game takes, and how sharp it is.

    python benchmarks/bench_analyze.py [--budget 0.4] [--seed 1] [--no-peer]

One complete game of each: Marshmallow Test at 4 players and MyRummy 111 at
2 players, every seat played by the heuristic bot; seat 0 is analyzed at the
given budget (default: ``cardtable analyze``'s), in one process. Reported
per game: wall and CPU time (win model included), decisions judged and how
they were classed, playout moves per CPU second, and the standard errors of
the reported losses (win chance, points).

The peer, measured in the same run for a game whose evaluator cuts its
playouts off (MyRummy 111): the same analysis with playouts played to the
round's end instead, the plain Monte Carlo estimate; printed as the ratio of
its mean standard error and of its time to the cutoff's.

A blunder loses at least 15 percentage points of win chance, and a move is
called best or good only if its loss plus two standard errors is below the
inaccuracy threshold of 3 (``cardtable.analysis.classify``). With a loss's
standard error at most 6 points, a best move (true loss 0) is called a
blunder only if its estimate is off by 15/6 + 2 = 4.5 standard errors, and a
blunder is called best or good only if off by (15 - 3)/6 + 2 = 4: "never
confused". The benchmark counts the decisions whose error is above 6.

Timed on a shared machine: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

import cardtable
from cardtable.analysis.decisions import walk
from cardtable.analysis.evaluator import Evaluator, PlayoutPolicy, evaluator_for
from cardtable.analysis.run import DEFAULT_BUDGET, Analyzer, DecisionAnalysis
from cardtable.bots import make_bot
from cardtable.core.game import Move, View
from cardtable.core.replay import parse_record

CONFUSION_SE = 6.0  # percentage points (module doc)
GAMES = (("marshmallow-test", 4), ("myrummy-111", 2))


def play_record(name: str, players: int, seed: int) -> str:
    game = cardtable.load(name, players=players)
    state = game.new_game(random.Random(seed))
    bots = [make_bot("heuristic", game, s, random.Random(seed * 10 + s)) for s in range(players)]
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    return json.dumps(state.record())


@dataclass(frozen=True)
class ToRoundEnd:
    """An evaluator's policy and groups with playouts played to the round's end."""

    inner: Evaluator
    cutoff: None = None

    @property
    def moves_per_second(self) -> float:
        return self.inner.moves_per_second

    def policy(self, rng: random.Random) -> PlayoutPolicy:
        return self.inner.policy(rng)

    def groups(self, view: View, legal: Sequence[Move]) -> Sequence[Sequence[int]]:
        return self.inner.groups(view, legal)


@dataclass(frozen=True)
class Figures:
    wall_s: float
    cpu_s: float
    analyses: list[DecisionAnalysis]

    @property
    def judged(self) -> list[DecisionAnalysis]:
        return [a for a in self.analyses if a.fair is not None and a.hindsight is not None]

    def win_se(self) -> list[float]:
        """Standard errors of the played moves' losses, percentage points."""
        return [
            100 * a.fair.groups[a.fair.group_of(a.decision.played)].loss_win.se
            for a in self.judged
            if a.fair is not None
        ]


def analyze(text: str, budget: float, seed: int, evaluator: Evaluator | None) -> Figures:
    """Seat 0's decisions, one process, the win model fitted inside the timing."""
    wall, cpu = time.perf_counter(), time.process_time()
    parsed = parse_record(text)
    analyzer = Analyzer(parsed.game, evaluator=evaluator)
    analyses = [analyzer.analyze(d, budget=budget, seed=seed) for d in walk(parsed, [0])]
    return Figures(time.perf_counter() - wall, time.process_time() - cpu, analyses)


def report(name: str, players: int, figures: Figures) -> str:
    judged = figures.judged
    se = figures.win_se()
    moves = sum(a.fair.moves + a.hindsight.moves for a in judged if a.fair and a.hindsight)
    points_se = statistics.fmean(
        a.fair.groups[a.fair.group_of(a.decision.played)].loss_points.se
        for a in judged
        if a.fair is not None
    )
    classes = collections.Counter(a.label for a in judged)
    return (
        f"{name} {players}p: {figures.wall_s:.1f} s wall, {figures.cpu_s:.1f} s CPU for"
        f" {len(judged)} judged of {len(figures.analyses)} decisions"
        f" ({', '.join(f'{n} {c}' for c, n in classes.most_common())}),"
        f" {moves / figures.cpu_s:.0f} playout moves per CPU s; loss SE win mean"
        f" {statistics.fmean(se):.2f} pp, max {max(se):.2f} pp,"
        f" {sum(s > CONFUSION_SE for s in se)} above {CONFUSION_SE:.0f} pp;"
        f" points mean {points_se:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-peer", action="store_true", help="skip the to-the-round's-end peer")
    args = parser.parse_args()
    print(
        f"budget {args.budget} s a decision (nominal), one process, seat 0,"
        f" load {os.getloadavg()[0]:.1f}"
    )
    for name, players in GAMES:
        text = play_record(name, players, args.seed)
        figures = analyze(text, args.budget, args.seed, None)
        print(report(name, players, figures))
        evaluator = evaluator_for(cardtable.load(name, players=players))
        if args.no_peer or evaluator.cutoff is None:
            continue
        peer = analyze(text, args.budget, args.seed, ToRoundEnd(evaluator))
        print("  peer, playouts to the round's end: " + report(name, players, peer))
        se_ratio = statistics.fmean(peer.win_se()) / statistics.fmean(figures.win_se())
        print(
            f"  the peer's mean loss SE is {se_ratio:.1f}x the cutoff's, its CPU time"
            f" {peer.cpu_s / figures.cpu_s:.2f}x (load {os.getloadavg()[0]:.1f})"
        )


if __name__ == "__main__":
    main()
