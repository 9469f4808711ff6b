"""Decisions per second of uniform-random MyRummy 111 games, beside OpenSpiel's
C++ ``gin_rummy`` driven the same way from Python in the same run.

Both games are played to the end through their public APIs: ours with
``state.legal_moves()`` / ``state.apply(...)`` (dealing and the MR-4.6
reshuffles use the state's generator), OpenSpiel's with ``legal_actions()`` /
``apply_action(...)`` and chance outcomes sampled uniformly. Only player
decisions are counted; the time includes dealing and scoring.

Usage: ``python benchmarks/bench_engine_myrummy.py [seconds] [--players N] [--turn-limit N]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardtable.games.myrummy_111 import MyRummy111


def bench_ours(
    seconds: float, players: int, turn_limit: int, rounds: int | None
) -> tuple[float, int]:
    game = MyRummy111(players=players, turn_limit=turn_limit, rounds=rounds)
    rng = random.Random(12345)
    randrange = rng.randrange
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            state = game.new_game(rng)
            while not state.finished:
                moves = state.legal_moves()
                state.apply(moves[randrange(len(moves))])
                decisions += 1
            games += 1
    return decisions / (time.perf_counter() - start), games


def bench_gin_rummy(seconds: float) -> tuple[float, int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(12345)
    randrange = rng.randrange
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[randrange(len(actions))])
                decisions += 1
        games += 1
    return decisions / (time.perf_counter() - start), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--turn-limit", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=None)
    args = parser.parse_args()
    ours, our_games = bench_ours(args.seconds, args.players, args.turn_limit, args.rounds)
    print(
        f"myrummy-111 (players={args.players}, turn_limit={args.turn_limit}, rounds={args.rounds}):"
        f" {ours:,.0f} decisions/s over {our_games} games"
    )
    peer = bench_gin_rummy(args.seconds)
    if peer is None:
        print("pyspiel is not importable: OpenSpiel gin_rummy not measured")
        return
    theirs, their_games = peer
    print(
        f"OpenSpiel gin_rummy (C++ via pyspiel): {theirs:,.0f} decisions/s over {their_games} games"
    )
    print(f"ratio: {ours / theirs:.2f}x")


if __name__ == "__main__":
    main()
