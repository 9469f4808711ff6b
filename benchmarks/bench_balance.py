"""Games per second of the balance lab beside the arena, on the same games in the same run.

    nice -n 10 python benchmarks/bench_balance.py [--games 200] [--repeats 3] [--jobs 1 2]

For every registered game at its default player count, heuristic bots at every
seat (the lab's default; random where a game has no heuristic), both run end
to end as their commands run them, without printing: ``run_arena`` (play,
count, OpenSkill ratings) and ``plan_run`` + ``run_balance`` (play with the
per-decision measurements, every figure). Runs alternate arena, lab, arena,
lab…, and each is timed in CPU seconds of this process and its workers
(``getrusage``), not on the wall clock: on a machine shared with other work
the wall clock measures the neighbours. Each row reports the best of
``--repeats``. The lab must not be slower than the arena per game: the ratio
column is lab / arena games per CPU second.

The two commands play different deals (the arena rotates identical bots over
each deal; the lab gives every game its own), so a second table plays the
*same* games one by one in this process: the arena's ``play_task`` and the
lab's ``play_measured`` on the lab's schedule, alternating game by game.
"""

from __future__ import annotations

import argparse
import resource
import time

from cardtable.arena import run_arena
from cardtable.arena.runner import ArenaSpec, play_task
from cardtable.balance import plan_run, run_balance
from cardtable.balance.measure import play_measured
from cardtable.balance.plan import tasks_of
from cardtable.balance.run import default_bot
from cardtable.core.registry import game_names, manifest


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def arena_seconds(game: str, players: int, games: int, jobs: int) -> float:
    bots = [default_bot(game)] * players
    start = cpu_seconds()
    run_arena(game, bots, games=games, seed=1, options={"players": players}, jobs=jobs)
    return cpu_seconds() - start


def balance_seconds(game: str, players: int, games: int, jobs: int) -> float:
    start = cpu_seconds()
    spec = plan_run(game, players=[players], games=games)
    run_balance(spec, games=games, seed=1, jobs=jobs)
    return cpu_seconds() - start


def same_games(game: str, players: int, games: int) -> tuple[float, float]:
    """CPU seconds of the arena's and of the lab's game loop over the same games."""
    spec = plan_run(game, players=[players], games=games)
    arena_spec = ArenaSpec(game, (("players", players),), spec.lineup(0))
    arena = lab = 0.0
    for task in tasks_of(spec, 1, games):
        start = time.process_time()
        play_task(arena_spec, task.game)
        middle = time.process_time()
        play_measured(spec, task)
        arena, lab = arena + middle - start, lab + time.process_time() - middle
    return arena, lab


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each; the best counts")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args()
    heading = ("game", "players", "jobs", "arena g/cpu-s", "lab g/cpu-s", "lab/arena")
    print("{:<20} {:>7} {:>4} {:>13} {:>13} {:>9}".format(*heading))
    for game in args.game or game_names():
        players = manifest(game).default_players
        for jobs in args.jobs:
            arena, lab = float("inf"), float("inf")
            for _ in range(args.repeats):
                arena = min(arena, arena_seconds(game, players, args.games, jobs))
                lab = min(lab, balance_seconds(game, players, args.games, jobs))
            print(
                f"{game:<20} {players:>7} {jobs:>4} {args.games / arena:>13.1f}"
                f" {args.games / lab:>13.1f} {arena / lab:>9.2f}"
            )
    print("\nthe same games, one by one in this process (CPU seconds of the game loop)")
    print("{:<20} {:>7} {:>13} {:>13} {:>9}".format("game", "players", *heading[3:]))
    for game in args.game or game_names():
        players = manifest(game).default_players
        arena, lab = same_games(game, players, args.games)
        print(
            f"{game:<20} {players:>7} {args.games / arena:>13.1f}"
            f" {args.games / lab:>13.1f} {arena / lab:>9.2f}"
        )


if __name__ == "__main__":
    main()
