"""Does analysis rank players as their strength says? random < heuristic < search.

    python benchmarks/analysis_ladder.py --game marshmallow-test --players 4 \\
        --games 100 --budget 0.1 --jobs 2 [--search-iterations 1000]

For every game seed, seat 0 is played once by each bot of the ladder
(``random``, ``heuristic``, then the game's search bot with a fixed number of
iterations) against ``heuristic`` bots in the other seats, on the same deals;
then seat 0's decisions are analyzed (``cardtable.analysis``, the given
budget, seed = game seed). Printed per bot: games, mean accuracy with a 95%
interval (normal approximation over games), expected points lost per game,
and win chance lost per decision; then the paired differences between
neighbouring rungs (same seeds), with their 95% intervals.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import cardtable
from cardtable.analysis.evaluator import evaluator_for
from cardtable.analysis.report import summarise
from cardtable.analysis.run import analyze_record
from cardtable.analysis.winmodel import WinModel, fit_win_model
from cardtable.bots import Budget, make_bot
from cardtable.core.registry import manifest

MODELS: dict[tuple[str, int], WinModel] = {}


@dataclass(frozen=True)
class Job:
    game: str
    players: int
    bot: str
    seed: int
    budget: float
    iterations: int


def run(job: Job) -> tuple[str, int, float, float, float]:
    """(bot, seed, accuracy, points lost, win chance lost per decision) of one game."""
    game = cardtable.load(job.game, players=job.players)
    state = game.new_game(random.Random(job.seed))
    search = Budget(iterations=job.iterations)
    bots = [
        make_bot(
            job.bot if s == 0 else "heuristic", game, s, random.Random(job.seed * 10 + s), search
        )
        for s in range(job.players)
    ]
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    key = (job.game, job.players)
    if key not in MODELS:  # one win model per process: the same in every game of the run
        MODELS[key] = fit_win_model(game, evaluator_for(game))
    analyses = analyze_record(
        json.dumps(state.record()), seats=[0], budget=job.budget, seed=job.seed, model=MODELS[key]
    )
    summary = summarise(analyses, [str(s) for s in range(job.players)])[0]
    judged = max(1, summary.decisions - summary.forced)
    return (
        job.bot,
        job.seed,
        summary.accuracy,
        summary.points_lost.mean,
        summary.win_lost.mean / judged,
    )


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{mean:7.2f} ± {half:5.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="marshmallow-test")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--search-iterations", type=int, default=1000)
    args = parser.parse_args()
    search = manifest(args.game).search_bot
    ladder = ["random", "heuristic", *([search] if search else [])]
    jobs = [
        Job(args.game, args.players, bot, args.seed + g, args.budget, args.search_iterations)
        for g in range(args.games)
        for bot in ladder
    ]
    results: dict[str, dict[int, tuple[float, float, float]]] = {bot: {} for bot in ladder}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for bot, seed, acc, points, win in pool.map(run, jobs):
            results[bot][seed] = (acc, points, win)
    print(
        f"{args.game} {args.players}p, seat 0 against heuristic bots, {args.games} games a bot,"
        f" budget {args.budget} s a decision (search bot: {args.search_iterations} iterations)"
    )
    print(f"{'bot':<12}{'accuracy':>18}{'points lost/game':>20}{'win lost/decision %':>24}")
    for bot in ladder:
        rows = list(results[bot].values())
        print(
            f"{bot:<12}{interval([r[0] for r in rows]):>18}{interval([r[1] for r in rows]):>20}"
            f"{interval([100 * r[2] for r in rows]):>24}"
        )
    for low, high in itertools.pairwise(ladder):
        seeds = sorted(results[low])
        diff = [results[high][s][0] - results[low][s][0] for s in seeds]
        print(f"accuracy {high} - {low}: {interval(diff)} (paired by deal)")


if __name__ == "__main__":
    main()
