"""Play one whole game of each cardtable game through the Gymnasium adapter:
the learner (seat 0) chooses uniformly among its legal actions, cardtable's
heuristic bots play the other seats.

    python3 -m pip install -e ".[rl]"
    python docs/examples/gymnasium_random.py
"""

from __future__ import annotations

import numpy as np

from cardtable.adapters.gymnasium import make


def play(game: str, players: int, seed: int) -> None:
    env = make(game, seat=0, opponents="heuristic", players=players)
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward  # "points": summed over the game, the learner's final score
        steps += 1
        if terminated or truncated:
            break
    scores = info["scores"]
    print(f"{game}, {players} players: {steps} steps, total reward {total}, scores {scores}")
    env.close()


if __name__ == "__main__":
    play("marshmallow-test", players=4, seed=1)
    play("myrummy-111", players=2, seed=1)
