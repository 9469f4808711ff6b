"""Flat observation vectors and action masks, built from views only.

Every adapter (PettingZoo, Gymnasium, OpenSpiel) encodes a seat's
``state.view(seat)`` with the functions here, never the state, so hidden cards
cannot leak into an observation by construction. A vector is float32 in
``[0, 1]``; its layout is fixed per game and player count and listed by
:func:`layout` (and in ``docs/research.md``). Per-seat blocks are in *relative*
seat order: block 0 is the observing seat, block 1 the next seat clockwise, …

>>> import random, cardtable
>>> game = cardtable.load("marshmallow-test", players=4)
>>> state = game.new_game(random.Random(0))
>>> obs = encode(game, state.view(0))
>>> obs.shape == (observation_size(game),), obs.dtype.name, int(obs[:60].sum())
(True, 'float32', 12)
>>> mask = action_mask(game, state.legal_moves())
>>> mask.shape, mask.dtype.name, int(mask.sum())
((65,), 'int8', 12)
"""

from __future__ import annotations

import weakref
from array import array
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from cardtable.core.game import Game, Move, View
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT

__all__ = [
    "Encoder",
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


class _Layout:
    """Hands out consecutive offsets for named blocks, each with its divisor.

    Encoders write small non-negative integers (flags, card values, counts)
    into an ``array('H')`` -- far cheaper per item than numpy -- and one
    multiplication by the per-position ``1/divisor`` turns it into the float32
    vector. Every integer written is clipped to its divisor, so values lie in
    ``[0, 1]``.
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.divisors: list[int] = []

    def add(self, name: str, size: int, divisor: int = 1) -> int:
        offset = len(self.divisors)
        self.blocks.append((name, offset, size))
        self.divisors.extend([divisor] * size)
        return offset


class _BaseEncoder:
    size: int
    num_actions: int
    blocks: tuple[Block, ...]
    _zero: array[int]
    _scale: Vector
    _masks: dict[int, tuple[Any, Mask]]

    def _finish(self, game: Game, lay: _Layout) -> None:
        self.num_actions = game.num_actions
        self.size = len(lay.divisors)
        self.blocks = tuple(lay.blocks)
        self._zero = array("H", bytes(2 * self.size))
        self._scale = (1.0 / np.array(lay.divisors, dtype=np.float64)).astype(np.float32)
        self._masks = {}

    def _floats(self, codes: array[int]) -> Vector:
        out: Vector = np.frombuffer(codes, dtype=np.uint16) * self._scale
        return out

    def mask(self, legal: Iterable[Move]) -> Mask:
        # Engines hand out shared tuples of legal moves (MyRummy's takes and
        # placements, a Marshmallow hand's cards of one colour), so masks are
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


# ---------------------------------------------------------------- Marshmallow Test
_MT_CARDS, _MT_COLOURS, _MT_HAND = 60, 5, 12


class MarshmallowEncoder(_BaseEncoder):
    """Marshmallow Test (MT-9 is exactly what a view holds).

    Voids are *publicly revealed* ones, derived from this round's tricks: a seat
    that did not follow the lead colour holds none of it (MT-5.3), except that
    after a ruff trumping in reveals nothing (MT-5.4); under
    ``trump_after_ruff: must`` a non-trump after a ruff reveals no trump.
    """

    def __init__(self, game: Game) -> None:
        n = game.num_players
        opts: Any = getattr(game, "options", None)
        self.n = n
        self.need: int = TRICKS_TO_GO_OUT[n]
        self.target: int = min(opts.target, 65535)
        lay = _Layout()
        self.o_hand = lay.add("hand", _MT_CARDS)
        self.o_played = lay.add("played_this_round", _MT_CARDS)
        self.o_current = lay.add("current_trick_by_seat", n * _MT_CARDS)
        self.o_leader = lay.add("current_trick_leader", n)
        self.o_voids = lay.add("voids_by_seat", n * _MT_COLOURS)
        self.o_tricks = lay.add("trick_counts", n, self.need)
        self.o_out = lay.add("out", n)
        self.o_sizes = lay.add("hand_sizes", n, _MT_HAND)
        self.o_scores = lay.add("scores", n, self.target)
        self.o_trump = lay.add("trump", _MT_COLOURS)
        self.o_trump_due = lay.add("trump_due", 1)
        self.o_dealer = lay.add("dealer", n)
        self.o_to_move = lay.add("to_move", n)
        self._finish(game, lay)
        # Played cards and voids depend only on the completed tricks (and trump):
        # keep the last result and extend it while views' tricks start the same.
        self._memo_key: tuple[Any, ...] = ()
        self._memo_tricks: tuple[Any, ...] = ()
        self._played = array("H", bytes(2 * _MT_CARDS))
        self._voids = array("H", bytes(2 * n * _MT_COLOURS))  # absolute seat * 5 + colour

    def _update_round_facts(self, view: Any) -> None:
        tricks = view.tricks
        key = (view.trump, view.trump_after_ruff)
        done = len(self._memo_tricks)
        if key == self._memo_key and done <= len(tricks) and tricks[:done] == self._memo_tricks:
            if done == len(tricks):
                return
        else:
            self._played = array("H", bytes(2 * _MT_CARDS))
            self._voids = array("H", bytes(2 * self.n * _MT_COLOURS))
            done = 0
        trump = -1 if view.trump is None else view.trump
        must = view.trump_after_ruff == "must"
        played, voids = self._played, self._voids
        for trick in tricks[done:]:
            for card in _trick_facts(trick, trump, must, voids):
                played[card] = 1
        self._memo_key, self._memo_tricks = key, tricks

    def encode(self, view: Any) -> Vector:
        n = self.n
        me = 0 if view.seat is None else view.seat
        codes = self._zero.__copy__()
        for card in view.hand:
            codes[card] = 1  # o_hand == 0
        self._update_round_facts(view)
        o = self.o_played
        codes[o : o + _MT_CARDS] = self._played
        voids = self._voids
        current = view.current_trick
        if current:
            o_cur = self.o_current
            for seat, card in current:
                codes[o + card] = 1
                codes[o_cur + (seat - me) % n * _MT_CARDS + card] = 1
            voids = voids.__copy__()
            trump = -1 if view.trump is None else view.trump
            _trick_facts(current, trump, view.trump_after_ruff == "must", voids)
            codes[self.o_leader + (current[0][0] - me) % n] = 1
        o = self.o_voids
        cut = me * _MT_COLOURS
        codes[o : o + n * _MT_COLOURS] = voids[cut:] + voids[:cut]  # rotate to relative seats
        need, target = self.need, self.target
        counts, outs, sizes, scores = view.trick_counts, view.out, view.hand_sizes, view.scores
        o_tricks, o_out, o_sizes, o_scores = self.o_tricks, self.o_out, self.o_sizes, self.o_scores
        for seat in range(n):
            rel = (seat - me) % n
            codes[o_tricks + rel] = min(counts[seat], need)
            codes[o_out + rel] = outs[seat]
            codes[o_sizes + rel] = sizes[seat]
            codes[o_scores + rel] = min(scores[seat], target)
        if view.trump is not None:
            codes[self.o_trump + view.trump] = 1
        if view.trump_due:
            codes[self.o_trump_due] = 1
        if view.dealer is not None:
            codes[self.o_dealer + (view.dealer - me) % n] = 1
        if view.to_move is not None:
            codes[self.o_to_move + (view.to_move - me) % n] = 1
        return self._floats(codes)


def _trick_facts(
    trick: Sequence[tuple[int, int]], trump: int, must: bool, voids: array[int]
) -> list[int]:
    """Mark in ``voids[seat * 5 + colour]`` what one trick's plays reveal; return its cards."""
    lead = trick[0][1] // _MT_HAND
    cards = [trick[0][1]]
    ruffed = False
    for seat, card in trick[1:]:
        cards.append(card)
        colour = card // _MT_HAND
        if ruffed:
            if must:
                if colour != trump:
                    voids[seat * _MT_COLOURS + trump] = 1  # MT-5.4 [must]: holds no trump
            elif colour != lead and colour != trump:
                voids[seat * _MT_COLOURS + lead] = 1  # MT-5.4: neither followed nor trumped in
        elif colour != lead:
            voids[seat * _MT_COLOURS + lead] = 1  # MT-5.3: did not follow
        if colour == trump and lead != trump:
            ruffed = True
    return cards


# ---------------------------------------------------------------- MyRummy 111
_MR_SLOTS = 14  # MR-9: hands hold at most 14 cards
_MR_CARDS = 110  # MR-1.1: cards 2 … 111
_MR_TOP = 111  # card values are divided by this
_MR_SYMBOLS = 4  # MR-1.2: at most 4 symbols a card
_MR_TURNS = 200  # turns in a round are divided by this without a turn_limit


class MyRummyEncoder(_BaseEncoder):
    """MyRummy 111 (MR-5: own hand, middle, discard pile, the public history's
    ``known`` cards of every hand)."""

    def __init__(self, game: Game) -> None:
        n = game.num_players
        opts: Any = getattr(game, "options", None)
        self.n = n
        self.sym: tuple[int, ...] = (0, 0, *opts.symbols)  # indexed by card value
        self.turns = int(opts.turn_limit or _MR_TURNS)
        # MR-7.2 ignores target; normalise by a generous per-round bound instead.
        self.score_scale = int(min(opts.target if opts.rounds is None else 40 * opts.rounds, 65535))
        lay = _Layout()
        self.o_hand = lay.add("hand_values", _MR_SLOTS, _MR_TOP)
        self.o_hand_sym = lay.add("hand_symbols", _MR_SLOTS, _MR_SYMBOLS)
        self.o_hand_size = lay.add("hand_size_12_13_14", 3)
        self.o_taken = lay.add("taken_card_flag", 1)
        self.o_taken_value = lay.add("taken_card_value", 1, _MR_TOP)
        self.o_taken_sym = lay.add("taken_card_symbols", 1, _MR_SYMBOLS)
        self.o_taken_slot = lay.add("taken_slot", 3)
        self.o_middle_up = lay.add("middle_face_up", 3)
        self.o_middle_value = lay.add("middle_values", 3, _MR_TOP)
        self.o_middle_sym = lay.add("middle_symbols", 3, _MR_SYMBOLS)
        self.o_middle_down = lay.add("middle_face_down", 3)
        self.o_top_value = lay.add("discard_top_value", 1, _MR_TOP)
        self.o_top_sym = lay.add("discard_top_symbols", 1, _MR_SYMBOLS)
        self.o_discard = lay.add("discard_pile", _MR_CARDS)
        self.o_piles = lay.add("discard_and_draw_sizes", 2, _MR_CARDS)
        self.o_known = lay.add("known_flags_by_opponent", (n - 1) * _MR_SLOTS)
        self.o_known_value = lay.add("known_values_by_opponent", (n - 1) * _MR_SLOTS, _MR_TOP)
        self.o_opp_sizes = lay.add("opponent_hand_sizes", n - 1, _MR_SLOTS)
        self.o_scores = lay.add("scores", n, self.score_scale)
        self.o_phase = lay.add("phase_take_place", 2)
        self.o_to_move = lay.add("to_move", n)
        self.o_start = lay.add("start_player", n)
        self.o_turns = lay.add("turns_in_round", 1, self.turns)
        self._finish(game, lay)

    def encode(self, view: Any) -> Vector:
        n, sym = self.n, self.sym
        me = 0 if view.seat is None else view.seat
        codes = self._zero.__copy__()
        hand = view.hand
        if hand:
            o2 = self.o_hand_sym
            for i, card in enumerate(hand):
                codes[i] = card  # o_hand == 0
                codes[o2 + i] = sym[card]
            codes[self.o_hand_size + len(hand) - 12] = 1
        taken = view.taken_card
        if taken is not None:
            codes[self.o_taken] = 1
            codes[self.o_taken_value] = taken
            codes[self.o_taken_sym] = sym[taken]
        taken_slot = view.taken_slot
        if taken_slot is not None:
            codes[self.o_taken_slot + taken_slot] = 1
        if view.phase is not None:
            for slot, card in enumerate(view.middle):
                if card is not None:
                    codes[self.o_middle_up + slot] = 1
                    codes[self.o_middle_value + slot] = card
                    codes[self.o_middle_sym + slot] = sym[card]
                elif slot != taken_slot:
                    codes[self.o_middle_down + slot] = 1
            codes[self.o_phase + (view.phase == "place")] = 1
        pile = view.discard_pile
        if pile:
            codes[self.o_top_value] = pile[0]
            codes[self.o_top_sym] = sym[pile[0]]
            o = self.o_discard - 2  # card 2 is the block's first position
            for card in pile:
                codes[o + card] = 1
        codes[self.o_piles] = len(pile)
        codes[self.o_piles + 1] = min(view.draw_size, _MR_CARDS)
        for rel in range(1, n):
            seat = (me + rel) % n
            base = (rel - 1) * _MR_SLOTS
            for i, card in enumerate(view.known[seat]):
                if card is not None:
                    codes[self.o_known + base + i] = 1
                    codes[self.o_known_value + base + i] = card
            codes[self.o_opp_sizes + rel - 1] = view.hand_sizes[seat]
        scale = self.score_scale
        for seat in range(n):
            codes[self.o_scores + (seat - me) % n] = min(view.scores[seat], scale)
        if view.to_move is not None:
            codes[self.o_to_move + (view.to_move - me) % n] = 1
        codes[self.o_start + (view.start_player - me) % n] = 1
        codes[self.o_turns] = min(view.turns_in_round, self.turns)
        return self._floats(codes)


# ---------------------------------------------------------------- the API
_ENCODERS: dict[str, type[MarshmallowEncoder] | type[MyRummyEncoder]] = {
    "marshmallow-test": MarshmallowEncoder,
    "myrummy-111": MyRummyEncoder,
}
# One encoder per game object; games die with their environments.
_CACHE: weakref.WeakKeyDictionary[Any, Encoder] = weakref.WeakKeyDictionary()


def encoder(game: Game) -> Encoder:
    """The (cached) encoder of ``game``; adapters hold it to skip the lookup."""
    try:
        return _CACHE[game]
    except KeyError:
        pass
    try:
        cls = _ENCODERS[game.name]
    except KeyError:
        raise ValueError(f"no observation encoder for game {game.name!r}") from None
    enc: Encoder = cls(game)
    _CACHE[game] = enc
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
