"""Issue 10, items 6 and 14: the terminal's words for MyRummy's public facts."""

from __future__ import annotations

import random

import cardtable
from cardtable.games.myrummy_111 import terminal_render


def test_mr_8_known_cards_are_labelled_as_positions_not_a_count() -> None:
    game = cardtable.load("myrummy-111", players=3)
    state = game.new_game(random.Random(5))
    rng = random.Random(1)
    names = ["Ann", "Bob", "Cleo"]
    while not state.finished:
        view = state.view(0)
        rows = [row.plain for row in terminal_render.others_known(view, names)]  # type: ignore[arg-type]
        if rows:
            break
        state.apply(rng.choice(state.legal_moves()))
    assert rows, "no opponent's card became public in a whole game"
    for row in rows:
        assert "cards by position (· unknown):" in row and " holds " not in row


def test_mr_6_declaring_speaks_of_joker_symbols() -> None:
    assert "joker symbols" in terminal_render.hand_verdict([10, 20, 30], (0,) * 112)
