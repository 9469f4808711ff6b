"""A small policy network for any game, fitted to a bot's choices.

Expert iteration for games that bring no search of their own (issue 26,
item 4; :mod:`cardtable.bots.learned` plays it and makes its data). The
input is the vector the game's observation encoder writes for one seat's
view (the manifest's ``observation_encoder``: built from views only, so no
hidden card is ever an input); the output is a logit per action of the
game's fixed action space (``Move.index``), of which only the legal ones
are compared. One hidden layer of ReLU units, fitted by Adam on the
cross-entropy of the teacher's choices over the legal moves; inference is
a few numpy products, so playing needs no training library.

A file (``.npz``) says which game and player count it was fitted for; a
file for another, or one that is not such a policy, is refused in one
sentence naming the file (:class:`PolicyFileError`).

>>> import numpy as np
>>> x = np.eye(4, dtype=np.float32)            # four situations, one-hot
>>> legal = np.ones((4, 3), dtype=bool)        # three actions, all legal
>>> net = fit(x, legal, np.array([0, 1, 2, 1]), game="demo", players=2, epochs=200)
>>> [net.choice(row, [0, 1, 2]) for row in x]  # it learned the teacher's choices
[0, 1, 2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core.errors import CardtableError

__all__ = ["FORMAT", "PolicyFileError", "PolicyNet", "fit"]

FORMAT = "cardtable-policy/1"
Floats = npt.NDArray[np.float32]


class PolicyFileError(CardtableError):
    """A policy file that cannot be used: unreadable, not a policy, or fitted
    for another game or player count."""


@dataclass(frozen=True, eq=False)
class PolicyNet:
    """Weights of one hidden layer: ``inputs × hidden``, then ``hidden × actions``."""

    game: str
    players: int
    w1: Floats
    b1: Floats
    w2: Floats
    b2: Floats

    @property
    def inputs(self) -> int:
        return int(self.w1.shape[0])

    @property
    def actions(self) -> int:
        return int(self.w2.shape[1])

    def logits(self, x: Floats) -> Floats:
        """One row of logits per row of ``x`` (observation vectors)."""
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        out: Floats = hidden @ self.w2 + self.b2
        return out

    def choice(self, observation: Floats, legal: Sequence[int]) -> int:
        """The position in ``legal`` (action indices) of the best-rated
        action; the first of equals."""
        row = self.logits(observation[None, :])[0]
        return int(np.argmax(row[list(legal)]))

    def save(self, path: str | Path) -> None:
        np.savez_compressed(
            path,
            format=np.array(FORMAT),
            game=np.array(self.game),
            players=np.array(self.players),
            w1=self.w1,
            b1=self.b1,
            w2=self.w2,
            b2=self.b2,
        )

    @classmethod
    def load(cls, source: Any, game: str, players: int, inputs: int, actions: int) -> PolicyNet:
        """The policy in ``source`` (a path or an open binary file), checked to
        be for ``game`` at ``players`` with the encoder's ``inputs`` and the
        game's ``actions``."""
        where = getattr(source, "name", source)
        try:
            with np.load(source, allow_pickle=False) as data:
                if str(data["format"]) != FORMAT:
                    raise PolicyFileError(f"{where}: not a {FORMAT} file")
                net = cls(
                    str(data["game"]),
                    int(data["players"]),
                    *(np.asarray(data[k], dtype=np.float32) for k in ("w1", "b1", "w2", "b2")),
                )
        except PolicyFileError:
            raise
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise PolicyFileError(f"{where}: not a readable {FORMAT} file ({exc})") from None
        if (net.game, net.players) != (game, players):
            raise PolicyFileError(
                f"{where}: fitted for {net.game} at {net.players} players, not {game} at {players}"
            )
        hidden = net.w1.shape[1] if net.w1.ndim == 2 else -1
        shapes = (net.w1.shape, net.b1.shape, net.w2.shape, net.b2.shape)
        if shapes != ((inputs, hidden), (hidden,), (hidden, actions), (actions,)):
            raise PolicyFileError(
                f"{where}: its layers do not fit {inputs} inputs and {actions} actions"
            )
        return net


def fit(
    x: Floats,
    legal: npt.NDArray[np.bool_],
    chosen: npt.NDArray[np.integer[Any]],
    *,
    game: str,
    players: int,
    hidden: int = 64,
    epochs: int = 30,
    batch: int = 256,
    rate: float = 3e-3,
    seed: int = 0,
) -> PolicyNet:
    """Fit a policy to rows of observations ``x``, their legal actions (a
    boolean mask per row) and the action the teacher chose (an index)."""
    rng = np.random.default_rng(seed)
    rows, inputs = x.shape
    actions = legal.shape[1]
    params = [
        (rng.standard_normal((inputs, hidden)) * np.sqrt(2.0 / inputs)).astype(np.float32),
        np.zeros(hidden, np.float32),
        (rng.standard_normal((hidden, actions)) * np.sqrt(1.0 / hidden)).astype(np.float32),
        np.zeros(actions, np.float32),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(rows)
        for start in range(0, rows, batch):
            pick = order[start : start + batch]
            grads = _gradients(params, x[pick], legal[pick], chosen[pick])
            step += 1
            for p, g, m, v in zip(params, grads, first, second, strict=True):
                # Adam, with its usual constants
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return PolicyNet(game, players, *params)


def _gradients(
    params: list[Floats], x: Floats, legal: npt.NDArray[np.bool_], chosen: npt.NDArray[Any]
) -> list[Floats]:
    """The mean cross-entropy's gradients, the softmax over legal actions only."""
    w1, b1, w2, b2 = params
    pre = x @ w1 + b1
    hidden = np.maximum(pre, 0.0)
    logits = np.where(legal, hidden @ w2 + b2, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    prob = np.exp(logits)
    prob /= prob.sum(axis=1, keepdims=True)
    prob[np.arange(len(chosen)), chosen] -= 1.0
    d_out = (prob / len(chosen)).astype(np.float32)
    d_hidden = (d_out @ w2.T) * (pre > 0)
    return [x.T @ d_hidden, d_hidden.sum(0), hidden.T @ d_out, d_out.sum(0)]
