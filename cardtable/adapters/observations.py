"""Flat observation vectors and action masks, built from views only.

Every adapter (PettingZoo, Gymnasium, OpenSpiel) encodes a seat's
``state.view(seat)`` with an :class:`Encoder`, never the state, so hidden cards
cannot leak into an observation by construction. A vector is float32 in
``[0, 1]``; its layout is fixed per game and player count and listed by
:func:`layout` (and in ``docs/research.md``). Per-seat blocks are in *relative*
seat order: block 0 is the observing seat, block 1 the next seat clockwise, …

Each game brings its own encoder, named by its manifest's
``observation_encoder`` (``"module:Class"``, ``Class(game)`` an
:class:`Encoder`); this module holds what every encoder shares
(:class:`Layout`, :class:`BaseEncoder`) and looks encoders up. A game without
one gets :class:`~cardtable.core.manifest.MissingPartError`.

Encoders keep memos (masks of shared move tuples, facts of the round's tricks),
so :func:`encoder` returns a new one on every call: an environment holds its
own and never shares it with another. :func:`encode` and :func:`action_mask`
are conveniences for a single call; loops should hold ``encoder(game)``.

>>> import random, cardtable
>>> game = cardtable.load(cardtable.game_names()[0], players=4)
>>> enc = encoder(game)
>>> state = game.new_game(random.Random(0))
>>> obs = enc.encode(state.view(0))
>>> obs.shape == (enc.size,), obs.dtype.name, float(obs.min()) >= 0.0, float(obs.max()) <= 1.0
(True, 'float32', True, True)
>>> mask = enc.mask(state.legal_moves())
>>> mask.shape == (game.num_actions,), int(mask.sum()) == len(state.legal_moves())
(True, True)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from cardtable.core.game import Game, Move, View
from cardtable.core.registry import manifest

__all__ = [
    "BaseEncoder",
    "Block",
    "Encoder",
    "Layout",
    "Mask",
    "Vector",
    "action_mask",
    "encode",
    "encoder",
    "layout",
    "observation_size",
]

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
Block = tuple[str, int, int]  # (name, offset, size)


class Encoder(Protocol):
    """One game's encoder: fixed size, layout and action-space size."""

    size: int
    num_actions: int
    blocks: tuple[Block, ...]

    def encode(self, view: Any) -> Vector: ...

    def mask(self, legal: Iterable[Move]) -> Mask: ...


class Layout:
    """Hands out consecutive offsets for named blocks, each with its divisor.

    Encoders write small non-negative integers (flags, card values, counts)
    into an ``array('H')`` -- far cheaper per item than numpy -- and one
    multiplication by the per-position ``1/divisor`` turns it into the float32
    vector. Every integer written must be clipped to its divisor, so that
    values lie in ``[0, 1]``.

    >>> lay = Layout()
    >>> lay.add("hand", 3), lay.add("score", 1, divisor=20), lay.blocks
    (0, 3, [('hand', 0, 3), ('score', 3, 1)])
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.divisors: list[int] = []

    def add(self, name: str, size: int, divisor: int = 1) -> int:
        offset = len(self.divisors)
        self.blocks.append((name, offset, size))
        self.divisors.extend([divisor] * size)
        return offset


class BaseEncoder:
    """The shared half of an encoder: sizes, the integer-to-float step, masks.

    A game's encoder lays out its blocks with a :class:`Layout`, calls
    :meth:`finish`, and in ``encode`` fills a copy of :attr:`zero` and returns
    ``self.floats(codes)``.
    """

    size: int
    num_actions: int
    blocks: tuple[Block, ...]
    zero: array[int]
    _scale: Vector
    _masks: dict[int, tuple[Any, Mask]]

    def finish(self, game: Game, lay: Layout) -> None:
        self.num_actions = game.num_actions
        self.size = len(lay.divisors)
        self.blocks = tuple(lay.blocks)
        self.zero = array("H", bytes(2 * self.size))
        self._scale = (1.0 / np.array(lay.divisors, dtype=np.float64)).astype(np.float32)
        self._masks = {}

    def floats(self, codes: array[int]) -> Vector:
        out: Vector = np.frombuffer(codes, dtype=np.uint16) * self._scale
        return out

    def mask(self, legal: Iterable[Move]) -> Mask:
        # Engines hand out shared tuples of legal moves (moves precomputed per
        # hand size, a hand's cards of one colour), so masks are
        # memoised by the tuple's identity; the entry keeps the tuple alive so
        # its id cannot be reused while cached.
        masks = self._masks
        hit = masks.get(id(legal))
        if hit is not None and hit[0] is legal:
            return hit[1].copy()
        out = np.zeros(self.num_actions, dtype=np.int8)
        out[[m.index for m in legal]] = 1
        if isinstance(legal, tuple):
            if len(masks) >= 4096:
                masks.clear()
            masks[id(legal)] = (legal, out.copy())
        return out


def encoder(game: Game) -> Encoder:
    """A new encoder for ``game``, from its manifest; hold it for repeated use.

    Raises :class:`~cardtable.core.manifest.MissingPartError` when the game
    offers no observation encoder."""
    factory = manifest(game.name).part("observation_encoder")
    enc: Encoder = factory(game)
    return enc


def observation_size(game: Game) -> int:
    """Length of :func:`encode`'s vector for ``game`` (depends on the player count)."""
    return encoder(game).size


def layout(game: Game) -> tuple[Block, ...]:
    """The vector's blocks as ``(name, offset, size)``, in order."""
    return encoder(game).blocks


def encode(game: Game, view: View) -> Vector:
    """``view`` (one seat's, from ``state.view(seat)``) as a float32 vector in [0, 1]."""
    return encoder(game).encode(view)


def action_mask(game: Game, legal_moves: Iterable[Move]) -> Mask:
    """int8 vector of ``game.num_actions``: 1 at ``move.index`` of each legal move."""
    return encoder(game).mask(legal_moves)
