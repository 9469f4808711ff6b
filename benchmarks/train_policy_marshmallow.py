"""Distil Marshmallow Test's ``pimc`` search into a small policy (issue 26, item 2).

    OMP_NUM_THREADS=1 PYTHONPATH=. nice -n 10 python3 benchmarks/train_policy_marshmallow.py \\
        [--decisions 2:20000 4:20000 3:6000 5:6000] [--teacher pimc] [--iterations 1000] \\
        [--seed 1] [--data /tmp/mt_policy_data.npz ...] [--hidden 256] \\
        [--out cardtable/games/marshmallow_test/bots/policy.npz] [--update]

1. Data: the teacher (``pimc``; or ``pimc-lp-small``, whose playouts follow
   the network distilled from the first iteration: a second iteration of
   expert iteration) at a fixed iteration budget plays whole games against
   itself (every seat, seeded). Every decision with more than one legal move
   becomes one example: the deciding seat's view through the game's
   observation encoder (:mod:`cardtable.games.marshmallow_test.observations`,
   nothing else: the view is all a seat may know, MT-9), which of the 65
   moves were legal, and the search's value of each (its mean chance to win
   the game). ``heuristic``'s move in the same view is kept too, as a yardstick.
   With ``--data`` the examples are saved there, and a later run with the same
   path trains on them without playing again. Self-play is one process, so
   a machine's cores are used by runs side by side with other ``--seed``
   values and caches; ``--data A B ...`` then reads and joins them.
2. Training, one model per player count (the encoder's size depends on it):
   a numpy MLP (two ReLU layers) from the observation to one logit per move,
   softmax over the legal moves only, fitted by Adam to a soft target: the
   softmax of the search's values at ``--temperature``. Each batch has its
   five colours renamed by an order drawn at random (the rules treat the
   colours alike; without it the network learned its training positions by
   heart: 67% of their search's moves against 39% of held-out ones at 4
   players). Whole games are held out (the last ``--holdout`` of them), so
   no position of a held-out game was seen in training.
3. Printed per player count: examples, held-out cross-entropy, how often the
   policy's top move is the search's, and the search's own estimate of what
   the policy's move costs (best value minus the value of the move picked,
   in points of win chance), beside the same for ``heuristic``; and how long
   each step took. The weights go to ``--out`` (float32, compressed), read
   by :mod:`cardtable.games.marshmallow_test.bots.learned`.

Everything runs in this one process (numpy with one thread: set
``OMP_NUM_THREADS=1``), so it can sit beside other work on a small machine.
The shipped weights for 2, 3 and 5 players came from the defaults
(``--data`` aside), on one core of the shared 2-core machine under load 5–9,
2026-12-05: self-play 25 min (2p 307 s, 3p 156 s, 5p 341 s), training
102 s. The 4-player ones (2026-12-06) from eight times the data and a wider
network: two runs of ``--decisions 4:80000`` side by side (``--seed 11`` and
``--seed 12``, each with its own ``--data`` cache; 13 min), then
``--data`` with both caches, ``--hidden 512 --update`` (6.5 min); 3.5 MB in
all. ``docs/strength.md`` has the figures and the commands.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: before numpy loads BLAS
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from numpy.typing import NDArray

from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test import MarshmallowTest
from cardtable.games.marshmallow_test.bots.heuristic import HeuristicBot
from cardtable.games.marshmallow_test.bots.learned import FORMAT, WEIGHTS
from cardtable.games.marshmallow_test.bots.learned_playout import SmallPlayoutBot
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot
from cardtable.games.marshmallow_test.cards import NUM_CARDS, NUM_COLOURS
from cardtable.games.marshmallow_test.moves import NUM_ACTIONS
from cardtable.games.marshmallow_test.observations import MarshmallowEncoder

F32 = NDArray[np.float32]
DEFAULT_DECISIONS = ("2:20000", "4:20000", "3:6000", "5:6000")


@dataclass
class Examples:
    """One player count's decisions, row by row."""

    obs: F32  # (rows, encoder size)
    legal: NDArray[np.bool_]  # (rows, 65)
    values: F32  # (rows, 65): the search's mean win chance per legal move, 0 elsewhere
    heuristic: NDArray[np.int64]  # heuristic's move index in the same view
    game: NDArray[np.int64]  # which self-play game the row comes from


