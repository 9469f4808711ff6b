"""Marshmallow Test's observation encoder for the research adapters.

Loaded only through the manifest's ``observation_encoder`` (it needs numpy,
through :mod:`cardtable.adapters.observations`); the layout is documented in
``docs/research.md``. Everything comes from a :class:`MarshmallowView` (MT-9 is
exactly what a view holds).

>>> import random
>>> from cardtable.games.marshmallow_test import MarshmallowTest
>>> game = MarshmallowTest(players=4)
>>> enc = MarshmallowEncoder(game)
>>> obs = enc.encode(game.new_game(random.Random(0)).view(0))
>>> enc.size, int(obs[:NUM_CARDS].sum())
(414, 12)
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from cardtable.adapters.observations import BaseEncoder, Layout, Vector
from cardtable.games.marshmallow_test import MarshmallowTest, MarshmallowView
from cardtable.games.marshmallow_test.cards import HAND_SIZE, NUM_CARDS, NUM_COLOURS
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT
from cardtable.games.marshmallow_test.tricks import shown_voids

__all__ = ["MarshmallowEncoder"]

_CODE_MAX = 65535  # the largest value an array('H') position holds


class MarshmallowEncoder(BaseEncoder):
    """Voids are *publicly revealed* ones, derived from this round's tricks by
    :func:`~cardtable.games.marshmallow_test.tricks.shown_voids` (MT-5.3, MT-5.4)."""

    def __init__(self, game: MarshmallowTest) -> None:
        n = game.num_players
        self.n = n
        self.need: int = TRICKS_TO_GO_OUT[n]
        self.target: int = min(game.options.target, _CODE_MAX)
        lay = Layout()
        self.o_hand = lay.add("hand", NUM_CARDS)
        self.o_played = lay.add("played_this_round", NUM_CARDS)
        self.o_current = lay.add("current_trick_by_seat", n * NUM_CARDS)
        self.o_leader = lay.add("current_trick_leader", n)
        self.o_voids = lay.add("voids_by_seat", n * NUM_COLOURS)
        self.o_tricks = lay.add("trick_counts", n, self.need)
        self.o_out = lay.add("out", n)
        self.o_sizes = lay.add("hand_sizes", n, HAND_SIZE)
        self.o_scores = lay.add("scores", n, self.target)
        self.o_trump = lay.add("trump", NUM_COLOURS)
        self.o_trump_due = lay.add("trump_due", 1)
        self.o_dealer = lay.add("dealer", n)
        self.o_to_move = lay.add("to_move", n)
        self.finish(game, lay)
        # Played cards and voids depend only on the completed tricks (and trump):
        # keep the last result and extend it while views' tricks start the same.
        self._memo_key: tuple[Any, ...] = ()
        self._memo_tricks: tuple[Any, ...] = ()
        self._played = array("H", bytes(2 * NUM_CARDS))
        self._voids = array("H", bytes(2 * n * NUM_COLOURS))  # absolute seat * 5 + colour

    def _update_round_facts(self, view: MarshmallowView) -> None:
        tricks = view.tricks
        key = (view.trump, view.trump_after_ruff)
        done = len(self._memo_tricks)
        if key == self._memo_key and done <= len(tricks) and tricks[:done] == self._memo_tricks:
            if done == len(tricks):
                return
        else:
            self._played = array("H", bytes(2 * NUM_CARDS))
            self._voids = array("H", bytes(2 * self.n * NUM_COLOURS))
            done = 0
        must = view.trump_after_ruff == "must"
        played, voids = self._played, self._voids
        for trick in tricks[done:]:
            _mark_voids(trick, view.trump, must, voids)
            for _, card in trick:
                played[card] = 1
        self._memo_key, self._memo_tricks = key, tricks

    def encode(self, view: MarshmallowView) -> Vector:
        n = self.n
        me = 0 if view.seat is None else view.seat
        codes = self.zero.__copy__()
        for card in view.hand:
            codes[card] = 1  # o_hand == 0
        self._update_round_facts(view)
        o = self.o_played
        codes[o : o + NUM_CARDS] = self._played
        voids = self._voids
        current = view.current_trick
        if current:
            o_cur = self.o_current
            for seat, card in current:
                codes[o + card] = 1
                codes[o_cur + (seat - me) % n * NUM_CARDS + card] = 1
            voids = voids.__copy__()
            _mark_voids(current, view.trump, view.trump_after_ruff == "must", voids)
            codes[self.o_leader + (current[0][0] - me) % n] = 1
        o = self.o_voids
        cut = me * NUM_COLOURS
        codes[o : o + n * NUM_COLOURS] = voids[cut:] + voids[:cut]  # rotate to relative seats
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
        return self.floats(codes)


def _mark_voids(
    trick: Sequence[tuple[int, int]], trump: int | None, must: bool, voids: array[int]
) -> None:
    """Set ``voids[seat * 5 + colour]`` for each void the trick's plays show."""
    for seat, colour in shown_voids(trick, trump, must):
        voids[seat * NUM_COLOURS + colour] = 1
