"""Numbers that people give: too many digits is a clear error saying where,
never Python's ``Exceeds the limit (4300 digits)`` ValueError (issue 10, item 1)."""

from __future__ import annotations

import json
import random

import pytest

import cardtable
from cardtable.core.errors import RecordError
from cardtable.core.numbers import MAX_DIGITS, NumberTooLongError, loads_json, parse_int
from cardtable.core.records import loads

HUGE = "9" * 5001  # past Python's own 4,300-digit conversion limit


def record_text(name: str, target: str | None = None) -> str:
    """A short game's record, its ``options.target`` written as ``target`` if given."""
    state = cardtable.load(name, players=2).new_game(random.Random(3))
    record = state.record()
    if target is None:
        return json.dumps(record)
    record["options"]["target"] = "TARGET"
    return json.dumps(record).replace('"TARGET"', target)


@pytest.mark.parametrize("name", cardtable.game_names())
def test_a_5001_digit_target_is_a_record_error_naming_the_field(name: str) -> None:
    text = record_text(name, HUGE)
    with pytest.raises(RecordError) as info:
        cardtable.load_record(text)
    assert info.value.where == "options.target"
    assert "5001 digits" in str(info.value)


def test_the_path_of_a_deep_number_is_given() -> None:
    with pytest.raises(NumberTooLongError) as info:
        loads_json(f'{{"rounds": [{{"deal": {{"hands": [[2, 3], [4, -{HUGE}]]}}}}]}}')
    assert info.value.where == "rounds[0].deal.hands[1][1]"
    assert info.value.digits == 5001


def test_the_limit_is_inclusive_and_far_below_pythons() -> None:
    assert loads_json("1" * MAX_DIGITS) == int("1" * MAX_DIGITS)
    with pytest.raises(NumberTooLongError):
        loads_json("1" * (MAX_DIGITS + 1))
    assert MAX_DIGITS < 640  # the lowest limit Python can be configured to


def test_records_loads_turns_it_into_a_record_error() -> None:
    with pytest.raises(RecordError) as info:
        loads(f'{{"format": "cardtable-record/1", "game": "g", "seed": {HUGE}}}')
    assert info.value.where == "seed"


def test_parse_int_says_where() -> None:
    assert parse_int(" -12 ", "x") == -12
    with pytest.raises(NumberTooLongError, match=r"^symbols: a number of 5001 digits"):
        parse_int(HUGE, "symbols")
    with pytest.raises(ValueError, match=r"^x: '1e3' is not an integer"):
        parse_int("1e3", "x")


@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_record_with_a_byte_order_mark_is_read(as_bytes: bool) -> None:
    text = "\ufeff" + record_text("marshmallow-test")
    state = cardtable.load_record(text.encode("utf-8") if as_bytes else text)
    assert state.game.num_players == 2
