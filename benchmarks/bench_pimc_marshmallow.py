"""Simulations per second of the Marshmallow Test search bot (``pimc``), beside
OpenSpiel's Python ``ISMCTSBot`` on ``oh_hell`` measured in the same run.

    python benchmarks/bench_pimc_marshmallow.py [--seconds 2] [--players 2 3 4 5] [--cpu]

A *simulation* is one determinized playout of a whole round: our bot draws a
placement of the unseen cards, plays one of its legal moves and then every
player's cards to the end of the round (numpy-batched, heuristic policy
with 10% random cards), and scores it. Both bots decide the first card of a
round (the first trick: the longest playouts) on one core; OpenSpiel's
``ISMCTSBot`` (``RandomRolloutEvaluator``, one rollout per simulation) runs
``max_simulations`` simulations on ``oh_hell`` (4 players, 12 tricks, after
bidding: the first card, so its rollouts are as long as ours).

Both are timed on the wall clock, or with ``--cpu`` on this process's CPU
clock (:func:`time.process_time`), which a loaded machine disturbs less: the
ratio between the two, measured in the same run, is the figure to compare
across machines and loads.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from openspiel_peer import Clock, ismcts_rate  # beside this script

from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test import MarshmallowTest
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot


def bench_ours(
    players: int, seconds: float, seed: int, clock: Clock = time.perf_counter
) -> tuple[float, int]:
    """Simulations/s of ``PIMCBot`` deciding the first card of round 1."""
    game = MarshmallowTest(players=players)
    rng = random.Random(seed)
    sims = 0
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_game(random.Random(rng.getrandbits(64)))
        seat = state.to_move
        assert seat is not None
        bot = PIMCBot(seat, game, random.Random(rng.getrandbits(64)), Budget(seconds=0.5))
        start = clock()
        bot.evaluate(state.view(seat), state.legal_moves())
        elapsed += clock() - start
        sims += bot.last_simulations
    return sims / elapsed, sims


def bench_openspiel(
    seconds: float, seed: int, clock: Clock = time.perf_counter
) -> tuple[float, int] | None:
    """Simulations/s of OpenSpiel's Python ISMCTSBot on oh_hell's first card."""

    def first_card(state: Any, rng: random.Random) -> None:
        # Deal, trump and bids at random: the bot then decides the first card
        # (card actions are 0-51, bids 52 and up).
        while True:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if all(a < 52 for a in legal):
                return
            state.apply_action(legal[rng.randrange(len(legal))])

    params = {"players": 4, "num_tricks_fixed": 12}
    return ismcts_rate("oh_hell", params, first_card, 200, seconds, seed, clock)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cpu", action="store_true", help="time on the process's CPU clock, not the wall clock"
    )
    args = parser.parse_args()
    clock: Clock = time.process_time if args.cpu else time.perf_counter
    if args.cpu:
        print("timed on the process's CPU clock")

    peer = bench_openspiel(args.seconds, args.seed, clock)
    if peer is None:
        print("pyspiel is not importable: OpenSpiel's ISMCTSBot not measured")
    else:
        print(
            f"oh_hell (4p, OpenSpiel Python ISMCTSBot, random rollouts): "
            f"{peer[0]:10,.0f} simulations/s  ({peer[1]:,} simulations)"
        )
    for players in args.players:
        ours, n_ours = bench_ours(players, args.seconds, args.seed, clock)
        ratio = f"  x{ours / peer[0]:.1f} OpenSpiel" if peer else ""
        print(
            f"marshmallow-test ({players}p, cardtable pimc, first trick): "
            f"{ours:10,.0f} simulations/s  ({n_ours:,} simulations){ratio}"
        )


if __name__ == "__main__":
    main()
