"""Play one full game of each cardtable game through OpenSpiel, at random.

    python docs/examples/openspiel_random.py [seed]

Everything goes through ``pyspiel``: chance nodes (the deals, card by card)
are sampled from ``chance_outcomes()``, players pick uniformly among
``legal_actions()``. Runs in about a second.
"""

from __future__ import annotations

import random
import sys

import pyspiel

import cardtable.adapters.openspiel  # noqa: F401  (registers the games with pyspiel)

GAMES = [
    ("python_cardtable_marshmallow_test", {"players": 4, "target": 10}),
    ("python_cardtable_myrummy_111", {"players": 3, "target": 30, "turn_limit": 60}),
]


def play(name: str, params: dict[str, object], rng: random.Random) -> pyspiel.State:
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    chance = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    print(f"{game}")
    print(f"  {decisions} decisions, {chance} chance outcomes; final scores {state.returns()}")
    return state


def main(seed: int = 0) -> None:
    rng = random.Random(seed)
    for name, params in GAMES:
        play(name, params, rng)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
