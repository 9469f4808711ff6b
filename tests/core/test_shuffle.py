"""The fast shuffle deals exactly what ``random.Random.shuffle`` deals, so a
seed names the same Marshmallow Test deal as before it was faster (MT-3.1)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from cardtable.core.shuffle import shuffle
from cardtable.games.marshmallow_test import MarshmallowTest
from cardtable.games.marshmallow_test.cards import CARD_NAMES


@given(seed=st.integers(min_value=0, max_value=2**64), length=st.integers(0, 130))
def test_it_matches_random_shuffle_draw_for_draw(seed: int, length: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    cards, expected = list(range(length)), list(range(length))
    shuffle(ours, cards)
    theirs.shuffle(expected)
    assert cards == expected
    # The generators are left in the same place too: later deals agree.
    assert ours.random() == theirs.random()


class _FloatOnly(random.Random):
    """A generator that overrides random() alone, so its own shuffle draws
    floats rather than bits: the fast loop would deal something else."""

    def random(self) -> float:
        return super().random() ** 2


def test_another_generator_class_is_left_to_its_own_shuffle() -> None:
    cards, expected = list(range(60)), list(range(60))
    shuffle(_FloatOnly(11), cards)
    _FloatOnly(11).shuffle(expected)
    assert cards == expected


def test_a_seeded_marshmallow_deal_is_random_shuffle_cut_into_hands() -> None:
    # MT-3.1: shuffle the 60 cards, 12 to each player.
    deck = list(range(60))
    random.Random(2026).shuffle(deck)
    state = MarshmallowTest(players=3).new_game(random.Random(2026))
    hands = state.record()["rounds"][0]["deal"]["hands"]
    names = [[CARD_NAMES[c] for c in sorted(deck[12 * s : 12 * s + 12])] for s in range(3)]
    assert hands == names
