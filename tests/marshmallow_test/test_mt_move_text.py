"""Moves typed in terminal notation: a card is written colour letter + number
(MT-1.1), with or without a space between them, and trump is named by one of
the five colours (MT-4.2). What cannot be read gets one sentence saying why."""

from __future__ import annotations

import pytest

from cardtable.games.marshmallow_test.cards import parse_card
from cardtable.games.marshmallow_test.moves import PLAYS, TRUMPS, MTMove, parse_move

COLOURS = "red, yellow, green, blue, purple"


def cannot_read(text: str) -> str:
    return (
        f"cannot read {text!r} as a move: play a card like 'G7' (R, Y, G, B, P and 1-12) "
        f"or name trump like 'trump green' ({COLOURS})"
    )


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("G 10", PLAYS[parse_card("G10")]),  # MT-1.1: letter and number apart
        (" g  7 ", PLAYS[parse_card("G7")]),
        ("R 1", PLAYS[parse_card("R1")]),
        ("p 12", PLAYS[parse_card("P12")]),
        ("Y12", PLAYS[parse_card("Y12")]),
        ("TRUMP green", TRUMPS[2]),  # MT-4.2: naming trump
        ("trump  B", TRUMPS[3]),
        ("purple", TRUMPS[4]),
    ],
)
def test_mt_1_1_a_card_may_be_typed_with_a_space(text: str, move: MTMove) -> None:
    assert parse_move(text) is move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # "trump" and a number is trump named badly, not a card called "trump7".
        ("trump 7", f"unknown colour '7' in 'trump 7': name one of {COLOURS}"),
        ("TRUMP 12", f"unknown colour '12' in 'TRUMP 12': name one of {COLOURS}"),
        ("G 13", cannot_read("G 13")),  # MT-1.1: numbers are 1-12
        ("G 1 0", cannot_read("G 1 0")),  # a number split in two is no card
        ("7 G", cannot_read("7 G")),
    ],
)
def test_mt_1_1_unreadable_move_text_says_why(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_move(text)
    assert str(info.value) == message
