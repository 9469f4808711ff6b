"""Analysis tests run on small budgets and a small win model, so they stay fast."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.analysis import winmodel
from cardtable.bots import make_bot
from cardtable.core.game import State

DATA = Path(__file__).resolve().parent.parent / "data" / "analysis"
MODEL_GAMES = 40


@pytest.fixture(autouse=True)
def small_win_model(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(winmodel, "WIN_MODEL_GAMES", MODEL_GAMES)
    yield


def record_text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def play(
    name: str,
    players: int,
    seed: int,
    *,
    bots: str = "heuristic",
    moves: int | None = None,
    **options: Any,
) -> State:
    """A game (or its first ``moves`` decisions) between ``bots`` in every seat."""
    game = cardtable.load(name, players=players, **options)
    state = game.new_game(random.Random(seed))
    seated = [make_bot(bots, game, s, random.Random(seed * 10 + s)) for s in range(players)]
    done = 0
    while not state.finished and (moves is None or done < moves):
        seat = state.to_move
        assert seat is not None
        state.apply(seated[seat].choose(state.view(seat), state.legal_moves()))
        done += 1
    return state


def to_text(state: State) -> str:
    return json.dumps(state.record())
