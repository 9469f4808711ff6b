"""The peer the search benchmarks print their ratio against: OpenSpiel's
Python ``ISMCTSBot`` (``RandomRolloutEvaluator``, one rollout to the end per
simulation), timed deciding a position of an OpenSpiel game in the same run.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Clock = Callable[[], float]


def ismcts_rate(
    game_name: str,
    params: dict[str, Any],
    ready: Callable[[Any, random.Random], None],
    per_call: int,
    seconds: float,
    seed: int,
    clock: Clock,
) -> tuple[float, int] | None:
    """Simulations/s of ``ISMCTSBot`` over ``seconds``, each call ``per_call``
    simulations from a new state that ``ready(state, rng)`` brings to the
    position to decide; None when pyspiel is not importable."""
    try:
        import numpy as np
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
        from open_spiel.python.algorithms import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
            ismcts,
            mcts,
        )
    except ImportError:
        return None
    game = pyspiel.load_game(game_name, params)
    rng = random.Random(seed)
    sims = 0
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_initial_state()
        ready(state, rng)
        np_rng = np.random.RandomState(rng.getrandbits(31))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
        bot = ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=per_call, random_state=np_rng
        )
        start = clock()
        bot.step(state)
        elapsed += clock() - start
        sims += per_call
    return sims / elapsed, sims
