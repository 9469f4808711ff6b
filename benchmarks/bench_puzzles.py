"""Puzzles: how fast they are made, how many decisions become one, how fast one is served.

    python benchmarks/bench_puzzles.py [--repeats 200] [--build-games 0]

For each game with a shipped set, from the set's own build records: puzzles
per CPU-minute of building (games played and analysed, screen and
confirmation) and the share of analysed decisions that became puzzles. Then
the time to serve one puzzle, the median of ``--repeats`` tries: read and
check the shipped set, choose the next puzzle for a fresh profile, rebuild
its view and legal moves against the engine (what ``cardtable puzzle`` does
before it draws the table). With ``--build-games N`` a fresh build of N games
is timed as well (CPU time, so a loaded machine gives the same figure).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from cardtable.core.registry import game_names, load, manifest
from cardtable.learn.build import build_puzzles
from cardtable.learn.puzzles import NoPuzzlesError, load_puzzles
from cardtable.learn.trainer import Profile, next_puzzle


def serve_once(name: str, profile: Profile) -> None:
    puzzles = load_puzzles(name)
    puzzle = next_puzzle(puzzles, profile)
    game = load(puzzles.game, **puzzles.options)
    game.view_from_json(puzzle.view)
    for move in puzzle.legal:
        game.move_from_json({"seat": puzzle.seat, **move}, "legal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--build-games", type=int, default=0)
    args = parser.parse_args()
    for name in game_names():
        if not manifest(name).has("tutorial"):
            continue
        try:
            puzzles = load_puzzles(name)
        except NoPuzzlesError as exc:
            print(f"{name}: {exc}")
            continue
        builds = puzzles.builds
        cpu = sum(float(str(b["cpu_seconds"])) for b in builds)
        analysed = sum(int(str(b["analysed"])) for b in builds)
        games = sum(int(str(b["games"])) for b in builds)
        count = len(puzzles.puzzles)
        print(
            f"{name}: {count} puzzles from {analysed} decisions of {games} games"
            f" ({100 * count / max(1, analysed):.1f}% became puzzles),"
            f" {count / (cpu / 60):.2f} puzzles per CPU-minute ({cpu / 60:.1f} CPU-minutes)"
        )
        with tempfile.TemporaryDirectory() as folder:
            profile = Profile(Path(folder) / "profile.json")
            times = []
            for _ in range(args.repeats):
                start = time.perf_counter()
                serve_once(name, profile)
                times.append(time.perf_counter() - start)
        print(f"  serve one puzzle: median {1000 * statistics.median(times):.1f} ms")
        if args.build_games:
            game = load(puzzles.game, **puzzles.options)
            start = time.process_time()
            _, stats = build_puzzles(game, games=args.build_games, budget=0.4, seed=99, per_game=15)
            minutes = (time.process_time() - start) / 60
            print(
                f"  fresh build: {stats.puzzles} puzzles from {stats.analysed} decisions,"
                f" {stats.puzzles / minutes:.2f} per CPU-minute"
            )


if __name__ == "__main__":
    main()
