"""Records for the replay tests: one whole Marshmallow Test game, edited."""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

import cardtable

SEATS = 3
DELETE = object()  # an edit that removes the key instead of setting it


@functools.cache
def _finished_game() -> dict[str, Any]:
    game = cardtable.load("marshmallow-test", players=SEATS)
    state = game.new_game(random.Random(4))
    rng = random.Random(4)
    while not state.finished:
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    return state.record(["Ann", "Bob", "Cleo"])


def finished_game() -> dict[str, Any]:
    """A whole 3-player Marshmallow Test game (6 rounds), with names and result."""
    return copy.deepcopy(_finished_game())


def record_with(path: str, value: Any) -> dict[str, Any]:
    """The finished game's record with the value at ``path`` (``a/0/b``) set, or deleted."""
    record = finished_game()
    target: Any = record
    keys = [int(k) if k.isdigit() else k for k in path.split("/")]
    for key in keys[:-1]:
        target = target[key]
    if value is DELETE:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return record
