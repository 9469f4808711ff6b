"""Distil the learned policy into a network cheap enough for ``pimc``'s playouts (issue 26).

    OMP_NUM_THREADS=1 nice -n 19 python3 benchmarks/train_playout_policy_marshmallow.py \\
        [--players 2 3 4 5] [--roots 3000] [--playouts 32] [--hidden 64] \\
        [--temperature 0.3] [--epochs 24] [--seed 1] \\
        [--policy cardtable/games/marshmallow_test/bots/policy.npz] \\
        [--out cardtable/games/marshmallow_test/bots/playout_policy.npz]

``pimc-lp`` (:mod:`cardtable.games.marshmallow_test.bots.learned_playout`)
runs the shipped policy (``policy.npz``: two hidden layers of 256) on every
card of every playout with a choice, which makes its playouts 5 to 33 times
dearer than ``pimc``'s. The student here is one small hidden layer (or none,
``--hidden 0``) giving a logit per card, fitted to the teacher's own outputs:

1. Positions: whole games of the teacher (``learned``, or the network
   ``--policy`` names, such as a second iteration's) at every seat, one
   move in ten uniformly random so that the games spread, give the roots
   (one decision with a choice of cards in five); from each root, ``pimc-lp`` runs ``--playouts``
   playouts and every row its playouts ask the policy about is kept (the
   features the seat to move sees in that determinized world, and its legal
   cards): exactly the positions the student will meet in the playouts. No
   search values are needed, so the data costs seconds, not the hours of
   ``pimc`` self-play.
2. Half of the rows have their five colours renamed by an order drawn at
   random (the rules treat colours alike, MT-1.1; as the teacher's trainer
   does), and the teacher's logits are taken on the rows as they then read.
3. The student is fitted by Adam to the softmax of the teacher's logits over
   the legal cards (soft targets); the root games' last ``--holdout`` are
   held out. Printed per player count: rows, how often the student's best
   card is the teacher's (the playouts play the best card), and the
   cross-entropy, on held-out rows; and how long each step took.

The weights go to ``--out`` in the teacher's file format (float32,
compressed), read by :class:`~cardtable.games.marshmallow_test.bots.learned.Policy`.
Everything runs in one process with one numpy thread. The shipped weights
came from the defaults on the shared 2-core machine, 2026-12-05, and the
4-player ones again from the policy's third iteration with ``--players 4
--update`` (``--update`` keeps the other player counts of ``--out``),
2026-12-06 (time and memory are in ``docs/strength.md``).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path
from typing import Any, ClassVar

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: before numpy loads BLAS
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from numpy.typing import NDArray
from train_policy_marshmallow import (
    add_update_option,
    colour_permutations,
    keep_weights,
    write_weights,
)

from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test import MarshmallowTest
from cardtable.games.marshmallow_test.bots.learned import (
    FORMAT,
    WEIGHTS,
    LearnedBot,
    Policy,
    PolicyError,
    load_policy,
)
from cardtable.games.marshmallow_test.bots.learned_playout import (
    PLAYOUT_WEIGHTS,
    LearnedPlayoutBot,
    SeenBatch,
)
from cardtable.games.marshmallow_test.bots.playout import IntA, masks_to_bool
from cardtable.games.marshmallow_test.cards import NUM_CARDS
from cardtable.games.marshmallow_test.moves import Play

F32 = NDArray[np.float32]
BoolA = NDArray[np.bool_]


class RecordingBatch(SeenBatch):
    """A teacher's playout batch that keeps what it asked the policy."""

    sink: ClassVar[list[tuple[F32, BoolA]]] = []  # (features, legal) per step, all sub-batches

    def _heuristic(self, at: IntA, hand: IntA, legal: IntA) -> IntA:
        ask = self.seen.by_policy[self.to_move] & ((legal & (legal - 1)) != 0)
        rows = np.flatnonzero(ask)
        if len(rows):
            self.sink.append((self.features(rows), masks_to_bool(legal[rows])))
        return super()._heuristic(at, hand, legal)


class RecordingBot(LearnedPlayoutBot):
    batch_type = RecordingBatch


class Teacher(LearnedBot):
    """The policy distilled, playing the root games (``--policy`` sets its weights)."""


