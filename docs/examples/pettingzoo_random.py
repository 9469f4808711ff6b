"""Play one whole game of each cardtable game through the PettingZoo adapter,
every agent choosing uniformly among its legal actions.

    python3 -m pip install -e ".[rl]"
    python docs/examples/pettingzoo_random.py
"""

from __future__ import annotations

import numpy as np

from cardtable.adapters.pettingzoo import env


def play(game: str, players: int, seed: int) -> None:
    e = env(game, players=players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _info = e.last()
        totals[agent] += reward  # "points": summed over the game, the final score
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            steps += 1
        e.step(action)
    print(f"{game}, {players} players: {steps} steps, scores {totals}")
    e.close()


if __name__ == "__main__":
    play("marshmallow-test", players=4, seed=1)
    play("myrummy-111", players=2, seed=1)
