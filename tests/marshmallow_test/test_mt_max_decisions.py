"""Marshmallow Test declares its length: ``MarshmallowTest.max_decisions()``,
whose docstring derives it from the rules. Random games end within it at
every player count, and it is not absurdly loose."""

from __future__ import annotations

import random

import pytest

from cardtable.core.game import BoundedGame, max_decisions
from cardtable.games.marshmallow_test import MarshmallowTest

GAMES = 200

# The longest of GAMES random games is at least this share of the bound. Seen
# (seeds 0-199): 3, 4 and 5 players, 0.36, 0.44 and 0.16 at target 20 and 0.74
# to 0.90 at target 1 (one round); 2 players, 0.07 and 0.10: with 2 players a
# round may pay nobody, and the bound allows about 5 times the rounds that
# pay (the method's docstring).
LEAST_SHARE = {2: 1 / 40, 3: 1 / 10, 4: 1 / 10, 5: 1 / 10}


def random_game_length(game: MarshmallowTest, seed: int, bound: int) -> int:
    """Decisions of one game of uniformly random legal moves; fails past ``bound``."""
    rng = random.Random(seed)
    state = game.new_game(random.Random(seed))
    decisions = 0
    while not state.finished:
        assert decisions < bound, f"seed {seed}: no end after {bound} decisions"
        state.apply(rng.choice(state.legal_moves()))
        decisions += 1
    return decisions


@pytest.mark.parametrize("target", [20, 1])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_within_the_declared_bound(players: int, target: int) -> None:
    game = MarshmallowTest(players=players, target=target)
    bound = game.max_decisions()
    longest = max(random_game_length(game, seed, bound) for seed in range(GAMES))
    assert longest <= bound
    assert longest >= bound * LEAST_SHARE[players], (longest, bound)


def test_the_bound_follows_the_options_and_is_what_callers_read() -> None:
    game = MarshmallowTest(players=4)
    assert isinstance(game, BoundedGame) and max_decisions(game) == game.max_decisions() == 441
    # MT-6.1/8.1: 4 players pay 9 points a round at least: 8 rounds below 20, then the last.
    assert MarshmallowTest(players=4, target=30).max_decisions() == 49 * (4 * 29 // 9 + 1)
    assert MarshmallowTest(players=3, target=1).max_decisions() == 37  # one round
    assert MarshmallowTest(players=2, target=500).max_decisions() == 25 * 5010