#: The searches whose choices can be distilled: ``pimc`` (the first iteration)
#: and ``pimc-lp-small``, whose playouts follow the first iteration's network
#: (the second: expert iteration, search over the policy distilled again).
TEACHERS: dict[str, type[PIMCBot]] = {"pimc": PIMCBot, "pimc-lp-small": SmallPlayoutBot}


def generate(
    players: int, decisions: int, iterations: int, seed: int, teacher: str = "pimc"
) -> Examples:
    """``teacher`` self-play until ``decisions`` searched decisions are recorded."""
    game = MarshmallowTest(players=players)
    enc = MarshmallowEncoder(game)
    obs: list[F32] = []
    legal_rows: list[NDArray[np.bool_]] = []
    value_rows: list[F32] = []
    heur: list[int] = []
    games: list[int] = []
    g = 0
    while len(obs) < decisions:
        base = seed * 1_000_003 + players * 10_007 + g
        state = game.new_game(random.Random(base))
        budget = Budget(iterations=iterations)
        search = TEACHERS[teacher]
        bots = [search(s, game, random.Random(base * 7 + s), budget) for s in range(players)]
        yardstick = [HeuristicBot(s, game, random.Random(base * 11 + s)) for s in range(players)]
        while not state.finished:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_moves()
            view = state.view(seat)
            move = bots[seat].choose(view, legal)
            if len(legal) > 1 and len(obs) < decisions:
                mask = np.zeros(NUM_ACTIONS, dtype=bool)
                values = np.zeros(NUM_ACTIONS, dtype=np.float32)
                for m, v in zip(legal, bots[seat].last_values, strict=True):
                    mask[m.index] = True
                    values[m.index] = v
                obs.append(enc.encode(view).copy())
                legal_rows.append(mask)
                value_rows.append(values)
                heur.append(yardstick[seat].choose(view, legal).index)
                games.append(g)
            state.apply(move)
        g += 1
    return Examples(
        np.stack(obs),
        np.stack(legal_rows),
        np.stack(value_rows),
        np.array(heur, dtype=np.int64),
        np.array(games, dtype=np.int64),
    )


def save_examples(path: Path, data: dict[int, Examples]) -> None:
    arrays: dict[str, NDArray[np.generic]] = {}
    for n, ex in data.items():
        for field in ("obs", "legal", "values", "heuristic", "game"):
            arrays[f"{n}p/{field}"] = getattr(ex, field)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def load_examples(path: Path) -> dict[int, Examples]:
    with np.load(path) as f:
        counts = sorted({int(k.split("p/")[0]) for k in f.files})
        return {
            n: Examples(
                f[f"{n}p/obs"],
                f[f"{n}p/legal"],
                f[f"{n}p/values"],
                f[f"{n}p/heuristic"],
                f[f"{n}p/game"],
            )
            for n in counts
        }


def join_examples(runs: list[dict[int, Examples]]) -> dict[int, Examples]:
    """Several caches as one, per player count; each run's games numbered
    after the previous run's, so that whole games are still what is held out
    (the last runs' last games)."""
    joined: dict[int, Examples] = {}
    for run in runs:
        for n, ex in run.items():
            before = joined.get(n)
            if before is None:
                joined[n] = ex
                continue
            joined[n] = Examples(
                np.concatenate([before.obs, ex.obs]),
                np.concatenate([before.legal, ex.legal]),
                np.concatenate([before.values, ex.values]),
                np.concatenate([before.heuristic, ex.heuristic]),
                np.concatenate([before.game, ex.game + int(before.game.max()) + 1]),
            )
    return joined


