"""Determinizations for the OpenSpiel adapter: the bots' samplers, chance-free.

The samplers live with the search bots (:mod:`cardtable.bots.marshmallow_test.determinize`,
:mod:`cardtable.games.myrummy_111.determinize`): ``determinize(game, view, rng)``
returns a full engine state, drawn uniformly among those consistent with the
view, whose ``view(view.seat)`` equals ``view``. This module only dispatches
by game and makes the state the adapter's kind: one without a generator, so
that the next deal and every MR-4.6 reshuffle reach OpenSpiel as chance nodes
instead of being drawn inside a player's action.
"""

from __future__ import annotations

import random
from typing import Any

from cardtable.core.game import Game, State, View
from cardtable.games.marshmallow_test import MarshmallowTest, MarshmallowView
from cardtable.games.marshmallow_test.determinize import determinize as mt_determinize
from cardtable.games.myrummy_111 import MyRummy111, MyRummyView
from cardtable.games.myrummy_111.determinize import determinize as mr_determinize

__all__ = ["determinize"]


def determinize(game: Game, view: View, rng: random.Random) -> State:
    """A full engine state of ``game`` whose ``view(view.seat)`` equals
    ``view``, hidden cards drawn with ``rng``; the state has no generator."""
    state: Any
    if isinstance(game, MarshmallowTest) and isinstance(view, MarshmallowView):
        state = mt_determinize(game, view, rng)
    elif isinstance(game, MyRummy111) and isinstance(view, MyRummyView):
        state = mr_determinize(game, view, rng)
    else:
        raise TypeError(f"cannot determinize a {type(view).__name__} of {game!r}")
    # The engines keep a generator only to deal and reshuffle by themselves;
    # there is no public way to drop it (MyRummy's sampler always sets one).
    state._rng = None
    result: State = state
    return result
