"""Games per second of the balance lab beside the arena, on the same games in the same run.

    nice -n 10 python benchmarks/bench_balance.py [--games 200] [--repeats 3] [--jobs 1 2]

For every registered game at its default player count, heuristic bots at every
seat (the lab's default; random where a game has no heuristic), both run end
to end as their commands run them, without printing: ``run_arena`` (play,
count, OpenSkill ratings) and ``plan_run`` + ``run_balance`` (play with the
per-decision measurements, every figure). Runs alternate arena, lab, arena,
lab… so that a neighbour's load on a shared machine falls on both alike, and
each row reports the best of ``--repeats``. The lab must not be slower than
the arena per game: the ratio column is lab / arena games per second.
"""

from __future__ import annotations

import argparse
import time

from cardtable.arena import run_arena
from cardtable.balance import plan_run, run_balance
from cardtable.balance.run import default_bot
from cardtable.core.registry import game_names, manifest


def arena_seconds(game: str, players: int, games: int, jobs: int) -> float:
    bots = [default_bot(game)] * players
    start = time.perf_counter()
    run_arena(game, bots, games=games, seed=1, options={"players": players}, jobs=jobs)
    return time.perf_counter() - start


def balance_seconds(game: str, players: int, games: int, jobs: int) -> float:
    start = time.perf_counter()
    spec = plan_run(game, players=[players], games=games)
    run_balance(spec, games=games, seed=1, jobs=jobs)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each; the best counts")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args()
    heading = ("game", "players", "jobs", "arena g/s", "lab g/s", "lab/arena")
    print("{:<20} {:>7} {:>4} {:>10} {:>10} {:>9}".format(*heading))
    for game in args.game or game_names():
        players = manifest(game).default_players
        for jobs in args.jobs:
            arena, lab = float("inf"), float("inf")
            for _ in range(args.repeats):
                arena = min(arena, arena_seconds(game, players, args.games, jobs))
                lab = min(lab, balance_seconds(game, players, args.games, jobs))
            print(
                f"{game:<20} {players:>7} {jobs:>4} {args.games / arena:>10.1f}"
                f" {args.games / lab:>10.1f} {arena / lab:>9.2f}"
            )


if __name__ == "__main__":
    main()
