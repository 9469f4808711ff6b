"""cardtable games as PettingZoo AEC environments (one agent per seat).

>>> import cardtable
>>> e = env(game=cardtable.game_names()[0], players=3)
>>> e.reset(seed=1)
>>> e.agent_selection, e.possible_agents
('player_0', ['player_0', 'player_1', 'player_2'])
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape == e.observation_space("player_0")["observation"].shape
True
>>> bool(obs["action_mask"].any()), reward, terminated
(True, 0.0, False)

Agents are ``player_0 … player_{n-1}`` (seat ``i`` is ``player_i``); the action
space is ``Discrete(game.num_actions)`` with ``move.index`` as the action and
the observation is ``{"observation": float32 vector, "action_mask": int8}``
built from ``state.view(seat)`` by the game's encoder
(:mod:`cardtable.adapters.observations`). Observations are built when asked
for (``observe``/``last``), for that agent only. Rewards, episodes and seeding
are described in :class:`CardtableAECEnv` and ``docs/research.md``.

``pettingzoo.test.max_cycles_test`` does not apply: it needs a
``parallel_env(max_cycles=…)``, and a turn-based game has no parallel form
(PettingZoo's classic environments do not run it either). ``max_steps`` gives
the same kind of cut-off here and has its own test.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardtable.adapters import observations
from cardtable.adapters.common import (
    EPISODES,
    ILLEGAL_REWARD,
    REWARDS,
    check_choice,
    check_max_steps,
    episode_over,
    final_rewards,
    make_game,
    observation_space,
)
from cardtable.core.game import Game, State
from cardtable.core.registry import manifest

__all__ = ["CardtableAECEnv", "env", "raw_env"]

RENDER_MODES = ("ansi", "human")


class CardtableAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """A cardtable game as an AEC environment.

    - ``game``: a game name (``options`` are its ``cardtable.load`` options,
      ``players`` defaulting to the manifest's ``default_players``) or a game
      object; ``None``: the first registered game.
    - ``reward="points"`` (default): an agent's reward at a step is the points
      it scored since the previous step, so an episode's rewards add up to the
      points it scored in the episode. ``reward="win"``: 0 until the episode
      ends, then see :func:`~cardtable.adapters.common.final_rewards` (zero-sum).
    - ``episode="game"`` (default): one whole game, all rounds.
      ``episode="round"``: the episode ends when the first round does (its final
      observation already shows the next deal, the table moving on).
    - ``max_steps``: truncate every agent after that many decisions (None: never).
    - ``reset(seed=s)`` deals from ``random.Random(s)``; a reset without a seed
      draws the next seed from the last seed given (or from entropy). The
      first agent to move always has a legal action: every game starts with a
      decision.
    """

    metadata = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": list(RENDER_MODES),
        "name": "cardtable_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str | Game | None = None,
        *,
        reward: str = "points",
        episode: str = "game",
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game = make_game(game, options)
        self.reward_kind = check_choice("reward", reward, REWARDS)
        self.episode = check_choice("episode", episode, EPISODES)
        self.max_steps = check_max_steps(max_steps)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        n = self.game.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._encoder = observations.encoder(self.game)
        size, num_actions = self._encoder.size, self.game.num_actions
        self._no_actions = np.zeros(num_actions, dtype=np.int8)
        obs_space = observation_space(size, num_actions)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.episode_seed = 0
        self.state: State = self.game.new_game(random.Random(0))

    # -------------------------------------------------------------- the API
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            self.episode_seed = seed
        else:
            self.episode_seed = self._seeds.getrandbits(63)
        self.state = self.game.new_game(random.Random(self.episode_seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._scores = self.state.scores
        self._episode_start = self.state.scores
        self._round = self.state.round_number
        self._steps = 0
        self._rewarded = False  # self.rewards holds non-zero values to clear
        self.agent_selection = self._agent_to_move()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        state = self.state
        obs = self._encoder.encode(state.view(seat))
        if state.to_move == seat and not self.terminations[agent] and not self.truncations[agent]:
            mask = self._encoder.mask(state.legal_moves())
        else:
            mask = self._no_actions.copy()
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        state.apply(self.game.move_from_index(int(action)))
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        scores = state.scores
        if scores != self._scores:
            if self.reward_kind == "points":
                self._give([float(a - b) for a, b in zip(scores, self._scores, strict=True)])
            self._scores = scores
        if episode_over(state, self.episode, self._round):
            if self.reward_kind == "win":
                points = [a - b for a, b in zip(scores, self._episode_start, strict=True)]
                self._give(final_rewards(state, "win", self.episode, points))
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_to_move()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.state
        title = manifest(self.game.name).title
        lines = [
            f"{title}: round {state.round_number}, scores {list(state.scores)}",
            f"to move: {state.to_move}" if not state.finished else f"winners: {state.winners}",
        ]
        if state.to_move is not None:
            view = state.view(state.to_move).to_json()
            lines.append(f"seat {state.to_move} sees hand {view.get('hand')}")
        return "\n".join(lines)

    def close(self) -> None:
        pass

    # -------------------------------------------------------------- helpers
    def _agent_to_move(self) -> str:
        seat = self.state.to_move
        return self.agent_selection if seat is None else self.possible_agents[seat]

    def _give(self, values: list[float]) -> None:
        rewards = self.rewards
        for agent, value in zip(self.possible_agents, values, strict=True):
            rewards[agent] = value
            self._cumulative_rewards[agent] += value
        self._rewarded = True


def raw_env(game: str | Game | None = None, **kwargs: Any) -> CardtableAECEnv:
    """The environment without wrappers (see :class:`CardtableAECEnv`)."""
    return CardtableAECEnv(game, **kwargs)


def env(game: str | Game | None = None, **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic environments are: an
    illegal action ends the game with -1 for the offender (and 0 for the
    others), out-of-range actions raise, and the call order is enforced."""
    wrapped: Any = raw_env(game, **kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
