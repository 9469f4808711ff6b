"""MyRummy 111 declares its length: ``MyRummy111.max_decisions()``, whose
docstring derives it from the rules. Random games end within it at every
player count; where the rules bound a round (``turn_limit``) it is exact or
close, and where they do not it is the documented practical bound."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.core.game import BoundedGame, max_decisions
from cardtable.games.myrummy_111 import MyRummy111
from cardtable.games.myrummy_111.game import TURN_CAP
from cardtable.games.myrummy_111.moves import Place

GAMES = 100


def random_game_length(game: MyRummy111, seed: int, bound: int, declare: bool) -> int:
    """Decisions of one game of uniformly random legal moves (never declaring
    unless ``declare``); fails past ``bound``."""
    rng = random.Random(seed)
    state = game.new_game(random.Random(seed))
    decisions = 0
    while not state.finished:
        assert decisions < bound, f"seed {seed}: no end after {bound} decisions"
        legal = [
            m for m in state.legal_moves() if declare or not (isinstance(m, Place) and m.declare)
        ]
        state.apply(rng.choice(legal))
        decisions += 1
    return decisions


def longest(players: int, options: dict[str, Any], declare: bool) -> tuple[int, int]:
    game = MyRummy111(players=players, **options)
    bound = game.max_decisions()
    seen = max(random_game_length(game, seed, bound, declare) for seed in range(GAMES))
    assert seen <= bound
    return seen, bound


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_nobody_declaring_plays_exactly_the_bound_of_a_fixed_number_of_rounds(
    players: int,
) -> None:
    # MR-6.4/7.2: 2 rounds of 3 turns, 2 decisions a turn.
    assert longest(players, {"rounds": 2, "turn_limit": 3}, declare=False) == (12, 12)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rounds_to_the_target_stay_within_the_bound(players: int) -> None:
    # Every round ends at the turn limit and pays everyone their best run
    # (MR-6.4): seen 0.17 to 0.24 of the bound, which counts 2 points a player.
    seen, bound = longest(players, {"turn_limit": 10}, declare=False)
    assert seen >= bound / 10, (seen, bound)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_without_a_turn_limit_stay_within_the_practical_bound(players: int) -> None:
    # Random players declare in half their places, so rounds are short; the
    # bound takes a round to end within TURN_CAP turns (MR-4.5 forces none).
    seen, bound = longest(players, {}, declare=True)
    assert bound % (2 * TURN_CAP) == 0 and seen < bound


def test_the_bound_follows_the_options_and_is_what_callers_read() -> None:
    game = MyRummy111(players=3)
    assert isinstance(game, BoundedGame) and max_decisions(game) == game.max_decisions()
    # MR-6.3/7.1: 3 players pay 4 points a round at least: 44 rounds below 60, then the last.
    assert game.max_decisions() == (3 * 59 // 4 + 1) * 2 * TURN_CAP
    assert MyRummy111(players=2, target=500, turn_limit=7).max_decisions() == 500 * 2 * 7
    assert MyRummy111(players=5, rounds=100, turn_limit=5000).max_decisions() == 100 * 2 * 5000
