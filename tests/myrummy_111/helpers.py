"""Shared helpers: explicit deals and scripted games."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.games.myrummy_111 import Deal, MyRummy111, MyRummyState


def make_deal(
    hands: Sequence[Sequence[int]], middle: Sequence[int], draw_head: Sequence[int] = ()
) -> Deal:
    """A deal with the given hands and middle; the draw pile starts with
    ``draw_head`` and continues with every other card in increasing order."""
    used = {c for h in hands for c in h} | set(middle) | set(draw_head)
    rest = [c for c in range(2, 112) if c not in used]
    return Deal(tuple(tuple(h) for h in hands), tuple(middle), tuple(draw_head) + tuple(rest))


def dealt(game: MyRummy111, deal: Deal) -> MyRummyState:
    state = game.new_state()
    state.deal(deal)
    return state


def random_game(seed: int, players: int = 2, **options: object) -> MyRummyState:
    """A game played to the end by uniform random moves."""
    game = MyRummy111(players=players, **options)
    rng = random.Random(seed)
    state = game.new_game(rng)
    while not state.finished:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return state
