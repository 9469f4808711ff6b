"""Records for the replay tests: one whole Marshmallow Test game, edited."""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

import cardtable
from cardtable.core.game import State

SEATS = 3


class _Delete:
    """An edit that removes the key instead of setting it."""

    def __repr__(self) -> str:  # a stable test id, the same in every process
        return "<deleted>"


DELETE = _Delete()


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


def walk(record: dict[str, Any], rounds: int, moves: int) -> State:
    """The state after the first ``moves`` moves of round ``rounds`` (1-based),
    reached without replay, straight through the game's rules."""
    game = cardtable.load(record["game"], **record["options"])
    state = game.new_state()
    for r, round_ in enumerate(record["rounds"][:rounds], start=1):
        state.deal(game.deal_from_json(round_["deal"], "deal"))
        for move in round_["moves"][: moves if r == rounds else None]:
            seat, parsed, chance = game.move_from_json(move, "move")
            state.apply_as(seat, parsed, **chance)
    return state
