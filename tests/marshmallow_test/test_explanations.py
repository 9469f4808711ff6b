"""Explanations of refused cards are true (MT-5.3, MT-5.4): a property test.

Over random positions, every card the seat to move may not play is tried
twice: through the engine (``IllegalMoveError``) and through the terminal's
answer. Each explanation must name only legal cards, and every fact it states
(the colour led, trump, a ruff, what the player holds) must be true of the
position. The reported bug: yellow trump, purple led and ruffed, no yellow in
hand, and ``r5`` was answered "follow purple or trump in with yellow".
"""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from cardtable.cli.ui import QuitGame
from cardtable.core.errors import IllegalMoveError
from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest, MarshmallowView
from cardtable.games.marshmallow_test.cards import (
    COLOUR_NAMES,
    COLOUR_OF,
    NUM_CARDS,
    parse_card,
)
from cardtable.games.marshmallow_test.moves import PLAYS, Play
from cardtable.games.marshmallow_test.terminal import MarshmallowTestUI

# "must follow red or trump in with green", "must play a trump after the ruff"
DUTY = re.compile(
    r"must (?:follow (\w+)(?: or trump in with (\w+))?|play a (trump) after the ruff)"
)
ENGINE = re.compile(rf"^{DUTY.pattern}: holds (.+)$")
TERMINAL = re.compile(rf"^you {DUTY.pattern} \((MT-[\d.]+)\): (.+)$")
NOT_HELD = re.compile(r"^you don't hold (\w+); (?:you may play (.+)|play any card you hold)$")


def cards_named(text: str) -> set[int]:
    return {parse_card(name) for name in text.split(", ")}


def check_duty(
    state: MarshmallowState,
    view: MarshmallowView,
    follow: str | None,
    trump_in: str | None,
    must_trump: str | None,
    named: set[int],
) -> None:
    """The facts of one explanation hold in ``state``; ``named`` is exactly the legal cards."""
    seat = state.to_move
    assert seat is not None
    hand = set(state.hand(seat))
    legal = {m.card for m in state.legal_moves() if isinstance(m, Play)}
    assert named == legal  # only cards the player can play, and all of them
    held_colours = {COLOUR_OF[c] for c in hand}
    if follow is not None:
        lead = COLOUR_NAMES.index(follow)
        assert state.lead_colour == lead and lead in held_colours  # MT-5.3
    if trump_in is not None:
        trump = COLOUR_NAMES.index(trump_in)
        assert state.trump == trump and view.ruffed  # MT-5.4
        assert trump in held_colours and view.trump_after_ruff == "may"
    if must_trump is not None:
        assert state.trump is not None and view.ruffed
        assert view.trump_after_ruff == "must" and state.trump in held_colours


def terminal_answers(state: MarshmallowState, typed: list[str]) -> list[str]:
    """What the terminal answers the seat to move who types each of ``typed``."""
    seat = state.to_move
    assert seat is not None
    out = io.StringIO()
    console = Console(file=out, width=500, color_system=None, highlight=False)
    names = [f"P{s}" for s in range(state.game.num_players)]
    ui = MarshmallowTestUI(state.game, console, names, seat)
    lines = iter(typed)

    def read_line(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise QuitGame from None

    with pytest.raises(QuitGame):
        ui.ask(state.view(seat), state.legal_moves(), read_line)
    return out.getvalue().splitlines()[-len(typed) :]


def check_refusals(state: MarshmallowState) -> int:
    """Try every card the seat to move may not play; return how many it held."""
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    legal = state.legal_moves()
    hand = set(state.hand(seat))
    allowed = {m.card for m in legal if isinstance(m, Play)}
    refused = [c for c in range(NUM_CARDS) if c not in allowed]
    answers = terminal_answers(state, [str(PLAYS[c]) for c in refused])
    for card, answer in zip(refused, answers, strict=True):
        move = PLAYS[card]
        with pytest.raises(IllegalMoveError) as info:
            state.clone().apply(move)
        error = info.value
        if card not in hand:
            m = NOT_HELD.match(answer)
            assert m is not None, answer
            assert m[1] == str(move)
            assert cards_named(m[2]) == allowed if m[2] else allowed == hand
            assert error.reason == f"seat {seat} does not hold {move}"
            continue
        m = TERMINAL.match(answer)
        assert m is not None, answer
        check_duty(state, view, m[1], m[2], m[3], cards_named(m[5]))
        e = ENGINE.match(error.reason)
        assert e is not None, error.reason
        check_duty(state, view, e[1], e[2], e[3], cards_named(e[4]))
        assert (m[1], m[2], m[3], m[4]) == (e[1], e[2], e[3], error.rule)
        assert error.rule == ("MT-5.4" if m[2] or m[3] else "MT-5.3")
    return len(hand - allowed)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32), st.sampled_from(["may", "must"]))
def test_every_refusal_names_only_legal_cards_and_true_facts(
    players: int, seed: int, variant: str
) -> None:
    game = MarshmallowTest(players=players, trump_after_ruff=variant, target=12)
    state = game.new_game(random.Random(seed))
    rng = random.Random(seed + 1)
    refused = 0
    while not state.finished:
        legal = state.legal_moves()
        if isinstance(legal[0], Play):
            refused += check_refusals(state)
        state.apply(legal[rng.randrange(len(legal))])
    assert refused  # every game has a trick where someone must follow
