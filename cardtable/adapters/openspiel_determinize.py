"""Determinizations for the OpenSpiel adapter: the game's sampler, chance-free.

Each game resamples hidden cards itself (its manifest's ``determinize``,
``determinize(game, view, rng)``: a full engine state, drawn uniformly among
those consistent with the view, whose ``view(view.seat)`` equals ``view``).
This module looks the sampler up and makes the state the adapter's kind: one
without a generator (``state.detach_rng()``), so that the next deal and every
reshuffle reach OpenSpiel as chance nodes instead of being drawn inside a
player's action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from cardtable.core.game import Game, State, View
from cardtable.core.registry import manifest

__all__ = ["determinize"]


class Resampled(State, Protocol):
    """What a game's sampler returns: a state whose generator can be dropped."""

    def detach_rng(self) -> None: ...


Sampler = Callable[[Game, View, random.Random], Resampled]


def determinize(game: Game, view: View, rng: random.Random) -> State:
    """A full engine state of ``game`` whose ``view(view.seat)`` equals
    ``view``, hidden cards drawn with ``rng``; the state has no generator.

    Raises :class:`~cardtable.core.manifest.MissingPartError` for a game that
    cannot resample."""
    sample: Sampler = manifest(game.name).part("determinize")
    state = sample(game, view, rng)
    state.detach_rng()
    return state
