"""Environment steps per second through PettingZoo's AEC API, our adapter
beside PettingZoo's own ``leduc_holdem_v4`` and ``texas_holdem_v4`` (rlcard)
driven the same way in the same run.

    python benchmarks/bench_adapters.py [--seconds 3]

Every loop is the classic one: ``env.last()`` (which builds the acting agent's
observation and mask), a uniformly random legal action drawn from the mask with
one ``numpy.random.Generator``, ``env.step(action)``; at the end of a game the
terminated agents step with ``None`` (counted as steps, as PettingZoo's own
``performance_benchmark`` counts them) and the environment is reset. The
peers need ``pip install rlcard pygame``; without them ours are measured alone.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from cardtable.adapters.pettingzoo import env as cardtable_env


def steps_per_second(make: Callable[[], Any], seconds: float, seed: int) -> float:
    e = make()
    rng = np.random.default_rng(seed)
    steps = 0
    episode = seed
    e.reset(seed=episode)
    start = time.perf_counter()
    while True:
        for _ in range(1000):
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            e.step(action)
            steps += 1
            if not e.agents:
                episode += 1
                e.reset(seed=episode)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def peers() -> dict[str, Callable[[], Any]]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except ImportError as exc:
        print(f"(PettingZoo's rlcard environments are unavailable: {exc})")
        return {}
    return {"leduc_holdem_v4": leduc_holdem_v4.env, "texas_holdem_v4": texas_holdem_v4.env}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ours: dict[str, Callable[[], Any]] = {
        "marshmallow-test 4p": lambda: cardtable_env("marshmallow-test", players=4),
        "myrummy-111 2p": lambda: cardtable_env("myrummy-111", players=2),
        "myrummy-111 4p": lambda: cardtable_env("myrummy-111", players=4),
    }

    def measure(makers: dict[str, Callable[[], Any]]) -> dict[str, float]:
        return {name: steps_per_second(mk, args.seconds, args.seed) for name, mk in makers.items()}

    results, theirs = measure(ours), measure(peers())
    for name, rate in {**results, **theirs}.items():
        print(f"{name:22s} {rate:10,.0f} env steps/s")
    for peer, peer_rate in theirs.items():
        for name, rate in results.items():
            print(f"{name} / {peer}: {rate / peer_rate:.2f}x")


if __name__ == "__main__":
    main()