def positions(
    players: int, roots: int, playouts: int, seed: int
) -> tuple[F32, BoolA, NDArray[np.int64]]:
    """The rows the teacher's playouts ask about, from ``roots`` root
    decisions of teacher self-play; and which root game each row comes from."""
    game = MarshmallowTest(players=players)
    rng = random.Random(seed * 1_000_003 + players)
    RecordingBatch.sink = []
    games: list[int] = []
    g = 0
    found = 0
    while found < roots:
        state = game.new_game(random.Random(rng.getrandbits(64)))
        teachers = [Teacher(s, game, rng) for s in range(players)]
        while not state.finished and found < roots:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_moves()
            view = state.view(seat)
            # One decision in five: roots from many games, not a few.
            if len(legal) > 1 and isinstance(legal[0], Play) and rng.random() < 0.2:
                before = len(RecordingBatch.sink)
                bot = RecordingBot(seat, game, rng, Budget(iterations=playouts))
                bot.choose(view, legal)
                games += [g] * sum(len(x) for x, _ in RecordingBatch.sink[before:])
                found += 1
            if rng.random() < 0.1:
                move = legal[rng.randrange(len(legal))]
            else:
                move = teachers[seat].choose(view, legal)
            state.apply(move)
        g += 1
    x = np.concatenate([x for x, _ in RecordingBatch.sink])
    legal_rows = np.concatenate([lg for _, lg in RecordingBatch.sink])
    RecordingBatch.sink = []
    return x, legal_rows, np.array(games, dtype=np.int64)


def rename_colours(x: F32, legal: BoolA, game: Any, rng: np.random.Generator) -> tuple[F32, BoolA]:
    """Half of the rows with their colours renamed (one random order each)."""
    enc = Policy(game).encoder
    obs_orders, act_orders = colour_permutations(enc.blocks, enc.size)
    pick = rng.integers(len(obs_orders), size=len(x))
    pick[rng.random(len(x)) < 0.5] = 0  # order 0 is the identity: the row as played
    # In slices: an index per feature of every row at once would take gigabytes.
    for start in range(0, len(x), 65536):
        at = slice(start, start + 65536)
        rows = np.arange(start, min(start + 65536, len(x)))[:, None]
        x[at] = x[rows, obs_orders[pick[at]]]
        legal[at] = legal[rows, act_orders[pick[at]][:, :NUM_CARDS]]
    return x, legal


def teacher_logits(game: Any, x: F32, weights: Path) -> F32:
    """The policy's logits for the cards (0-59), as the playouts take them."""
    layers = Policy(game, weights).layers
    out: list[F32] = []
    for start in range(0, len(x), 8192):
        h = x[start : start + 8192]
        for w, b in layers[:-1]:
            h = np.maximum(h @ w + b, 0)
        w, b = layers[-1]
        out.append(h @ w[:, :NUM_CARDS] + b[:NUM_CARDS])
    return np.concatenate(out)


def masked_softmax(logits: F32, legal: BoolA) -> F32:
    z = np.where(legal, logits, -np.inf)
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    out: F32 = (e / e.sum(1, keepdims=True)).astype(np.float32)
    return out


def forward(p: dict[str, F32], x: F32) -> tuple[F32 | None, F32]:
    """The student's hidden layer (``None`` when it has none) and its logits."""
    if "w2" not in p:
        return None, x @ p["w1"] + p["b1"]
    h = np.maximum(x @ p["w1"] + p["b1"], 0)
    return h, h @ p["w2"] + p["b2"]


