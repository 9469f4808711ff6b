"""Reading untrusted JSON: sizes, numbers and shapes are bounded."""

from __future__ import annotations

import pytest

from cardtable.server.wire import BadInput, get_int, get_name, parse_json


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


def test_the_size_limit_counts_bytes_not_characters() -> None:
    assert parse_json('"' + "é" * 10 + '"', 22, "m") == "é" * 10
    with pytest.raises(BadInput) as error:
        parse_json('"' + "é" * 10 + '"', 21, "m")
    assert error.value.status == 413


def test_twelve_digits_are_fine_and_bools_are_not_numbers() -> None:
    assert parse_json('{"n": -999999999999}', 100, "m") == {"n": -999999999999}
    with pytest.raises(BadInput):
        get_int({"n": True}, "n", "m", 0, 5)
    with pytest.raises(BadInput, match="from 0 to 5"):
        get_int({"n": 6}, "n", "m", 0, 5)
    assert get_int({}, "n", "m", 0, 5, default=3) == 3


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "a\nb", "\x00", 7])
def test_display_names_are_short_printable_text(name: object) -> None:
    with pytest.raises(BadInput):
        get_name({"name": name}, "name", "request")
    assert get_name({"name": "  Ann  "}, "name", "request") == "Ann"
