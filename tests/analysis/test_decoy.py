"""The fair evaluation sees only the seat's view (MT-9, MR-5): decoys prove it.

For positions of both games, a decoy state is drawn with the game's own
``determinize``: the same view for the deciding seat, other hidden cards.
The decision is analyzed once with the real state and once with the decoy
in the place where a peeking evaluator would find the hidden cards; the
fair values must be identical, while the hindsight values (which do read
the hidden cards, and say so) differ for some of them.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.analysis.decisions import Decision
from cardtable.analysis.run import Analyzer
from cardtable.core.registry import manifest
from tests.analysis.conftest import play

CASES = [
    ("marshmallow-test", 3, {"target": 12}),
    ("marshmallow-test", 4, {}),
    ("myrummy-111", 2, {"rounds": 1}),
    ("myrummy-111", 3, {"rounds": 1}),
]


def _decision(
    state: object, seat: int, view: object, legal: tuple[Any, ...], true_state: object
) -> Decision:
    return Decision(0, 1, 1, seat, view, legal, 0, true_state)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_same_view_over_other_hidden_cards_gives_the_same_fair_values(
    name: str, players: int, options: dict[str, Any]
) -> None:
    determinize = manifest(name).part("determinize")
    hindsight_differs = 0
    positions = 0
    for seed in range(4):
        state = play(name, players, seed, moves=3 + 5 * seed, **options)
        if state.finished:
            continue
        seat = state.to_move
        assert seat is not None
        legal = tuple(state.legal_moves())
        if len(legal) < 2:
            continue
        view = state.view(seat)
        decoy = determinize(state.game, view, random.Random(100 + seed))
        assert decoy.view(seat) == view
        others = [s for s in range(players) if s != seat]
        assert any(decoy.view(s) != state.view(s) for s in others), "a decoy must hide other cards"
        analyzer = Analyzer(state.game)
        real = analyzer.analyze(
            _decision(state, seat, view, legal, state.clone()), budget=0.02, seed=7
        )
        fake = analyzer.analyze(
            _decision(decoy, seat, decoy.view(seat), legal, decoy), budget=0.02, seed=7
        )
        assert real.fair == fake.fair
        positions += 1
        hindsight_differs += real.hindsight != fake.hindsight
    assert positions >= 2
    assert hindsight_differs >= 1, "hindsight reads the real cards, so some decoy must change it"
