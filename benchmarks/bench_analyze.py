"""How long analysing one seat of a whole game takes, and how sharp it is.

    python benchmarks/bench_analyze.py [--budget 0.5] [--jobs 1] [--seed 1]

One complete game of each: Marshmallow Test at 4 players and MyRummy 111 at
2 players, every seat played by the heuristic bot; seat 0 is analysed at the
given budget (default: ``cardtable analyze``'s). Reported per game: wall
time (win model included), decisions judged, playout moves per second, and
the standard errors of the reported losses (win chance, points).

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
import json
import os
import random
import statistics
import time

import cardtable
from cardtable.analysis.run import DEFAULT_BUDGET, analyse_record
from cardtable.bots import make_bot

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


def bench(name: str, players: int, budget: float, jobs: int, seed: int) -> dict[str, float]:
    text = play_record(name, players, seed)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    analyses = analyse_record(text, seats=[0], budget=budget, seed=seed, jobs=jobs)
    wall = time.perf_counter() - start
    judged = [a for a in analyses if a.fair is not None and a.hindsight is not None]
    played = [a.fair.groups[a.fair.group_of(a.decision.played)] for a in judged if a.fair]
    win_se = [100 * g.loss_win.se for g in played]
    moves = sum(a.fair.moves + a.hindsight.moves for a in judged if a.fair and a.hindsight)
    return {
        "decisions": len(analyses),
        "judged": len(judged),
        "wall_s": wall,
        "moves_per_s": moves / wall,
        "mean_se_win_pp": statistics.fmean(win_se),
        "max_se_win_pp": max(win_se),
        "above_bound": sum(se > CONFUSION_SE for se in win_se),
        "mean_se_points": statistics.fmean(g.loss_points.se for g in played),
        "load": load,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"budget {args.budget} s a decision (nominal), jobs {args.jobs}, seat 0")
    for name, players in GAMES:
        r = bench(name, players, args.budget, args.jobs, args.seed)
        print(
            f"{name} {players}p: {r['wall_s']:.1f} s for {r['judged']:.0f} judged of"
            f" {r['decisions']:.0f} decisions, {r['moves_per_s']:.0f} playout moves/s;"
            f" loss SE win mean {r['mean_se_win_pp']:.2f} pp, max {r['max_se_win_pp']:.2f} pp,"
            f" {r['above_bound']:.0f} above {CONFUSION_SE:.2f} pp; points mean"
            f" {r['mean_se_points']:.2f} (load {r['load']:.1f})"
        )


if __name__ == "__main__":
    main()
