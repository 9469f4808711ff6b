"""A policy learned from ``pimc``'s search, played without searching (issue 26, item 2).

The weights (``policy.npz`` beside this module) are a small MLP per player
count, trained by ``benchmarks/train_policy_marshmallow.py`` to give the
moves ``pimc`` valued highest in its own self-play. Its only input is the
seat's view through the game's observation encoder
(:mod:`cardtable.games.marshmallow_test.observations`), so it knows what the
seat may know (MT-9) and nothing more. The bot plays the legal move with the
highest logit, lowest move index on a tie: the same view always gives the
same move, and neither its generator nor a budget changes that.

:class:`FilteredPIMCBot` uses the policy inside the search instead: ``pimc``
over the policy's few best moves only.

>>> import random
>>> from cardtable.games.marshmallow_test import MarshmallowTest
>>> game = MarshmallowTest(players=4)
>>> state = game.new_game(random.Random(1))
>>> bot = LearnedBot(0, game, random.Random(2))
>>> bot.choose(state.view(0), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardtable.bots.base import Budget
from cardtable.core.errors import CardtableError
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot
from cardtable.games.marshmallow_test.moves import NUM_ACTIONS
from cardtable.games.marshmallow_test.observations import MarshmallowEncoder
from cardtable.games.marshmallow_test.view import MarshmallowView

FORMAT = 1  # the layout of the weights file; the trainer writes it, the bot checks it
WEIGHTS = Path(__file__).with_name("policy.npz")
F32 = NDArray[np.float32]


class PolicyError(CardtableError):
    """The weights file is missing, of another format, or has no model for the game."""


@cache
def load_policy(path: Path = WEIGHTS) -> dict[str, F32]:
    """Every array of the weights file, read once per process."""
    try:
        with np.load(path) as f:
            arrays = {k: f[k] for k in f.files}
    except OSError as exc:
        raise PolicyError(f"cannot read the learned policy {path}: {exc}") from None
    if "format" not in arrays or int(arrays["format"]) != FORMAT:
        raise PolicyError(
            f"{path} is not a learned policy of format {FORMAT}; regenerate it with"
            " benchmarks/train_policy_marshmallow.py (policy.npz) or"
            " benchmarks/train_playout_policy_marshmallow.py (playout_policy.npz)"
        )
    return arrays


class Policy:
    """One player count's network: the view's encoding to a logit per move
    (per card only, for the playouts' distilled network)."""

    def __init__(self, game: Any, path: Path = WEIGHTS) -> None:
        self.encoder = MarshmallowEncoder(game)
        arrays = load_policy(path)
        key = f"{game.num_players}p"
        if f"{key}/w1" not in arrays:
            raise PolicyError(f"{path} holds no model for {game.num_players} players")
        if int(arrays[f"{key}/size"]) != self.encoder.size:
            raise PolicyError(
                f"{path}: the {key} model reads {int(arrays[f'{key}/size'])} inputs,"
                f" the encoder writes {self.encoder.size}"
            )
        # As many layers as the file holds: the playouts' distilled network has fewer.
        depth = 1
        while f"{key}/w{depth + 1}" in arrays:
            depth += 1
        self.layers = [(arrays[f"{key}/w{i}"], arrays[f"{key}/b{i}"]) for i in range(1, depth + 1)]

    def features(self, view: MarshmallowView) -> F32:
        """What the network reads: the view's encoding, nothing else."""
        return self.encoder.encode(view)

    def logits(self, view: MarshmallowView) -> F32:
        """One score per move of the 65 (the higher, the more the search liked it)."""
        h = self.features(view)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0)
        return h


class LearnedBot:
    """Plays the learned policy's best legal move; thinks for no budget."""

    weights: Path = WEIGHTS  # the network it plays

    def __init__(
        self, seat: int, game: Any, rng: random.Random, budget: Budget | None = None
    ) -> None:
        self.seat = seat
        self.game = game
        self.policy = Policy(game, self.weights)

    def choose(self, view: MarshmallowView, legal: Sequence[Any]) -> Any:
        if not isinstance(view, MarshmallowView) or view.seat != self.seat:
            raise TypeError("LearnedBot decides from its own seat's MarshmallowView only")
        if len(legal) == 1:
            return legal[0]
        logits = self.policy.logits(view)
        mask = np.full(NUM_ACTIONS, -np.inf, dtype=np.float32)
        for move in legal:
            mask[move.index] = 0.0
        best = int(np.argmax(logits + mask))  # first of equals: the lowest index
        return next(m for m in legal if m.index == best)


class FilteredPIMCBot(PIMCBot):
    """``pimc`` searching only the learned policy's ``keep`` best legal moves:
    the same playouts a decision spread over fewer candidates."""

    def __init__(
        self,
        seat: int,
        game: Any,
        rng: random.Random,
        budget: Budget | None = None,
        *,
        keep: int = 3,
    ) -> None:
        super().__init__(seat, game, rng, budget)
        self.policy = Policy(game)
        self.keep = keep

    def choose(self, view: MarshmallowView, legal: Sequence[Any]) -> Any:
        if not isinstance(view, MarshmallowView) or view.seat != self.seat:
            raise TypeError("FilteredPIMCBot decides from its own seat's MarshmallowView only")
        if len(legal) > self.keep:
            logits = self.policy.logits(view)
            # Stable sort: of equal logits the earlier legal move stays first.
            legal = sorted(legal, key=lambda m: -float(logits[m.index]))[: self.keep]
        return super().choose(view, legal)


__all__ = [
    "FORMAT",
    "WEIGHTS",
    "FilteredPIMCBot",
    "LearnedBot",
    "Policy",
    "PolicyError",
    "load_policy",
]
