"""A state resumed in round 1 keeps the dealer it was given (MT-2.2, MT-4.1,
MT-5.1): resampling from a view sets round 1's dealer from the view, which
need not be the resampling game's ``first_dealer``. A state that fell back to
``first_dealer`` would name another dealer and leader than the real game."""

from __future__ import annotations

import random

import pytest

from cardtable.core.errors import IllegalMoveError
from cardtable.games.marshmallow_test import MarshmallowTest
from cardtable.games.marshmallow_test.determinize import determinize

from .helpers import fill_deal


@pytest.mark.parametrize("dealer", [1, 2, 3])
def test_mt_5_1_a_round_1_resumed_with_another_dealer_keeps_it_and_its_leader(dealer: int) -> None:
    state = MarshmallowTest(players=4, first_dealer=0).new_state()
    state.resume(round_number=1, dealer=dealer, scores=[0] * 4, past_round_scores=[])
    state.deal(fill_deal(4, {}))
    # MT-4.1: no trump in round 1, so the dealer leads the first trick at once.
    assert (state.round_number, state.dealer, state.to_move, state.trump_due) == (
        1,
        dealer,
        dealer,
        False,
    )
    assert state.view(0).dealer == dealer and state.view(0).to_move == dealer
    other = (dealer + 1) % 4
    with pytest.raises(IllegalMoveError) as info:
        state.apply_as(other, state.legal_moves()[0])
    assert info.value == IllegalMoveError(
        f"it is seat {dealer}'s turn, not seat {other}'s",
        "MT-5.1",
        "MT-5.1.turn",
        {"to_move": dealer, "seat": other},
    )
    state.apply_as(dealer, state.legal_moves()[0])
    assert state.to_move == other  # MT-5.1: play goes clockwise from the leader


@pytest.mark.parametrize(("first_dealer", "moves"), [(2, 0), (3, 5), (1, 9)])
def test_mt_resampling_round_1_keeps_the_real_dealer(first_dealer: int, moves: int) -> None:
    # The real game's first dealer is not the resampling game's (a view does
    # not carry first_dealer): the sample must still be the view's position.
    real = MarshmallowTest(players=4, first_dealer=first_dealer).new_game(random.Random(moves))
    rng = random.Random(first_dealer)
    for _ in range(moves):
        legal = real.legal_moves()
        real.apply(legal[rng.randrange(len(legal))])
    seat = real.to_move
    assert seat is not None and real.round_number == 1
    view = real.view(seat)
    sample = determinize(MarshmallowTest(players=4), view, random.Random(7))
    assert sample.dealer == first_dealer and sample.to_move == seat
    assert sample.view(seat) == view
    assert sample.legal_moves() == real.legal_moves()
