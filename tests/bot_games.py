"""A whole game played by bots in tests, each deciding from its own seat's view."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.bots.base import Bot
from cardtable.core.game import State


def play_checking_legal(state: State, bots: Sequence[Bot]) -> int:
    """Play ``state`` to its end, each seat's bot choosing from ``view(seat)``
    and the legal moves; every choice must be one of them. The moves made."""
    moves = 0
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_moves()
        move = bots[seat].choose(state.view(seat), legal)
        assert move in legal
        state.apply(move)
        moves += 1
    return moves
