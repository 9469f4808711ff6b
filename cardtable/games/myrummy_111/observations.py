"""MyRummy 111's observation encoder for the research adapters.

Loaded only through the manifest's ``observation_encoder`` (it needs numpy,
through :mod:`cardtable.adapters.observations`); the layout is documented in
``docs/research.md``. Everything comes from a :class:`MyRummyView` (MR-5: own
hand, middle, discard pile, and the ``known`` cards of every hand that the
public history shows).

>>> import random
>>> from cardtable.games.myrummy_111 import MyRummy111
>>> game = MyRummy111(players=3)
>>> enc = MyRummyEncoder(game)
>>> obs = enc.encode(game.new_game(random.Random(0)).view(0))
>>> enc.size, int((obs[:MAX_HAND] > 0).sum())
(233, 12)
"""

from __future__ import annotations

from cardtable.adapters.observations import BaseEncoder, Layout, Vector
from cardtable.games.myrummy_111.cards import HIGHEST, LOWEST, NUM_CARDS
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.options import MAX_HAND, MIN_HAND
from cardtable.games.myrummy_111.view import MyRummyView

__all__ = ["MyRummyEncoder"]

_CODE_MAX = 65535  # the largest value an array('H') position holds
MAX_SYMBOLS = 4  # MR-1.2: a card shows 1 to 4 joker symbols
MIDDLE = 3  # MR-3.1: three middle slots
TURNS_SCALE = 200  # turns in a round are divided by this without a turn_limit
ROUND_SCALE = 40  # with ``rounds``, scores are divided by 40 points a round


class MyRummyEncoder(BaseEncoder):
    """Card values are divided by the highest card (111), symbols by 4."""

    def __init__(self, game: MyRummy111) -> None:
        n = game.num_players
        opts = game.options
        self.n = n
        self.sym: tuple[int, ...] = game.symbol_lookup  # indexed by card value
        self.turns = int(opts.turn_limit or TURNS_SCALE)
        # MR-7.2 ignores target; normalise by a generous per-round bound instead.
        rounds_scale = opts.target if opts.rounds is None else ROUND_SCALE * opts.rounds
        self.score_scale = int(min(rounds_scale, _CODE_MAX))
        lay = Layout()
        self.o_hand = lay.add("hand_values", MAX_HAND, HIGHEST)
        self.o_hand_sym = lay.add("hand_symbols", MAX_HAND, MAX_SYMBOLS)
        self.o_hand_size = lay.add("hand_size_12_13_14", MAX_HAND - MIN_HAND + 1)
        self.o_taken = lay.add("taken_card_flag", 1)
        self.o_taken_value = lay.add("taken_card_value", 1, HIGHEST)
        self.o_taken_sym = lay.add("taken_card_symbols", 1, MAX_SYMBOLS)
        self.o_taken_slot = lay.add("taken_slot", MIDDLE)
        self.o_middle_up = lay.add("middle_face_up", MIDDLE)
        self.o_middle_value = lay.add("middle_values", MIDDLE, HIGHEST)
        self.o_middle_sym = lay.add("middle_symbols", MIDDLE, MAX_SYMBOLS)
        self.o_middle_down = lay.add("middle_face_down", MIDDLE)
        self.o_top_value = lay.add("discard_top_value", 1, HIGHEST)
        self.o_top_sym = lay.add("discard_top_symbols", 1, MAX_SYMBOLS)
        self.o_discard = lay.add("discard_pile", NUM_CARDS)
        self.o_piles = lay.add("discard_and_draw_sizes", 2, NUM_CARDS)
        self.o_known = lay.add("known_flags_by_opponent", (n - 1) * MAX_HAND)
        self.o_known_value = lay.add("known_values_by_opponent", (n - 1) * MAX_HAND, HIGHEST)
        self.o_opp_sizes = lay.add("opponent_hand_sizes", n - 1, MAX_HAND)
        self.o_scores = lay.add("scores", n, self.score_scale)
        self.o_phase = lay.add("phase_take_place", 2)
        self.o_to_move = lay.add("to_move", n)
        self.o_start = lay.add("start_player", n)
        self.o_turns = lay.add("turns_in_round", 1, self.turns)
        self.finish(game, lay)

    def encode(self, view: MyRummyView) -> Vector:
        n, sym = self.n, self.sym
        me = 0 if view.seat is None else view.seat
        codes = self.zero.__copy__()
        hand = view.hand
        if hand:
            o2 = self.o_hand_sym
            for i, card in enumerate(hand):
                codes[i] = card  # o_hand == 0
                codes[o2 + i] = sym[card]
            codes[self.o_hand_size + len(hand) - MIN_HAND] = 1
        taken = view.taken_card
        if taken is not None:
            codes[self.o_taken] = 1
            codes[self.o_taken_value] = taken
            codes[self.o_taken_sym] = sym[taken]
        taken_slot = view.taken_slot
        if taken_slot is not None:
            codes[self.o_taken_slot + taken_slot] = 1
        if view.phase is not None:
            for slot, up in enumerate(view.middle):
                if up is not None:
                    codes[self.o_middle_up + slot] = 1
                    codes[self.o_middle_value + slot] = up
                    codes[self.o_middle_sym + slot] = sym[up]
                elif slot != taken_slot:
                    codes[self.o_middle_down + slot] = 1
            codes[self.o_phase + (view.phase == "place")] = 1
        pile = view.discard_pile
        if pile:
            codes[self.o_top_value] = pile[0]
            codes[self.o_top_sym] = sym[pile[0]]
            o = self.o_discard - LOWEST  # the lowest card is the block's first position
            for card in pile:
                codes[o + card] = 1
        codes[self.o_piles] = len(pile)
        codes[self.o_piles + 1] = min(view.draw_size, NUM_CARDS)
        for rel in range(1, n):
            seat = (me + rel) % n
            base = (rel - 1) * MAX_HAND
            for i, known in enumerate(view.known[seat]):
                if known is not None:
                    codes[self.o_known + base + i] = 1
                    codes[self.o_known_value + base + i] = known
            codes[self.o_opp_sizes + rel - 1] = view.hand_sizes[seat]
        scale = self.score_scale
        for seat in range(n):
            codes[self.o_scores + (seat - me) % n] = min(view.scores[seat], scale)
        if view.to_move is not None:
            codes[self.o_to_move + (view.to_move - me) % n] = 1
        codes[self.o_start + (view.start_player - me) % n] = 1
        codes[self.o_turns] = min(view.turns_in_round, self.turns)
        return self.floats(codes)
