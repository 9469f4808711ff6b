"""A card that may not be played is refused with the rule it breaks and what
the player must do instead, naming exactly the cards they may play (MT-5.3,
MT-5.4), whatever colour is trump."""

from __future__ import annotations

import pytest

from cardtable.core.errors import IllegalMoveError
from cardtable.games.marshmallow_test import MarshmallowState
from cardtable.games.marshmallow_test.cards import RED
from cardtable.games.marshmallow_test.moves import TRUMPS, parse_move

from .helpers import cards, names, play, scenario
from .test_rules import round_two

# Trump red (colour 0, the lowest): the dealer leads yellow, the next seat has
# no yellow and ruffs, the third holds yellow and red, the fourth yellow only.
RED_TRUMP_HANDS = {
    0: "Y1 Y2 Y3 Y4 G1 G2 G3 G4 G5 G6 G7 G8",
    1: "R2 R3 R4 G9 G10 G11 G12 P1 P2 P3 P4 P5",
    2: "Y5 Y7 R7 R8 B9 B10 B11 B12 P6 P7 P8 P9",
    3: "Y6 Y8 Y9 B1 B2 B3 B4 B5 B6 B7 B8 P10",
}


def refusal(move: str, state: MarshmallowState) -> tuple[str, str]:
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parse_move(move))
    return info.value.reason, info.value.rule


def test_mt_5_3_a_refusal_names_only_the_cards_of_the_lead_colour() -> None:
    # Seat 1 holds R1 as well as yellow: R1 is no card it may play to a yellow lead.
    state = scenario(
        3,
        [
            cards("Y1 Y2 G1 G2 G3 G4 G5 G6 G7 G8 G9 G10"),
            cards("R1 Y5 Y6 B1 B2 B3 B4 B5 B6 B7 B8 B9"),
            cards("R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 P1"),
        ],
    )
    play(state, "Y1")
    assert refusal("R1", state) == ("must follow yellow: holds Y5, Y6", "MT-5.3")


def test_mt_5_4_may_with_red_trump_offers_trumping_in_only_to_a_holder_of_red() -> None:
    state = round_two(4, RED_TRUMP_HANDS)
    state.apply(TRUMPS[RED])
    play(state, "Y1", "R2")  # a ruff: seat d+1 holds no yellow
    assert names(state.legal_moves()) == ["R7", "R8", "Y5", "Y7"]
    assert refusal("B9", state) == (
        "must follow yellow or trump in with red: holds R7, R8, Y5, Y7",
        "MT-5.4",
    )
    play(state, "Y5")
    # no red in hand: still bound to follow yellow, and told only that
    assert names(state.legal_moves()) == ["Y6", "Y8", "Y9"]
    assert refusal("B1", state) == ("must follow yellow: holds Y6, Y8, Y9", "MT-5.3")


def test_mt_5_4_must_with_red_trump_refuses_a_card_that_is_not_red() -> None:
    state = round_two(4, RED_TRUMP_HANDS, trump_after_ruff="must")
    state.apply(TRUMPS[RED])
    play(state, "Y1", "R2")
    assert refusal("Y5", state) == ("must play a trump after the ruff: holds R7, R8", "MT-5.4")
    play(state, "R7")
    assert len(state.legal_moves()) == 12  # no red in hand: any card, yellow held or not
    play(state, "B1")
