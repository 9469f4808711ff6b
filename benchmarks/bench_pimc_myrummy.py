"""Simulations per second of the MyRummy 111 search bot (``pimc``).

A *simulation* is one determinization of the bot's view (hidden cards sampled
consistently with it), one candidate move played on it, a truncated playout
of ``horizon`` turns by the heuristic playout policy, and one evaluation (the
estimated chance to win the game). Positions come from heuristic self-play,
sampled at every decision of the bot's seat; the rate also counts the
per-decision set-up (building the determinization skeleton and candidates).
Determinizations alone are timed too.

Beside it, in the same run, OpenSpiel's Python ``ISMCTSBot``
(``RandomRolloutEvaluator``, one rollout to the end of the game per
simulation) deciding the first move of ``gin_rummy`` (2 players), when
``pyspiel`` is importable: the ratio between the two is the figure to compare
across machines and loads. ``--cpu`` times both on this process's CPU clock
(:func:`time.process_time`), which a loaded machine disturbs less than the
wall clock.

With ``--strength GAMES`` it instead plays ``pimc`` against heuristic
bots (one ``pimc`` seat, rotated over the seats on repeated deals) and
prints its game-win rate (MR-7; a shared win counts 1/k) with a 95% Wilson
interval; ``--jobs`` processes, ``--budget`` seconds per decision.

Usage: ``python benchmarks/bench_pimc_myrummy.py [seconds-per-row] [--players 2 4] [--cpu]``
``[--strength GAMES --budget 0.1 --jobs 2]``
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openspiel_peer import Clock, ismcts_rate  # beside this script

from cardtable.bots.base import Budget
from cardtable.games.myrummy_111 import MyRummy111, MyRummyView
from cardtable.games.myrummy_111.bots.heuristic import HeuristicBot
from cardtable.games.myrummy_111.bots.pimc import PIMCBot
from cardtable.games.myrummy_111.determinize import Skeleton


def positions(players: int, count: int, seed: int) -> list[tuple[MyRummyView, tuple[object, ...]]]:
    """Views (and legal moves) of seat 0 at its decisions in heuristic self-play."""
    game = MyRummy111(players=players, rounds=1)
    out: list[tuple[MyRummyView, tuple[object, ...]]] = []
    g = 0
    while len(out) < count:
        bots = [HeuristicBot(s, game, random.Random(seed + g * 10 + s)) for s in range(players)]
        state = game.new_game(random.Random(seed + g))
        while not state.finished:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            if seat == 0:
                out.append((view, state.legal_moves()))
            state.apply(bots[seat].choose(view, state.legal_moves()))
        g += 1
    return out[:count]


def bench(
    players: int, seconds: float, horizon: int | None, clock: Clock = time.perf_counter
) -> float:
    """Prints the row for ``players`` and returns its simulations/s."""
    game = MyRummy111(players=players, rounds=1)
    spots = positions(players, 200, 1)
    bot = PIMCBot(0, game, random.Random(0), Budget(iterations=40), horizon=horizon)
    sims = 0
    decisions = 0
    searched = 0
    search_time = 0.0
    start = clock()
    while clock() - start < seconds:
        view, legal = spots[decisions % len(spots)]
        t = clock()
        bot.choose(view, legal)  # type: ignore[arg-type]
        if bot.last_simulations:  # a decision that searched (the rest use lookahead only)
            search_time += clock() - t
            sims += bot.last_simulations
            searched += 1
        decisions += 1
    elapsed = clock() - start
    rng = random.Random(2)
    samples = 0
    t0 = clock()
    for view, _ in spots:
        skeleton = Skeleton(game, view)
        for _ in range(20):
            skeleton.sample_fast(rng)
            samples += 1
    det = samples / (clock() - t0)
    print(
        f"myrummy-111 pimc players={players} horizon={bot.horizon}: "
        f"{sims / search_time:,.0f} simulations/s in the {searched} of {decisions} decisions"
        f" that searched (40 simulations each), {1000 * elapsed / decisions:.1f} ms per"
        " decision on average; "
        f"{det:,.0f} determinizations/s (sample_fast)"
    )
    return sims / search_time


def bench_openspiel(
    seconds: float, seed: int, clock: Clock = time.perf_counter
) -> tuple[float, int] | None:
    """Simulations/s of OpenSpiel's Python ISMCTSBot on gin_rummy's first move,
    or None when pyspiel is not importable."""

    def dealt(state: Any, rng: random.Random) -> None:
        while state.is_chance_node():  # the deal, at random
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])

    return ismcts_rate("gin_rummy", {}, dealt, 50, seconds, seed, clock)


def _strength_game(task: tuple[int, int, float]) -> tuple[float, int]:
    """One game: pimc in seat ``g % players``, deal ``g // players``."""
    g, players, seconds = task
    game = MyRummy111(players=players)
    me = g % players
    bots: list[HeuristicBot | PIMCBot] = [
        HeuristicBot(s, game, random.Random(g * 100 + s)) for s in range(players)
    ]
    bots[me] = PIMCBot(me, game, random.Random(g * 100 + me), Budget(seconds=seconds))
    state = game.new_game(random.Random(g // players))  # the same deals in every seat
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    winners = state.winners
    return (1 / len(winners) if me in winners else 0.0), state.round_number


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (wins may be fractional)."""
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return mid - half, mid + half


def strength(players: int, games: int, seconds: float, jobs: int) -> None:
    from multiprocessing import Pool

    tasks = [(g, players, seconds) for g in range(games)]
    start = time.perf_counter()
    with Pool(jobs) as pool:
        results = pool.map(_strength_game, tasks)
    wins = sum(w for w, _ in results)
    low, high = wilson_interval(wins, games)
    print(
        f"myrummy-111 {players}p pimc ({seconds}s/decision) vs {players - 1} x heuristic:"
        f" game wins {wins / games:.3f} [{low:.3f}, {high:.3f}] over {games} games"
        f" (fair share {1 / players:.3f}), {sum(r for _, r in results) / games:.2f} rounds/game"
        f" [{time.perf_counter() - start:.0f}s]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=5.0)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--horizon", type=int, default=None)
    parser.add_argument("--strength", type=int, default=0, metavar="GAMES")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per decision")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--cpu", action="store_true", help="time on the process's CPU clock, not the wall clock"
    )
    parser.add_argument("--no-peer", action="store_true", help="skip OpenSpiel's ISMCTSBot")
    args = parser.parse_args()
    if args.strength:
        for players in args.players:
            strength(players, args.strength, args.budget, args.jobs)
        return
    clock: Clock = time.process_time if args.cpu else time.perf_counter
    if args.cpu:
        print("timed on the process's CPU clock")
    peer = None if args.no_peer else bench_openspiel(min(args.seconds, 3.0), 1, clock)
    if peer is None:
        if not args.no_peer:
            print("pyspiel is not importable: OpenSpiel's ISMCTSBot not measured")
    else:
        print(
            f"gin_rummy (2p, OpenSpiel Python ISMCTSBot, random rollouts): "
            f"{peer[0]:,.0f} simulations/s ({peer[1]:,} simulations)"
        )
    for players in args.players:
        ours = bench(players, args.seconds, args.horizon, clock)
        if peer is not None:
            print(f"  = x{ours / peer[0]:.2f} OpenSpiel's ISMCTSBot on gin_rummy")


if __name__ == "__main__":
    main()
