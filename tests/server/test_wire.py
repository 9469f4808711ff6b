"""Reading untrusted JSON: sizes, numbers and shapes are bounded, and each
fault is one sentence naming the field and saying why."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.server.requests import Analyze, ClientMessage, CreateTable, Join, MoveMessage
from cardtable.server.wire import BadInput, convert, display_name, parse_json


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"seq": ' + "1" * 5000 + "}", "more than 12 digits"),
        ('{"seq": -' + "1" * 13 + "}", "more than 12 digits"),
        ('{"seq": 1e400}', "not an integer"),
        ('{"seq": 0.0}', "not an integer"),
        ('{"seq": NaN}', "not valid JSON"),
        ('{"seq": -Infinity}', "not valid JSON"),
        ('{"a": 1, "a": 2}', "twice"),
        ("[" * 3000 + "]" * 3000, "nested too deeply"),
        ('{"a": "\\ud800"', "not valid JSON"),
        ("", "not valid JSON"),
    ],
    ids=lambda v: v[:24] if isinstance(v, str) else None,
)
def test_what_the_parser_refuses(text: str, words: str) -> None:
    with pytest.raises(BadInput) as error:
        parse_json(text, 10_000, "message")
    assert words in str(error.value) and str(error.value).startswith("message")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"a": [1, {"b": "x\\ud800"}]}', "message.a[1].b holds a lone surrogate"),
        ('["\\udfff"]', "message[0] holds a lone surrogate"),
        ('{"k\\ud800": 1}', "a key of message holds a lone surrogate"),
        ('{"' + "k" * 500 + '": "\\ud800"}', "message." + "k" * 40 + " holds"),  # cut short
        ('"\\udc00\\ud800"', "message holds a lone surrogate"),  # a pair backwards
        # Refused before the text is looked at: the sentence quotes the key, escaped.
        ('{"\\ud800": 1000000000000}', "message.\\ud800: the number 100000000000…"),
    ],
)
def test_a_lone_surrogate_is_named_by_its_path(text: str, words: str) -> None:
    with pytest.raises(BadInput) as error:
        parse_json(text, 10_000, "message")
    assert str(error.value).startswith(words)


def test_a_surrogate_pair_is_one_character() -> None:
    assert parse_json('["\\ud83d\\ude00"]', 100, "message") == ["\U0001f600"]


def test_a_number_too_long_is_named_by_its_path() -> None:
    with pytest.raises(BadInput) as error:
        parse_json('{"move": {"take": [1, ' + "8" * 40 + "]}}", 1000, "message")
    assert str(error.value) == (
        "message.move.take[1]: the number 888888888888… has more than 12 digits"
    )


def test_the_size_limit_counts_bytes_not_characters() -> None:
    assert parse_json('"' + "é" * 10 + '"', 22, "m") == "é" * 10
    with pytest.raises(BadInput) as error:
        parse_json('"' + "é" * 10 + '"', 21, "m")
    assert error.value.status == 413


def test_twelve_digits_are_fine_and_bools_are_not_numbers() -> None:
    assert parse_json('{"n": -999999999999}', 100, "m") == {"n": -999999999999}
    with pytest.raises(BadInput, match=r"^m\.seat must be a whole number from 0 to 99$"):
        convert({"seat": True, "name": "Ann"}, Join, "m")
    assert convert({}, Analyze, "m").seat is None
    assert convert({"seat": 3}, Analyze, "m").seat == 3


@pytest.mark.parametrize(
    ("value", "schema", "words"),
    [
        ({"seat": 120, "name": "A"}, Join, "request.seat is 120; it must be from 0 to 99"),
        ({"seat": 1}, Join, "request.name must be a string"),
        ([], Join, "request must be a JSON object"),
        ({"seat": 1, "name": "A", "x": 0}, Join, "request: unknown field 'x'; allowed: seat, name"),
        (
            {"game": "g", "seats": [{}, {"kind": "robot"}]},
            CreateTable,
            "request.seats[1].kind must be one of human, bot",
        ),
        (
            {"game": "g", "seats": []},
            CreateTable,
            "request.seats must be a list with one entry per seat",
        ),
        (
            {"game": "g", "seats": [{}], "stand_in": "hard"},
            CreateTable,
            "request.stand_in must be one of easy, medium, random",
        ),
        (
            {"game": "g", "seats": [{}], "turn_seconds": 0},
            CreateTable,
            "request.turn_seconds is 0; it must be from 1 to 3600",
        ),
        (
            {"type": "dance"},
            ClientMessage,
            "request.type must be 'move', 'back', 'ping', 'chat', 'report', 'takeback' or"
            " 'takeback-answer'",
        ),
        (
            {"seq": 0},
            ClientMessage,
            "request.type must be 'move', 'back', 'ping', 'chat', 'report', 'takeback' or"
            " 'takeback-answer'",
        ),
        (
            {"type": "move", "seq": True, "move": {}},
            ClientMessage,
            "request.seq must be the number of moves played so far",
        ),
        (
            {"type": "move", "seq": 0, "move": {}, "token": "t"},
            ClientMessage,
            "request: unknown field 'token'; allowed: type, seq, move",
        ),
    ],
)
def test_a_shape_fault_names_the_field_and_says_why(value: Any, schema: Any, words: str) -> None:
    with pytest.raises(BadInput) as error:
        convert(value, schema, "request")
    assert str(error.value) == words and error.value.status == 400


def test_a_message_becomes_the_struct_its_type_names() -> None:
    message = convert({"type": "move", "seq": 4, "move": {"play": "R1"}}, ClientMessage, "m")
    assert message == MoveMessage(seq=4, move={"play": "R1"})


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "a\nb", "\x00"])
def test_display_names_are_short_printable_text(name: str) -> None:
    with pytest.raises(BadInput):
        display_name(name, "request.name")
    assert display_name("  Ann  ", "request.name") == "Ann"


def random_json(rng: random.Random, depth: int = 0) -> Any:
    """A small JSON value made of the schemas' own names and odd values."""
    words = ["type", "move", "back", "ping", "seq", "seat", "seats", "kind", "bot", "game", "x"]
    pick = rng.randrange(8 if depth < 3 else 5)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.randint(-5, 200)
    if pick == 2:
        return rng.choice([*words, "human", "easy", "hard"])
    if pick in (3, 4):
        return rng.choice(["", "é"])
    if pick == 5:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice(words): random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


@pytest.mark.parametrize("schema", [CreateTable, Join, Analyze, ClientMessage])
def test_any_json_is_accepted_or_refused_in_one_sentence(schema: Any) -> None:
    rng = random.Random(19)
    refused = 0
    for _ in range(2000):
        value = random_json(rng)
        try:
            convert(value, schema, "request")
        except BadInput as error:
            refused += 1
            assert str(error).startswith("request")
            assert "\n" not in str(error) and "`" not in str(error)  # our words, not msgspec's
    assert refused > 1000  # the values really were faulty, mostly
