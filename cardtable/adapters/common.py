"""What the PettingZoo and Gymnasium adapters share: arguments, spaces, rewards.

Needs numpy and gymnasium (for the spaces), never pettingzoo, so the
Gymnasium adapter works without PettingZoo installed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

import cardtable
from cardtable.core.game import Game, State
from cardtable.core.registry import game_names, manifest

__all__ = [
    "EPISODES",
    "ILLEGAL_REWARD",
    "REWARDS",
    "check_choice",
    "check_max_steps",
    "episode_over",
    "final_rewards",
    "make_game",
    "observation_space",
]

REWARDS = ("points", "win")
EPISODES = ("game", "round")
ILLEGAL_REWARD = -1.0  # TerminateIllegalWrapper: the offender's reward, others get 0


def make_game(game: str | Game | None, options: dict[str, Any]) -> Game:
    """``cardtable.load(game, **options)``: ``players`` defaults to the game's
    own default (its manifest's ``default_players``).

    ``None`` is the first registered game (the built-in games come first, in
    alphabetical order), so ``env()`` without arguments keeps working."""
    if game is None:
        game = game_names()[0]
    if not isinstance(game, str):
        if options:
            raise TypeError("pass options to cardtable.load, not beside a game object")
        return game
    return cardtable.load(game, **options)


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def check_max_steps(max_steps: int | None) -> int | None:
    if max_steps is not None and (
        isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1
    ):
        raise ValueError(f"max_steps must be a positive int or None, not {max_steps!r}")
    return max_steps


def observation_space(size: int, num_actions: int) -> spaces.Dict:
    """The observation space both adapters use: the vector and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
        }
    )


def episode_over(state: State, episode: str, first_round: int) -> bool:
    """Whether an episode that started in round ``first_round`` is over."""
    return state.finished or (episode == "round" and state.round_number != first_round)


def final_rewards(state: State, kind: str, episode: str, points: list[int]) -> list[float]:
    """The end-of-episode rewards for ``reward="win"``: +1/k to each of k
    winners, -1/(n-k) to each other seat, so they sum to 0 (all 0 if all win).

    Winners are ``state.winners`` for a whole game; for one round, the seats
    that scored most in it (``points``; least, where the game's totals are
    penalties), all of them when all scored alike."""
    assert kind == "win"
    n = len(points)
    if episode == "game" and state.finished:
        won = set(state.winners)
    else:
        best = min(points) if manifest(state.game.name).lowest_wins else max(points)
        won = {s for s in range(n) if points[s] == best}
    if len(won) == n:
        return [0.0] * n
    return [1.0 / len(won) if s in won else -1.0 / (n - len(won)) for s in range(n)]