# --------------------------------------------------------------------------- model
def soft_targets(values: F32, legal: NDArray[np.bool_], temperature: float) -> F32:
    """Softmax of the search's values over the legal moves."""
    z = np.where(legal, values / temperature, -np.inf)
    z -= z.max(1, keepdims=True)
    e = np.exp(z)
    out: F32 = (e / e.sum(1, keepdims=True)).astype(np.float32)
    return out


def init_params(size: int, hidden: int, rng: np.random.Generator) -> dict[str, F32]:
    def he(fan_in: int, fan_out: int) -> F32:
        w: F32 = (rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        return w

    return {
        "w1": he(size, hidden),
        "b1": np.zeros(hidden, dtype=np.float32),
        "w2": he(hidden, hidden),
        "b2": np.zeros(hidden, dtype=np.float32),
        "w3": (he(hidden, NUM_ACTIONS) * 0.1).astype(np.float32),
        "b3": np.zeros(NUM_ACTIONS, dtype=np.float32),
    }


def forward(p: dict[str, F32], x: F32) -> tuple[F32, F32, F32]:
    h1 = np.maximum(x @ p["w1"] + p["b1"], 0)
    h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0)
    return h1, h2, h2 @ p["w3"] + p["b3"]


def masked_log_softmax(logits: F32, legal: NDArray[np.bool_]) -> F32:
    z = np.where(legal, logits, -1e9).astype(np.float32)
    z -= z.max(1, keepdims=True)
    out: F32 = z - np.log(np.exp(z).sum(1, keepdims=True))
    return out


