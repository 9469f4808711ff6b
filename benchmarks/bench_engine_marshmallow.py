"""Decisions per second of uniform-random Marshmallow Test games, beside
OpenSpiel's C++ ``oh_hell`` (12 tricks, 4 players) driven the same way from
Python in the same run.

    python benchmarks/bench_engine_marshmallow.py [--seconds 3] [--players 4]

The engine is measured as imported (the compiled build an editable install
makes, where it matches the source: ``cardtable/core/compiled.py``) and,
when that is compiled, once more as Python source in a child process.

Both loops pick uniformly among the legal moves with one ``random.Random``;
OpenSpiel's chance nodes (the deal) are sampled the same way but not counted
as decisions, just as our deals are not.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

import cardtable.games.marshmallow_test.state as engine
from cardtable.core import compiled
from cardtable.games.marshmallow_test import MarshmallowTest


def bench_ours(players: int, seconds: float, seed: int) -> tuple[float, int]:
    game = MarshmallowTest(players=players)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    while True:
        state = game.new_game(random.Random(rng.getrandbits(64)))
        while not state.finished:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            decisions += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed, decisions


def bench_openspiel(seconds: float, seed: int) -> tuple[float, int] | None:
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return decisions / elapsed, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ours-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()

    ours, n_ours = bench_ours(args.players, args.seconds, args.seed)
    if args.ours_only:  # the child that measures the source
        print(f"{ours} {n_ours}")
        return
    build = "compiled build" if compiled.is_compiled(engine) else "Python source"
    print(
        f"marshmallow-test ({args.players}p, cardtable, {build}): {ours:12,.0f} decisions/s"
        f"  ({n_ours:,} decisions)"
    )
    source = bench_source(args) if compiled.is_compiled(engine) else None
    if source is not None:
        print(
            f"marshmallow-test ({args.players}p, cardtable, Python source): {source[0]:12,.0f}"
            f" decisions/s  ({source[1]:,} decisions)"
        )
    peer = bench_openspiel(args.seconds, args.seed)
    if peer is None:
        print("pyspiel is not importable: OpenSpiel's oh_hell not measured")
        return
    theirs, n_theirs = peer
    print(
        f"oh_hell (4p, 12 tricks, OpenSpiel C++): {theirs:12,.0f} decisions/s"
        f"  ({n_theirs:,} decisions)"
    )
    print(f"ratio cardtable ({build}) / OpenSpiel: {ours / theirs:.2f}x")
    if source is not None:
        print(f"ratio cardtable (Python source) / OpenSpiel: {source[0] / theirs:.2f}x")


def bench_source(args: argparse.Namespace) -> tuple[float, int]:
    """This benchmark's loop over the engine's Python source, in a child
    process that imports no compiled build."""
    environment = {**os.environ, compiled.PURE_PYTHON_VARIABLE: "1"}
    command = [sys.executable, __file__, "--ours-only", "--seconds", str(args.seconds)]
    command += ["--players", str(args.players), "--seed", str(args.seed)]
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=True)
    rate, decisions = done.stdout.split()
    return float(rate), int(decisions)


if __name__ == "__main__":
    main()
