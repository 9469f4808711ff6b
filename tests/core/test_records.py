"""cardtable-record/1 text handling (record-format: 'JSON is strict')."""

from __future__ import annotations

import pytest

from cardtable.core.errors import RecordError
from cardtable.core.records import dumps, loads


def test_duplicate_keys_are_malformed() -> None:
    with pytest.raises(RecordError, match="duplicate key 'game'"):
        loads('{"game": "a", "game": "b"}')


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_malformed(constant: str) -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        loads(f'{{"x": {constant}}}')


def test_bad_json_says_where() -> None:
    with pytest.raises(RecordError) as info:
        loads('{\n  "format": "cardtable-record/1",\n  oops\n}')
    assert info.value.where == "line 3, column 3"


def test_a_record_is_an_object() -> None:
    with pytest.raises(RecordError, match="JSON object, not list"):
        loads("[1, 2]")


def test_dumps_refuses_nan() -> None:
    with pytest.raises(ValueError, match="x"):
        dumps({"x": float("nan")})


def test_round_trip_keeps_order() -> None:
    text = '{"format": "cardtable-record/1", "game": "g", "rounds": []}'
    assert dumps(loads(text)) == text