def colour_permutations(
    blocks: tuple[tuple[str, int, int], ...], size: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For each of the 120 orders of the five colours, where each position of
    the observation and of the 65 moves comes from when the colours are
    renamed: ``obs[:, o[k]]`` and ``moves[:, a[k]]``. The rules treat the
    colours alike (MT-1.1, MT-4.2, MT-5), so a renamed position is as good an
    example, with the renamed moves, as the one played."""
    card_blocks = {"hand", "played_this_round", "current_trick_by_seat"}
    obs, acts = [], []
    for order in itertools.permutations(range(NUM_COLOURS)):
        cards = np.array([order[c // 12] * 12 + c % 12 for c in range(NUM_CARDS)])
        src = np.arange(size)
        for name, offset, length in blocks:
            if name in card_blocks:
                for start in range(offset, offset + length, NUM_CARDS):
                    src[start + cards] = start + np.arange(NUM_CARDS)
            elif name in ("voids_by_seat", "trump"):
                for start in range(offset, offset + length, NUM_COLOURS):
                    src[start + np.array(order)] = start + np.arange(NUM_COLOURS)
        act = np.arange(NUM_ACTIONS)
        act[cards] = np.arange(NUM_CARDS)
        act[NUM_CARDS + np.array(order)] = NUM_CARDS + np.arange(NUM_COLOURS)
        obs.append(src)
        acts.append(act)
    return np.array(obs), np.array(acts)


def train(
    x: F32,
    legal: NDArray[np.bool_],
    target: F32,
    *,
    hidden: int,
    epochs: int,
    lr: float,
    weight_decay: float,
    seed: int,
    augment: tuple[NDArray[np.int64], NDArray[np.int64]] | None,
) -> dict[str, F32]:
    """Adam on the cross-entropy between the soft target and the masked
    softmax; with ``augment`` (:func:`colour_permutations`) every batch has
    its colours renamed by one of the orders, drawn at random."""
    rng = np.random.default_rng(seed)
    p = init_params(x.shape[1], hidden, rng)
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v2 = {k: np.zeros_like(v) for k, v in p.items()}
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    batch = 256
    for epoch in range(epochs):
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))  # cosine decay
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            idx = order[start : start + batch]
            xb, lb, tb = x[idx], legal[idx], target[idx]
            if augment is not None:
                r = int(rng.integers(len(augment[0])))
                xb, lb, tb = xb[:, augment[0][r]], lb[:, augment[1][r]], tb[:, augment[1][r]]
            h1, h2, logits = forward(p, xb)
            probs = np.exp(masked_log_softmax(logits, lb))
            g3 = (probs - tb) / len(idx)  # d loss / d logits (illegal: both 0)
            grads = {"w3": h2.T @ g3, "b3": g3.sum(0)}
            g2 = (g3 @ p["w3"].T) * (h2 > 0)
            grads["w2"], grads["b2"] = h1.T @ g2, g2.sum(0)
            g1 = (g2 @ p["w2"].T) * (h1 > 0)
            grads["w1"], grads["b1"] = xb.T @ g1, g1.sum(0)
            step += 1
            for k, g in grads.items():
                if k.startswith("w"):
                    g = g + weight_decay * p[k]
                m[k] = b1 * m[k] + (1 - b1) * g
                v2[k] = b2 * v2[k] + (1 - b2) * g * g
                mh = m[k] / (1 - b1**step)
                vh = v2[k] / (1 - b2**step)
                p[k] = (p[k] - rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
    return p


@dataclass
class Scores:
    cross_entropy: float
    agree: float  # top move equals the search's best
    regret: float  # search's best value minus the value of the move picked, mean


def score_picks(
    values: F32, legal: NDArray[np.bool_], picks: NDArray[np.int64]
) -> tuple[float, float]:
    best = np.where(legal, values, -np.inf).argmax(1)
    rows = np.arange(len(values))
    regret = values[rows, best] - values[rows, picks]
    return float((picks == best).mean()), float(regret.mean())


def evaluate(p: dict[str, F32], ex: Examples, rows: NDArray[np.bool_], target: F32) -> Scores:
    _, _, logits = forward(p, ex.obs[rows])
    logp = masked_log_softmax(logits, ex.legal[rows])
    ce = float(-(target[rows] * np.where(ex.legal[rows], logp, 0)).sum(1).mean())
    picks = np.where(ex.legal[rows], logits, -np.inf).argmax(1)
    agree, regret = score_picks(ex.values[rows], ex.legal[rows], picks)
    return Scores(ce, agree, regret)


def keep_weights(
    weights: dict[str, NDArray[np.generic]],
    players: int,
    layers: dict[str, NDArray[np.float32]],
    size: int,
) -> None:
    """One player count's layers and input size, under ``{players}p/``, the
    key scheme :mod:`cardtable.games.marshmallow_test.bots.learned` reads."""
    for key, layer in layers.items():
        weights[f"{players}p/{key}"] = layer
    weights[f"{players}p/size"] = np.array(size)


def labelled_per_count(weights: dict[str, NDArray[np.generic]]) -> dict[str, NDArray[np.generic]]:
    """``weights`` with what describes its run (teacher, playouts, temperature,
    width: every top-level key but ``format``) filed under each player count,
    where ``--update`` keeps it with that count's layers. Files written before
    kept these labels at the top; they describe every count of such a file."""
    counts = {key.split("/")[0] for key in weights if "/" in key}
    out = {key: value for key, value in weights.items() if "/" in key or key == "format"}
    for key, value in weights.items():
        if "/" not in key and key != "format":
            for count in counts:
                out.setdefault(f"{count}/{key}", value)
    return out


def write_weights(
    path: Path, weights: dict[str, NDArray[np.generic]], *, update: bool = False
) -> None:
    """Write ``weights``; with ``update`` an existing file keeps the player
    counts this run did not train (one count retrained, the others as shipped),
    each with its own labels."""
    weights = labelled_per_count(weights)
    if update and path.exists():
        with np.load(path) as old:
            before = labelled_per_count({key: old[key] for key in old.files})
        trained = {key.split("/")[0] for key in weights if "/" in key}
        kept = {k: v for k, v in before.items() if "/" in k and k.split("/")[0] not in trained}
        weights = {**kept, **weights}
        print(f"kept from {path}: {', '.join(sorted({k.split('/')[0] for k in kept})) or 'none'}")
    np.savez_compressed(path, **weights)  # type: ignore[arg-type]
    print(f"weights written to {path} ({path.stat().st_size / 1e3:.0f} kB)")


def add_update_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--update",
        action="store_true",
        help="keep the player counts of an existing --out that this run does not train",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--decisions", nargs="+", default=list(DEFAULT_DECISIONS), help="PLAYERS:COUNT"
    )
    parser.add_argument("--teacher", choices=sorted(TEACHERS), default="pimc")
    parser.add_argument(
        "--iterations", type=int, default=1000, help="the teacher's playouts a decision"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--data",
        type=Path,
        nargs="+",
        help="examples cache (.npz): read if there, else written; several caches"
        " (runs with other --seed, made side by side) are read and joined",
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--temperature", type=float, default=0.03)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument(
        "--no-augment", action="store_true", help="train on the positions as played only"
    )
    parser.add_argument("--holdout", type=float, default=0.1, help="share of games held out")
    add_update_option(parser)
    args = parser.parse_args()
    wanted = {int(a.split(":")[0]): int(a.split(":")[1]) for a in args.decisions}

    caches: list[Path] = args.data or []
    if caches and all(path.exists() for path in caches):
        data = join_examples([load_examples(path) for path in caches])
        print(f"examples read from {', '.join(map(str, caches))}")
    elif len(caches) > 1:
        missing = ", ".join(str(path) for path in caches if not path.exists())
        parser.error(f"--data: {missing} not found; several caches are only read, never made")
    else:
        data = {}
        for n, count in wanted.items():
            started = time.perf_counter()
            data[n] = generate(n, count, args.iterations, args.seed, args.teacher)
            print(
                f"{n}p: {len(data[n].obs)} decisions from {int(data[n].game.max()) + 1} games of"
                f" {args.teacher}@{args.iterations} self-play"
                f" in {time.perf_counter() - started:.0f} s",
                flush=True,
            )
            if caches:
                save_examples(caches[0], data)  # after each player count: a stopped run keeps them

    weights: dict[str, NDArray[np.generic]] = {
        "format": np.array(FORMAT),
        "temperature": np.array(args.temperature),
        "iterations": np.array(args.iterations),
        "teacher": np.array(args.teacher),
    }
    for n, ex in sorted(data.items()):
        started = time.perf_counter()
        enc = MarshmallowEncoder(MarshmallowTest(players=n))
        held = ex.game >= np.quantile(ex.game, 1 - args.holdout)
        target = soft_targets(ex.values, ex.legal, args.temperature)
        p = train(
            ex.obs[~held],
            ex.legal[~held],
            target[~held],
            hidden=args.hidden,
            epochs=args.epochs,
            lr=args.lr,
            weight_decay=args.weight_decay,
            seed=args.seed,
            augment=None if args.no_augment else colour_permutations(enc.blocks, enc.size),
        )
        fit = evaluate(p, ex, ~held, target)
        test = evaluate(p, ex, held, target)
        h_agree, h_regret = score_picks(ex.values[held], ex.legal[held], ex.heuristic[held])
        moves = ex.legal[held].sum(1).mean()
        print(
            f"{n}p: {int((~held).sum())} training / {int(held.sum())} held-out decisions"
            f" ({moves:.1f} legal moves on average), {time.perf_counter() - started:.0f} s\n"
            f"  cross-entropy train {fit.cross_entropy:.3f}, held-out {test.cross_entropy:.3f}\n"
            f"  top move = search's best: train {100 * fit.agree:.1f}%,"
            f" held-out {100 * test.agree:.1f}% (heuristic {100 * h_agree:.1f}%)\n"
            f"  held-out regret (search's best minus the pick, points of win chance):"
            f" policy {100 * test.regret:.2f}, heuristic {100 * h_regret:.2f}",
            flush=True,
        )
        keep_weights(weights, n, p, ex.obs.shape[1])
    write_weights(args.out, weights, update=args.update)


if __name__ == "__main__":
    main()
