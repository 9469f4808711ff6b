"""Self-play through the PettingZoo AEC env: one policy plays every seat and
learns from *every* agent's reward at the end of the episode.

    python3 -m pip install -e ".[rl]"
    python docs/examples/selfplay_reinforce.py            # about 1-2 minutes
    python docs/examples/selfplay_reinforce.py --mover-only  # the pitfall, for comparison

The recipe (``docs/research.md``, "Self-play"): walk ``env.agent_iter()``; at
each turn ``env.last()`` is that agent's reward since its previous turn, and
once the episode is over every agent gets one last turn (step ``None``) whose
``last()`` holds its final reward. Summing ``last()`` per agent gives each agent
its own return -- the winner's +1 included. A wrapper that returns only the
reward of the agent that has just moved (as PettingZoo's SB3 tutorial does)
sees only the last mover's reward, usually a loser's, and learns nothing
(``--mover-only`` shows it).

The learner is the smallest that shows the recipe working: a linear softmax
policy over the observation vector, masked to the legal actions, trained with
REINFORCE (numpy only). Game: Marshmallow Test at 3 players, one round per
episode, ``reward="win"`` (+1 to the round's winner, -1/2 to each other seat).
It is measured by its win rate against two uniformly random players over
fresh deals, before and after training (fair share 1/3).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cardtable.adapters.pettingzoo import env as make_env

Step = tuple[np.ndarray, np.ndarray, int]  # observation, mask, action
Chooser = Callable[[str, dict[str, np.ndarray]], int]


class LinearPolicy:
    """Softmax over ``W @ observation + b``, restricted to the legal actions."""

    def __init__(self, size: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, size))
        self.b = np.zeros(actions)
        self.rng = rng

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = np.where(mask > 0, self.w @ x + self.b, -np.inf)
        p: np.ndarray = np.exp(z - z.max())
        out: np.ndarray = p / p.sum()
        return out

    def act(self, x: np.ndarray, mask: np.ndarray) -> int:
        p = self.probabilities(x, mask)
        return int(self.rng.choice(len(p), p=p))

    def reinforce(self, steps: list[Step], advantage: float, lr: float) -> None:
        """One REINFORCE step: raise log p(action) in proportion to ``advantage``."""
        for x, mask, action in steps:
            grad = -self.probabilities(x, mask)
            grad[action] += 1.0
            self.w += lr * advantage * np.outer(grad, x)
            self.b += lr * advantage * grad


def play(e: Any, seed: int, choose: Chooser) -> tuple[dict[str, list[Step]], dict[str, float]]:
    """One episode; every agent's steps and its return (the sum of its ``last()`` rewards)."""
    e.reset(seed=seed)
    steps: dict[str, list[Step]] = {agent: [] for agent in e.possible_agents}
    returns = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        returns[agent] += reward  # this agent's own reward, its final one included
        if terminated or truncated:
            e.step(None)
            continue
        action = choose(agent, obs)
        steps[agent].append((obs["observation"], obs["action_mask"], action))
        e.step(action)
    return steps, returns


def mover_only(
    e: Any, seed: int, choose: Chooser
) -> tuple[dict[str, list[Step]], dict[str, float]]:
    """The pitfall: credit each step with the reward of the agent that just
    moved, read right after its step (what a single-agent wrapper returns)."""
    e.reset(seed=seed)
    steps: dict[str, list[Step]] = {agent: [] for agent in e.possible_agents}
    returns = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = choose(agent, obs)
        steps[agent].append((obs["observation"], obs["action_mask"], action))
        e.step(action)
        returns[agent] += e.rewards[agent]  # only the mover's reward; the others' are lost
    return steps, returns


def win_rate(e: Any, policy: LinearPolicy, games: int, seed: int) -> tuple[float, float, float]:
    """The policy in seat 0 against uniformly random players: wins / games with
    a 95% Wilson interval. A win is a positive return (+1 when winning alone)."""
    rng = np.random.default_rng(seed)

    def choose(agent: str, obs: dict[str, np.ndarray]) -> int:
        if agent == "player_0":
            return policy.act(obs["observation"], obs["action_mask"])
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    wins = sum(play(e, seed + i, choose)[1]["player_0"] > 0 for i in range(games))
    p, z = wins / games, 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games**2)) / (1 + z * z / games)
    return p, centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=8000, help="self-play rounds to train on")
    parser.add_argument("--eval", type=int, default=1000, help="rounds against random per measure")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mover-only", action="store_true", help="the pitfall, for comparison")
    args = parser.parse_args()

    e = make_env("marshmallow-test", players=args.players, reward="win", episode="round")
    e.reset(seed=args.seed)
    size = e.observation_space("player_0")["observation"].shape[0]
    policy = LinearPolicy(size, e.action_space("player_0").n, np.random.default_rng(args.seed))
    collect = mover_only if args.mover_only else play
    evaluation_seed = 10**9 + args.seed  # deals never seen in training
    started = time.perf_counter()

    def report(when: str) -> None:
        p, low, high = win_rate(e, policy, args.eval, evaluation_seed)
        rounds = f"{args.eval} rounds against {args.players - 1} random players"
        fair = f"fair share {1 / args.players:.1%}"
        print(f"{when}: wins {p:.1%} (95% CI {low:.1%}-{high:.1%}) of {rounds}; {fair}")

    report("before training")
    for episode in range(args.episodes):
        # One policy plays every seat (self-play); each seat learns from its own return.
        steps, returns = collect(
            e,
            args.seed + episode,
            lambda _, obs: policy.act(obs["observation"], obs["action_mask"]),
        )
        for agent, agent_steps in steps.items():
            # reward="win" is zero-sum, so 0 is the mean return: a fair baseline.
            policy.reinforce(agent_steps, returns[agent], args.lr)
    print(f"trained on {args.episodes} self-play rounds in {time.perf_counter() - started:.0f} s")
    report("after training")


if __name__ == "__main__":
    main()
