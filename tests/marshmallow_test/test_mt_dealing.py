"""Where a round's deal comes from (MT-3.1): the state's own generator, or an
explicit deal when it has none."""

from __future__ import annotations

import random

import pytest

from cardtable.games.marshmallow_test import MarshmallowTest


def test_mt_3_1_a_clone_given_a_generator_deals_from_it() -> None:
    game = MarshmallowTest(players=3)
    waiting = game.new_state()  # no generator: waits for an explicit deal
    twin = waiting.clone(random.Random(7))
    twin.deal()  # MT-3.1: shuffled by the generator the clone was given
    dealt = game.new_game(random.Random(7))  # the same generator deals round 1 at once
    assert twin.round_number == dealt.round_number == 1 and not twin.awaiting_deal
    assert [twin.hand(s) for s in range(3)] == [dealt.hand(s) for s in range(3)]
    assert len({c for s in range(3) for c in twin.hand(s)}) == 36
    with pytest.raises(ValueError):
        waiting.deal()  # the original still has no generator
    assert waiting.awaiting_deal
