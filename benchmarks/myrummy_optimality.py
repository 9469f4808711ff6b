"""How far the heuristic's placement is from optimal, on reduced decks.

A one-player abstraction of MyRummy 111's sorting race (MR-4.2–4.4, MR-6.1):
a hand of ``h`` cards from a deck of ``n`` values spread over 2…111; every
turn a card is drawn uniformly from the ``n - h`` cards not in the hand (a
blind take, discards recycled), placed by MR-4.3/4.4 (replace one card, or
insert at an end and drop the far end), and the goal is a sorted hand (MR-6.1)
in the fewest turns. Value iteration gives the optimal expected turns ``V*``;
policy evaluation gives the heuristic's (``heuristic.quality`` placement) and
the one-card-lookahead policy's (place to minimise the heuristic's value after
the next blind draw). Reported: expected turns from a uniformly random hand.

In the real game (``--game N``): the mean number of own turns the heuristic
and ``ismcts`` need until their hand is sorted, 12 cards from 110, with the
three middle cards as they come, against a heuristic opponent that never
declares (so the count is not cut short); N games per bot.

Usage: ``python benchmarks/myrummy_optimality.py [--sizes 4:16 4:24] [--game 50]``
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import numpy.typing as npt

from cardtable.bots.myrummy_111.heuristic import quality
from cardtable.bots.myrummy_111.playout import distinct_places
from cardtable.games.myrummy_111.scoring import is_sorted
from cardtable.games.myrummy_111.state import hand_after_place


def solve(h: int, n: int) -> dict[str, float]:
    values = [2 + round(k * 109 / (n - 1)) for k in range(n)]  # spread like 2…111
    hands = list(itertools.permutations(values, h))
    index = {hand: i for i, hand in enumerate(hands)}
    places = distinct_places(h)
    m = len(hands)
    draws = n - h
    # nxt[i, d, k]: the hand after drawing the d-th card not in hand i, placement k
    nxt = np.empty((m, draws, len(places)), dtype=np.int32)
    heur = np.empty((m, draws), dtype=np.int32)  # the heuristic's choice (index k)
    qual = np.empty(m)
    done = np.zeros(m, dtype=bool)
    for i, hand in enumerate(hands):
        done[i] = is_sorted(hand)
        qual[i] = max(quality(hand, True), quality(hand, False))
        rest = [v for v in values if v not in hand]
        for d, card in enumerate(rest):
            best, best_k = -1e9, 0
            for k, (p, s) in enumerate(places):
                after = tuple(hand_after_place(hand, card, p, s))
                nxt[i, d, k] = index[after]
                q = max(quality(after, True), quality(after, False))
                if q > best:
                    best, best_k = q, k
            heur[i, d] = best_k

    def evaluate(choice: npt.NDArray[np.int32]) -> npt.NDArray[np.float64]:
        """Expected turns to sorted under a fixed placement rule."""
        v = np.zeros(m)
        target = nxt[np.arange(m)[:, None], np.arange(draws)[None, :], choice]
        for _ in range(5000):
            new = np.where(done, 0.0, 1.0 + v[target].mean(axis=1))
            if np.max(np.abs(new - v)) < 1e-9:
                break
            v = new
        return v

    v = np.zeros(m)
    for _ in range(5000):  # value iteration: V = 1 + E_draw min_place V
        new = np.where(done, 0.0, 1.0 + v[nxt].min(axis=2).mean(axis=1))
        if np.max(np.abs(new - v)) < 1e-9:
            break
        v = new
    optimal = v
    heuristic = evaluate(heur)
    # One-card lookahead: place where the heuristic's *next* blind draw is best
    # in expectation (judging that next hand by quality, as the heuristic does).
    after_q = qual[nxt].max(axis=2).mean(axis=1)  # per hand: E[best quality next]
    look = np.argmax(np.where(done[nxt], 1e9, after_q[nxt]), axis=2).astype(np.int32)
    lookahead = evaluate(look)
    start = ~done
    chosen = v[np.take_along_axis(nxt, heur[:, :, None], axis=2)[:, :, 0]]
    agree = chosen <= v[nxt].min(axis=2) + 1e-9  # the heuristic's placement is optimal
    return {
        "states": float(m),
        "optimal": float(optimal[start].mean()),
        "heuristic": float(heuristic[start].mean()),
        "lookahead": float(lookahead[start].mean()),
        "agree": float(agree[start].mean()),
    }


def turns_to_sort(bot_name: str, games: int, players: int = 2) -> tuple[float, float]:
    """Mean (and standard error) of own turns until the bot's hand is sorted."""
    import random

    from cardtable.bots.base import Budget
    from cardtable.bots.myrummy_111 import HeuristicBot
    from cardtable.bots.myrummy_111.ismcts import ISMCTSBot
    from cardtable.games.myrummy_111 import MyRummy111, Place

    game = MyRummy111(players=players, rounds=1)
    counts = []
    for g in range(games):
        bot: HeuristicBot | ISMCTSBot
        if bot_name == "heuristic":
            bot = HeuristicBot(0, game, random.Random(g))
        else:
            bot = ISMCTSBot(0, game, random.Random(g), Budget(seconds=0.1))
        others = [HeuristicBot(s, game, random.Random(1000 + g)) for s in range(players)]
        state = game.new_game(random.Random(g))
        own = 0
        while not state.finished:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_moves()
            if seat == 0:
                move = bot.choose(state.view(0), legal)
            else:  # never declares, so the round runs until seat 0 is sorted
                move = others[seat].choose(state.view(seat), legal)
                if isinstance(move, Place) and move.declare:
                    move = next(m for m in legal if m == Place(move.position, move.discard))
            state.apply(move)
            if seat == 0 and isinstance(move, Place):
                own += 1
                if is_sorted(state.hands[0]):
                    break
        counts.append(own)
    mean = sum(counts) / len(counts)
    var = sum((c - mean) ** 2 for c in counts) / max(1, len(counts) - 1)
    return mean, (var / len(counts)) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", default=["4:16", "4:24"])
    parser.add_argument("--game", type=int, default=0, help="games per bot for turns to sort")
    args = parser.parse_args()
    for name in ("heuristic", "ismcts") if args.game else ():
        mean, se = turns_to_sort(name, args.game)
        print(f"real game, 12 cards: {name} sorts its hand in {mean:.2f} ± {se:.2f} own turns")
    for spec in args.sizes:
        h, n = map(int, spec.split(":"))
        t = time.perf_counter()
        r = solve(h, n)
        print(
            f"hand {h} from {n} cards ({r['states']:,.0f} hands): expected turns to sorted"
            f" optimal {r['optimal']:.2f}, heuristic {r['heuristic']:.2f}"
            f" (+{100 * (r['heuristic'] / r['optimal'] - 1):.0f}%),"
            f" one-card lookahead {r['lookahead']:.2f}"
            f" (+{100 * (r['lookahead'] / r['optimal'] - 1):.0f}%);"
            f" heuristic placement optimal in {100 * r['agree']:.0f}% of (hand, draw)"
            f" [{time.perf_counter() - t:.0f}s]"
        )


if __name__ == "__main__":
    main()
