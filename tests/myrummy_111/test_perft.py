"""Perft: MyRummy 111's legal-move tree counted to a fixed depth.

Perft (the chess engines' "performance test") counts the move sequences of
every length from 1 to a depth, from fixed positions, through the public
surface only: ``legal_moves()``, ``clone()``, ``apply(move)`` and
``deal(deal)``. The expected counts were computed with the code as it stood
when they were written. They guard move generation as a whole: any change to
which moves are legal anywhere in these trees (the takes and when a refresh is
offered, MR-4.1/4.2; every insert position and discard, ``far`` included,
MR-4.3/4.4, for hands of 12 and 14 cards; declaring, MR-4.5, and the next
round's start player, MR-2.2) changes a count, even where no rule test looks:
offering ``far`` at every position (by hand, in a copy) makes the first
position's 156 sequences of two moves 222. A change that means to alter the
legal moves updates the counts with it: ``python3 -m
tests.myrummy_111.test_perft`` prints them.

Each position is the deal of ``new_game(random.Random(seed))``, played on for
``skip`` moves that ``random.Random(seed)`` chooses among those that do not
declare (after the deal drew on it). Chance stays fixed: the states have no
generator, and a round that a declaration ends is followed by that same deal,
explicitly, so a count does not depend on the order in which the tree is
walked. No refresh in these trees needs the MR-4.6 reshuffle (the draw pile
is far from empty). The walk takes under a second a position.
"""

from __future__ import annotations

import random
from typing import Any

from cardtable.games.myrummy_111 import MyRummy111, MyRummyState
from cardtable.games.myrummy_111.moves import Place
from tests.perft import Position, counts_test, print_counts

# (seed, options, skip, counts for depth 1, 2, …): what each position covers.
POSITIONS: tuple[Position, ...] = (
    # 3 players, the game's first turns: 12-card hands, every middle card face down.
    (1, {"players": 3}, 0, (3, 156, 468, 24336, 73008)),
    # 4 players, eight turns in: all three middle cards face up, so a refresh is offered.
    (3, {"players": 4}, 16, (6, 312, 1170, 60840, 200772)),
    # 2 players with hands of 12 and 14 (MR-9): the 14-card hand's turn first.
    (5, {"players": 2, "hand_sizes": [12, 14]}, 2, (3, 180, 540, 30240, 95400)),
)


def position(seed: int, options: dict[str, Any], skip: int) -> tuple[MyRummyState, Any]:
    """The position and the deal every round of it is dealt (module doc)."""
    game = MyRummy111(**options)
    rng = random.Random(seed)
    deal = game.deal_from_json(game.new_game(rng).record()["rounds"][0]["deal"], "deal")
    state = game.new_state()
    state.deal(deal)
    for _ in range(skip):
        quiet = [m for m in state.legal_moves() if not (isinstance(m, Place) and m.declare)]
        state.apply(rng.choice(quiet))
    return state, deal


test_perft_counts = counts_test(POSITIONS, position)


if __name__ == "__main__":
    print_counts(POSITIONS, position)
