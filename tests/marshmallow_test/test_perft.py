"""Perft: Marshmallow Test's legal-move tree counted to a fixed depth.

Perft (the chess engines' "performance test") counts the move sequences of
every length from 1 to a depth, from fixed positions, through the public
surface only: ``legal_moves()``, ``clone()``, ``apply(move)`` and
``deal(deal)``. The expected counts were computed with the code as it stood
when they were written. They guard move generation as a whole: any change to
which moves are legal anywhere in these trees (following the lead colour,
MT-5.3; trumping in after a ruff and its ``must`` variant, MT-5.4; a led
trump, MT-5.5; naming trump, MT-4.2; who leads after a going out, MT-6.3)
changes a count, even where no rule test looks: making the following of the
lead colour optional (by hand, in a copy) makes the first position's 29
sequences of two moves 144.
A change that means to alter the legal moves updates the counts with it:
``python3 -m tests.marshmallow_test.test_perft`` prints them.

Each position is the deal of ``new_game(random.Random(seed))``, played on for
``skip`` moves that ``random.Random(seed)`` chooses (after the deal drew on
it). Chance stays fixed: the states have no generator, and every round is
dealt that same deal explicitly, so a count does not depend on the order in
which the tree is walked. The walk takes under a second a position.
"""

from __future__ import annotations

import random
from typing import Any

from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest
from tests.perft import Position, counts_test, print_counts

# (seed, options, skip, counts for depth 1, 2, …): what each position covers.
POSITIONS: tuple[Position, ...] = (
    # 4 players, the first trick and more of round 1 (no trump, MT-4.1).
    (1, {"players": 4}, 0, (12, 29, 170, 466, 5126, 17406, 49104, 119440)),
    # 2 players, round 1.
    (2, {"players": 2}, 0, (12, 53, 583, 2016, 20160, 65800, 592200)),
    # 3 players, round 2 before the dealer names trump (MT-4.2), then its tricks.
    (4, {"players": 3}, 26, (5, 60, 160, 450, 4950, 12150, 30722, 307220)),
    # 5 players, trump_after_ruff=must, three tricks into round 2: ruffs (MT-5.4).
    (
        3,
        {"players": 5, "trump_after_ruff": "must"},
        67,
        (9, 19, 37, 129, 201, 1608, 4423, 9548, 18716, 68632, 438088),
    ),
)


def position(seed: int, options: dict[str, Any], skip: int) -> tuple[MarshmallowState, Any]:
    """The position and the deal every round of it is dealt (module doc)."""
    game = MarshmallowTest(**options)
    rng = random.Random(seed)
    deal = game.deal_from_json(game.new_game(rng).record()["rounds"][0]["deal"], "deal")
    state = game.new_state()
    state.deal(deal)
    for _ in range(skip):
        state.apply(rng.choice(state.legal_moves()))
        if state.awaiting_deal:
            state.deal(deal)
    return state, deal


test_perft_counts = counts_test(POSITIONS, position)


if __name__ == "__main__":
    print_counts(POSITIONS, position)