def train(
    x: F32, legal: BoolA, target: F32, *, hidden: int, epochs: int, lr: float, seed: int
) -> dict[str, F32]:
    """Adam on the cross-entropy between the teacher's and the student's
    masked softmax, with cosine decay of the rate."""
    rng = np.random.default_rng(seed)
    size = x.shape[1]

    def he(fan_in: int, fan_out: int) -> F32:
        w: F32 = (rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        return w

    if hidden:
        p = {
            "w1": he(size, hidden),
            "b1": np.zeros(hidden, dtype=np.float32),
            "w2": he(hidden, NUM_CARDS),
            "b2": np.zeros(NUM_CARDS, dtype=np.float32),
        }
    else:
        p = {"w1": he(size, NUM_CARDS), "b1": np.zeros(NUM_CARDS, dtype=np.float32)}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v2 = {k: np.zeros_like(v) for k, v in p.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    batch = 512
    for epoch in range(epochs):
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            idx = order[start : start + batch]
            xb, lb, tb = x[idx], legal[idx], target[idx]
            h, logits = forward(p, xb)
            g_out = (masked_softmax(logits, lb) - tb) / len(idx)  # illegal cards: both 0
            if h is None:
                grads = {"w1": xb.T @ g_out, "b1": g_out.sum(0)}
            else:
                grads = {"w2": h.T @ g_out, "b2": g_out.sum(0)}
                g_h = (g_out @ p["w2"].T) * (h > 0)
                grads["w1"], grads["b1"] = xb.T @ g_h, g_h.sum(0)
            step += 1
            for k, g in grads.items():
                m[k] = beta1 * m[k] + (1 - beta1) * g
                v2[k] = beta2 * v2[k] + (1 - beta2) * g * g
                mh = m[k] / (1 - beta1**step)
                vh = v2[k] / (1 - beta2**step)
                p[k] = (p[k] - rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
    return p


def agreement(p: dict[str, F32], x: F32, legal: BoolA, teacher: F32) -> tuple[float, float]:
    """Share of rows where the student's best legal card is the teacher's, and the cross-entropy."""
    _, logits = forward(p, x)
    mine = np.where(legal, logits, -np.inf)
    best = np.where(legal, teacher, -np.inf).argmax(1)
    target = masked_softmax(teacher, legal)
    logq = np.log(np.maximum(masked_softmax(logits, legal), 1e-30))
    ce = float(-(target * np.where(legal, logq, 0)).sum(1).mean())
    return float((mine.argmax(1) == best).mean()), ce


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--roots", type=int, default=3000, help="root decisions per player count")
    parser.add_argument("--playouts", type=int, default=32, help="teacher playouts per root")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (0: linear)")
    parser.add_argument(
        "--temperature", type=float, default=0.3, help="of the teacher's softmax (targets)"
    )
    parser.add_argument("--epochs", type=int, default=24)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--holdout", type=float, default=0.1, help="share of root games held out")
    parser.add_argument("--out", type=Path, default=PLAYOUT_WEIGHTS)
    parser.add_argument(
        "--policy", type=Path, default=WEIGHTS, help="the policy to distil (its .npz)"
    )
    add_update_option(parser)
    args = parser.parse_args()
    try:
        load_policy(args.policy)  # a bad path is one line now, not a traceback minutes in
    except PolicyError as exc:
        parser.error(str(exc))
    # The teacher's network plays the root games and the playouts they search.
    Teacher.weights = RecordingBot.weights = args.policy

    weights: dict[str, NDArray[np.generic]] = {
        "format": np.array(FORMAT),
        "hidden": np.array(args.hidden),
    }
    for n in args.players:
        game = MarshmallowTest(players=n)
        started = time.perf_counter()
        x, legal, games = positions(n, args.roots, args.playouts, args.seed)
        gathered = time.perf_counter() - started
        x, legal = rename_colours(x, legal, game, np.random.default_rng(args.seed + n))
        teacher = teacher_logits(game, x, args.policy)
        target = masked_softmax(teacher / args.temperature, legal)
        held = games >= np.quantile(games, 1 - args.holdout)
        started = time.perf_counter()
        p = train(
            x[~held],
            legal[~held],
            target[~held],
            hidden=args.hidden,
            epochs=args.epochs,
            lr=args.lr,
            seed=args.seed,
        )
        fit_agree, fit_ce = agreement(p, x[~held], legal[~held], teacher[~held])
        test_agree, test_ce = agreement(p, x[held], legal[held], teacher[held])
        print(
            f"{n}p: {int((~held).sum())} training / {int(held.sum())} held-out rows from"
            f" {args.roots} roots ({int(games.max()) + 1} games), gathered in {gathered:.0f} s,"
            f" trained in {time.perf_counter() - started:.0f} s\n"
            f"  best card = teacher's: train {100 * fit_agree:.1f}%,"
            f" held-out {100 * test_agree:.1f}%;"
            f" cross-entropy train {fit_ce:.3f}, held-out {test_ce:.3f}",
            flush=True,
        )
        keep_weights(weights, n, p, x.shape[1])
    write_weights(args.out, weights, update=args.update)


if __name__ == "__main__":
    main()
