"""The engine's answers for Marshmallow Test: ``explain``/``refusal`` say word
for word what ``apply_as`` raises (MT-3.1, MT-4.1, MT-4.2, MT-5.1, MT-5.3,
MT-5.4, MT-8.1), judged against trial on a clone at every position of seeded
random games, for every seat and action; and every ``apply`` returns the
events the record gained."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtable.games.marshmallow_test import MarshmallowTest
from tests.core.engine_checks import check_position, play_and_check


@pytest.mark.parametrize(
    ("players", "ruff", "seed"),
    [(2, "may", 1), (3, "must", 2), (4, "may", 3), (5, "must", 4), (4, "must", 5)],
)
def test_mt_explain_and_refusal_agree_with_trial(players: int, ruff: str, seed: int) -> None:
    game = MarshmallowTest(players=players, target=12, trump_after_ruff=ruff)
    seen = play_and_check(game.new_game(random.Random(seed)), seed)
    # The refusals met include out of turn or not held (MT-5.1), trump named
    # or not (MT-4.1/4.2), and the game over (MT-8.1); each round after the
    # first was dealt by the move that ended the one before.
    for rule in ("MT-5.1", "MT-4.2", "MT-8.1", "MT-5.3"):
        assert seen[rule], rule
    assert seen["deal after a move"] >= 1


def test_mt_5_4_refusals_after_a_ruff_agree_with_trial() -> None:
    # The ruff rules are rarer than the rest: check every position of a few
    # games, until both variants have refused a card by MT-5.4.
    for ruff in ("may", "must"):
        game = MarshmallowTest(players=3, target=10, trump_after_ruff=ruff)
        seen = sum(
            (play_and_check(game.new_game(random.Random(seed)), seed) for seed in range(3)),
            Counter(),
        )
        assert seen["MT-5.4"], ruff


def test_mt_3_1_a_new_state_refuses_every_action_until_dealt() -> None:
    state = MarshmallowTest(players=3).new_state()
    seen = check_position(state)
    assert seen == {"refused": 3 * 65, "MT-3.1": 3 * 65}
    refused = state.refusal(0, state.game.move_from_index(0))
    assert refused is not None and refused.reason == "round 1 must be dealt first"
