"""One seat of a cardtable game as a Gymnasium environment; bots play the rest.

>>> import cardtable
>>> e = make(cardtable.game_names()[0], seat=0, opponents="random", players=3)
>>> obs, info = e.reset(seed=1)
>>> obs["observation"].shape == e.observation_space["observation"].shape, info["seat"]
(True, 0)
>>> action = int(obs["action_mask"].argmax())
>>> obs, reward, terminated, truncated, info = e.step(action)

The learner's observation is ``{"observation": float32 vector, "action_mask":
int8}`` from ``state.view(seat)`` (see :mod:`cardtable.adapters.observations`);
the mask is also in ``info["action_mask"]`` and :meth:`CardtableGymEnv.action_masks`
(the name ``sb3_contrib``'s maskable algorithms call). Rewards and episodes are
those of :mod:`cardtable.adapters.pettingzoo`, seen from the learner's seat.
Needs gymnasium, not pettingzoo.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

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
from cardtable.bots import Bot, make_bot
from cardtable.core.game import Game, State
from cardtable.core.registry import manifest
from cardtable.core.seeds import derive_seed

__all__ = ["CardtableGymEnv", "make"]

ObsDict = dict[str, Any]

# Episodes in a row that may end before the learner moves: far beyond what any
# real game needs, a guard against a seat that never gets a decision.
MAX_SKIPPED = 1000


class CardtableGymEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]  # untyped here
    """The learner plays ``seat``; ``opponents`` (a bot name, or one per other
    seat in seat order) play the others with generators derived from the
    episode's seed, so ``reset(seed=s)`` replays the same episode for the same
    actions. An illegal action ends the episode with reward -1
    (``info["illegal_action"]``), as PettingZoo's TerminateIllegalWrapper does.
    ``game`` is a name (``options`` are its ``cardtable.load`` options,
    ``players`` defaulting to the manifest's ``default_players``) or a game
    object; ``None``: the first registered game.

    A reset always returns a state in which the learner has a legal action.
    When the bots end an episode before the learner's first decision (where a
    player may end the round at any turn, it may end before a seat that does
    not start the round ever moves), that episode is skipped: the next one is
    dealt from a seed derived from the skipped one's, and the learner's reward
    for the skipped episodes is not lost but added to the reward of the first
    :meth:`step`. The reset's
    info then holds ``skipped_episodes`` and ``carried_reward``; that step's
    info holds ``carried_reward`` again.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium reads it from the class)

    def __init__(
        self,
        game: str | Game | None = None,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        reward: str = "points",
        episode: str = "game",
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game = make_game(game, options)
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}, not {seat!r}")
        self.seat = seat
        others = [s for s in range(n) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"opponents: give one bot name or {len(others)}, not {len(names)}")
        self.opponents: dict[int, str] = dict(zip(others, names, strict=True))
        self.reward_kind = check_choice("reward", reward, REWARDS)
        self.episode = check_choice("episode", episode, EPISODES)
        self.max_steps = check_max_steps(max_steps)
        if render_mode is not None:
            check_choice("render_mode", render_mode, ("ansi",))
        self.render_mode = render_mode
        self._encoder = observations.encoder(self.game)
        size, num_actions = self._encoder.size, self.game.num_actions
        self.observation_space = observation_space(size, num_actions)
        self.action_space = spaces.Discrete(num_actions)
        self.episode_seed = 0
        self._bots = self._make_bots(0)  # checks the names now, not at the first reset
        self.state: State = self.game.new_game(random.Random(0))
        self._mask = np.zeros(num_actions, dtype=np.int8)
        self._carried: float | None = None  # the skipped episodes' reward, for step()
        self._done = True
        self._start_scores: tuple[int, ...] = ()
        self._last = 0  # the learner's score after its last step
        self._round = 0
        self._steps = 0

    # -------------------------------------------------------------- the API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        # The deal draws on random.Random(seed) itself, as in the PettingZoo adapter.
        episode_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        carried, skipped = 0.0, 0
        while self._start(episode_seed):
            # The bots ended the episode before the learner's first decision:
            # keep the learner's reward and deal the next episode.
            carried += self._episode_reward()
            skipped += 1
            if skipped > MAX_SKIPPED:
                raise RuntimeError(
                    f"the bots ended {skipped} episodes in a row before seat {self.seat}"
                    " could move; this seat never gets a decision"
                )
            episode_seed = derive_seed(episode_seed, "next")
        self._carried = carried if skipped else None
        info = self._info()
        if skipped:
            info["skipped_episodes"] = skipped
            info["carried_reward"] = carried
        return self._observe(), info

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        carried, self._carried = self._carried, None
        state = self.state
        index = int(action)
        if not (0 <= index < self.game.num_actions and self._mask[index]):
            self._done = True
            self._mask = np.zeros_like(self._mask)
            info = self._info(illegal=True, carried=carried)
            return self._observe(), ILLEGAL_REWARD + (carried or 0.0), True, False, info
        state.apply(self.game.move_from_index(index))
        self._steps += 1
        ended = self._ended() or self._play_bots()
        score = state.scores[self.seat]
        reward = carried or 0.0
        if self.reward_kind == "points":
            reward += float(score - self._last)
        elif ended:
            reward += self._episode_reward()
        self._last = score
        truncated = not ended and self.max_steps is not None and self._steps >= self.max_steps
        self._done = ended or truncated
        return self._observe(), reward, ended, truncated, self._info(carried=carried)

    def action_masks(self) -> np.ndarray:
        """The legal actions now (all 0 once the episode is over)."""
        return self._mask.copy()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.state
        view = state.view(self.seat).to_json()
        title = manifest(self.game.name).title
        return (
            f"{title}: round {state.round_number}, scores {list(state.scores)}; "
            f"seat {self.seat} holds {view.get('hand')}"
        )

    # -------------------------------------------------------------- helpers
    def _make_bots(self, seed: int) -> dict[int, Bot]:
        return {
            s: make_bot(name, self.game, s, random.Random(derive_seed(seed, "bot", s)))
            for s, name in self.opponents.items()
        }

    def _start(self, episode_seed: int) -> bool:
        """Deal the episode of ``episode_seed`` and let the bots move up to the
        learner's first decision; True if they ended the episode before it."""
        self.episode_seed = episode_seed
        self.state = self.game.new_game(random.Random(episode_seed))
        self._bots = self._make_bots(episode_seed)
        self._start_scores = self.state.scores
        self._last = self._start_scores[self.seat]
        self._round = self.state.round_number
        self._steps = 0
        ended = self._play_bots()
        self._done = ended
        return ended

    def _episode_reward(self) -> float:
        """The learner's reward for the whole episode, now that it is over."""
        state = self.state
        points = [a - b for a, b in zip(state.scores, self._start_scores, strict=True)]
        if self.reward_kind == "points":
            return float(points[self.seat])
        return final_rewards(state, "win", self.episode, points)[self.seat]

    def _ended(self) -> bool:
        return episode_over(self.state, self.episode, self._round)

    def _play_bots(self) -> bool:
        """Let the bots move until the learner must; True if the episode ended."""
        state, seat, bots = self.state, self.seat, self._bots
        while True:
            if self._ended():
                self._mask = np.zeros_like(self._mask)
                return True
            to_move = state.to_move
            if to_move == seat:
                self._mask = self._encoder.mask(state.legal_moves())
                return False
            assert to_move is not None
            legal = state.legal_moves()
            state.apply(bots[to_move].choose(state.view(to_move), legal))

    def _observe(self) -> ObsDict:
        obs = self._encoder.encode(self.state.view(self.seat))
        return {"observation": obs, "action_mask": self._mask.copy()}

    def _info(self, illegal: bool = False, carried: float | None = None) -> dict[str, Any]:
        info: dict[str, Any] = {
            "seat": self.seat,
            "scores": self.state.scores,
            "action_mask": self._mask.copy(),
        }
        if illegal:
            info["illegal_action"] = True
        if carried is not None:
            info["carried_reward"] = carried
        return info


def make(
    game: str | Game | None = None,
    seat: int = 0,
    opponents: str | Sequence[str] = "heuristic",
    **kwargs: Any,
) -> CardtableGymEnv:
    """A Gymnasium environment for ``seat`` of ``game`` (``cardtable.load``
    options in ``kwargs`` beside ``reward``, ``episode``, ``max_steps`` and
    ``render_mode``) against ``opponents``."""
    return CardtableGymEnv(game, seat=seat, opponents=opponents, **kwargs)
