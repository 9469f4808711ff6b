"""Fit a game's learned policy to a bot's choices in self-play: one step of
expert iteration for any game with an observation encoder (issue 26, item 4).

    PYTHONPATH=. python3 benchmarks/train_policy_generic.py GAME --players 2 \\
        --teacher search@40 --games 150 --out PATH [--fixtures] [--seed 1]

The teacher (any bot of the game, ``NAME@PLAYOUTS`` or ``NAME@SECONDSs``)
plays every seat; each of its decisions with a choice becomes a row (the
seat's observation, its legal actions, the action taken), and a network of
one hidden layer is fitted to them (:mod:`cardtable.bots.policy_net`). A
tenth of the games is held out and the share of their decisions where the
network's best legal action is the teacher's is printed, beside the share
a uniformly random legal action would agree.

Name the file in the game's manifest (``playout_policy``, ``{players}`` for
the player count) and the generic ``search`` plays its playouts by it; run
this again with that ``search`` as the teacher for the next iteration.
``--fixtures`` registers the test suite's plugin games (Fixture Trick's
resampling twin, Fixture Shed), as ``bench_generic_search.py`` does.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cardtable
from cardtable.arena.duplicate import parse_contender
from cardtable.bots import Bot, bot_entries, make_bot
from cardtable.bots.learned import Rows, self_play
from cardtable.bots.policy_net import fit
from cardtable.core.errors import CardtableError
from cardtable.core.game import Game


@contextlib.contextmanager
def fixtures(wanted: bool) -> Iterator[None]:
    if not wanted:
        yield
        return
    from tests.bots.plugin import all_registered

    with all_registered():
        yield


def random_agreement(rows: Rows) -> float:
    """How often a uniformly random legal action would be the teacher's, on average."""
    return float(np.mean(1.0 / rows.legal.sum(axis=1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--teacher", default="search@40")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fixtures", action="store_true")
    args = parser.parse_args()
    if args.games < 10:
        parser.error("--games: at least 10 (a tenth is held out)")
    with fixtures(args.fixtures):
        try:
            game = cardtable.load(args.game, players=args.players)
            teacher = parse_contender(args.teacher)
            if teacher.name not in bot_entries(args.game):
                parser.error(f"--teacher: {args.game} has no bot {teacher.name!r}")
        except CardtableError as exc:
            parser.error(str(exc))
        start = time.perf_counter()

        def make(seat: int, g: Game, rng: random.Random) -> Bot:
            return make_bot(teacher.name, g, seat, rng, teacher.budget)

        held = args.games // 10
        train = self_play(game, make, args.games - held, args.seed)
        test = self_play(game, make, held, args.seed + 1)
        played = time.perf_counter() - start
        net = fit(
            train.x,
            train.legal,
            train.chosen,
            game=args.game,
            players=args.players,
            hidden=args.hidden,
            epochs=args.epochs,
            seed=args.seed,
        )
        fitted = time.perf_counter() - start - played
        logits = np.where(test.legal, net.logits(test.x), -np.inf)
        same = float(np.mean(logits.argmax(axis=1) == test.chosen))
        net.save(args.out)
    print(
        f"{args.game}, {args.players} players, teacher {teacher}: {len(train.chosen)} rows"
        f" from {args.games - held} games ({played:.0f} s of self-play, {fitted:.0f} s to fit)"
    )
    print(
        f"held out ({held} games, {len(test.chosen)} rows): the network's best = the teacher's"
        f" in {same:.1%}; a random legal move would agree in {random_agreement(test):.1%}"
    )
    print(f"written: {args.out}")


if __name__ == "__main__":
    main()
