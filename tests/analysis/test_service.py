"""The server's one door into the analysis: parts of a seat's analysis add
up, in any split and order, to the same document."""

from __future__ import annotations

import json
import random

import pytest

import cardtable
from cardtable.analysis import analyze_decisions

BUDGET = 0.02  # nominal seconds per decision: tiny, the values need not be good


def short_record() -> str:
    game = cardtable.load("marshmallow-test", players=2, target=3)
    state = game.new_game(random.Random(5))
    rng = random.Random(5)
    while not state.finished:
        state.apply(rng.choice(state.legal_moves()))
    return json.dumps(state.record(["Ann", "Bob"]))


def test_parts_add_up_to_one_analysis_in_any_order() -> None:
    record = short_record()
    whole = analyze_decisions(record, 1, [0, 1, 2, 3], budget=BUDGET, seed=0)
    parts = [analyze_decisions(record, 1, [i], budget=BUDGET, seed=0) for i in (3, 1, 0, 2)]
    added = parts[0] + parts[1] + parts[2] + parts[3]
    assert added.to_json() == whole.to_json()
    document = whole.to_json()
    assert [p["name"] for p in document["analysis"]["players"]] == ["Bob"]
    steps = [note["step"] for note in document["notes"]]
    assert steps == sorted(steps) and len(set(steps)) == 4
    moves = [m for r in json.loads(record)["rounds"] for m in r["moves"]]
    assert all(moves[s]["seat"] == 1 for s in steps)  # each step is a move of seat 1


def test_parts_of_different_seats_do_not_add() -> None:
    record = short_record()
    with pytest.raises(ValueError, match="one seat"):
        _ = analyze_decisions(record, 0, [0], budget=BUDGET, seed=0) + analyze_decisions(
            record, 1, [0], budget=BUDGET, seed=0
        )
