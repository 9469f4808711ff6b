"""Duplicate comparison of two bots: paired win and ahead-of rates, and the games a claim needs.

    PYTHONPATH=. nice python3 benchmarks/bench_strength.py GAME --players 4 \\
        --x pimc@1000 --y heuristic [--field BOT] [--source BOT] \\
        --pairs 200 [--seed 1] [--jobs 2] [--first-rounds] [--report-every 25]

Each pair is a round start drawn from a source game (the source bot in every
seat, deterministic from the seed), played to the game's end once with X and
once with Y in the same seat, against the same field (default: Y in every
other seat, so a head-to-head) with the same seeds
(:mod:`cardtable.arena.duplicate`). ``--first-rounds`` starts every pair at
round 1 instead: whole games on duplicate deals.

Give bots a budget of their own as ``NAME@ITERATIONS`` (load-independent:
the development rows) or ``NAME@SECONDSs`` (equal time: final rows on a
quiet machine only). Bots without one think as their level or their default
says, which for search bots is wall-clock time.

Printed: the command line, then for the win share and for the share of
opponents finished ahead of: X's and Y's means with 95% Wilson intervals,
the paired difference X − Y with its 95% interval, the correlation of the
pairs' two outcomes, and how many pairs (and, for comparison, independent
games per bot) a difference of ``--delta`` needs at 95% confidence with 80%
power (:mod:`cardtable.arena.paired`). The same seed gives the same figures
with any ``--jobs``. ``--report-every N`` also prints, to stderr, the same
figures for the pairs finished so far each time N more are done, so a run
stopped early still says what it measured.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from cardtable.arena.duplicate import DuplicateSpec, PairResult, parse_contender, run_duplicate
from cardtable.arena.paired import PairedSummary, summarize
from cardtable.arena.run import ArenaError


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def interval(bounds: tuple[float, float], signed: bool = False) -> str:
    low, high = (f"{100 * b:+.1f}" if signed else f"{100 * b:.1f}" for b in bounds)
    return f"[{low}, {high}]"


def describe(what: str, s: PairedSummary) -> list[str]:
    return [
        f"{what}:",
        f"  X {percent(s.x)} {interval(s.x_ci95)}   Y {percent(s.y)} {interval(s.y_ci95)}"
        "   (95% Wilson)",
        f"  X - Y {100 * s.difference:+.1f} points {interval(s.difference_ci95, signed=True)}"
        f"   (95% paired interval, {s.pairs} pairs)",
        f"  correlation of the pairs' outcomes {s.correlation:.3f}",
        f"  for {100 * s.delta:.0f} points (95%, 80% power): {s.pairs_needed} pairs at this"
        f" correlation; {s.unpaired_needed} independent games per bot",
    ]


def report(results: list[PairResult], delta: float) -> list[str]:
    rounds = [r.round_number for r in results]
    return [
        f"pairs {len(results)}, round starts from round {min(rounds)} to {max(rounds)}"
        f" (mean {sum(rounds) / len(rounds):.2f})",
        *describe(
            "win share", summarize([r.x.win for r in results], [r.y.win for r in results], delta)
        ),
        *describe(
            "share of opponents finished ahead of",
            summarize([r.x.ahead for r in results], [r.y.ahead for r in results], delta),
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--x", required=True, help="the bot measured, NAME[@BUDGET]")
    parser.add_argument("--y", required=True, help="the bot it is measured against")
    parser.add_argument("--field", help="the other seats (default: --y)")
    parser.add_argument("--source", default="easy", help="plays the source games (default easy)")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first-rounds", action="store_true", help="start every pair at round 1")
    parser.add_argument("--delta", type=float, default=0.05, help="the claim to size (0.05)")
    parser.add_argument(
        "--report-every", type=int, default=0, help="figures so far every N pairs (stderr)"
    )
    args = parser.parse_args()
    if args.report_every < 0:
        parser.error(f"--report-every {args.report_every}: give 0 (never) or more")
    reported = 0  # pairs covered by the last report so far

    def report_so_far(done: list[PairResult]) -> None:
        nonlocal reported
        if args.report_every and len(done) >= reported + args.report_every:
            reported = len(done) - len(done) % args.report_every
            lines = [f"after {len(done)} of {args.pairs} pairs:", *report(done, args.delta)]
            print("\n".join(lines), file=sys.stderr, flush=True)

    print("$ PYTHONPATH=. python3 " + shlex.join(sys.argv), flush=True)
    try:
        spec = DuplicateSpec(
            args.game,
            (("players", args.players),),
            x=parse_contender(args.x),
            y=parse_contender(args.y),
            field=parse_contender(args.field or args.y),
            source=parse_contender(args.source),
            first_rounds=args.first_rounds,
        )
        started = time.perf_counter()
        results = run_duplicate(
            spec, seed=args.seed, pairs=args.pairs, jobs=args.jobs, progress=report_so_far
        )
    except ArenaError as exc:
        parser.error(str(exc))
    print(
        f"X {spec.x}, Y {spec.y}, field {spec.field}, source {spec.source},"
        f" {'whole games' if spec.first_rounds else 'sampled round starts'};"
        f" {time.perf_counter() - started:.0f} s with --jobs {args.jobs}"
    )
    print("\n".join(report(results, args.delta)))


if __name__ == "__main__":
    main()
