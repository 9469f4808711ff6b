"""Reading numbers that people (or their files) give us.

Python refuses to convert a decimal string of more than 4,300 digits to an
``int`` (a guard against quadratic-time conversions) with a bare
``ValueError`` — through :func:`int` and through :func:`json.loads` alike.
Every place that reads a user's number (records, ``-o`` options, symbol files,
network messages) goes through this module instead, so a number that is too
long is refused with a :class:`NumberTooLongError` that says where it is.

No count, score, seat or seed in cardtable comes near :data:`MAX_DIGITS`;
the limit sits far below Python's own so that it never depends on how the
interpreter is configured (``PYTHONINTMAXSTRDIGITS`` may go down to 640).

>>> parse_int("42", "target")
42
>>> parse_int("9" * 101, "target")
Traceback (most recent call last):
...
cardtable.core.numbers.NumberTooLongError: target: a number of 101 digits is too long (at most 100)
>>> try:
...     loads_json('{"options": {"target": 1%s}}' % ("0" * 200))
... except NumberTooLongError as exc:
...     print(exc.where, exc.digits)
options.target 201
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from cardtable.core.errors import CardtableError

MAX_DIGITS = 100

_INTEGER = re.compile(r"[+-]?[0-9]+")

__all__ = ["MAX_DIGITS", "NumberTooLongError", "loads_json", "parse_int"]


class NumberTooLongError(CardtableError):
    """A number with more than ``limit`` digits (:data:`MAX_DIGITS` unless a
    reader asked for fewer); ``where`` says where, ``start`` is how the number
    begins (its first ``limit`` characters), to show which one it is."""

    def __init__(self, where: str, digits: int, limit: int = MAX_DIGITS, start: str = "") -> None:
        self.where = where
        self.digits = digits
        self.limit = limit
        self.start = start
        self.reason = f"a number of {digits} digits is too long (at most {limit})"
        super().__init__(f"{where}: {self.reason}" if where else self.reason)


def parse_int(text: str, where: str) -> int:
    """A decimal integer (sign allowed, surrounding blanks ignored).

    Raises :class:`NumberTooLongError` past :data:`MAX_DIGITS` digits and a
    plain ``ValueError`` naming ``where`` for anything that is not an integer.
    """
    word = text.strip()
    if not _INTEGER.fullmatch(word):
        raise ValueError(f"{where}: {_shorten(word)!r} is not an integer")
    digits = len(word.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise NumberTooLongError(where, digits, start=word[:MAX_DIGITS])
    return int(word)


class _TooLong:
    """Stands in for an integer too long to convert, until its path is known."""

    __slots__ = ("digits", "start")

    def __init__(self, digits: int, start: str) -> None:
        self.digits = digits
        self.start = start


def loads_json(
    text: str | bytes,
    *,
    max_digits: int = MAX_DIGITS,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    parse_constant: Callable[[str], Any] | None = None,
    parse_float: Callable[[str], Any] | None = None,
) -> Any:
    """:func:`json.loads`, refusing integers past ``max_digits`` digits (at
    most :data:`MAX_DIGITS`; the server reads with fewer).

    The error's ``where`` is the JSON path of the number (``options.target``,
    ``rounds[0].deal.hands[1][3]``), or empty for a bare number. Other
    arguments are passed to :func:`json.loads` unchanged.

    >>> loads_json('{"seq": [1, -1234]}', max_digits=3)
    Traceback (most recent call last):
    ...
    cardtable.core.numbers.NumberTooLongError: seq[1]: a number of 4 digits is too long (at most 3)
    """
    limit = min(max_digits, MAX_DIGITS)
    found: list[_TooLong] = []

    def parse_integer(token: str) -> int | _TooLong:
        digits = len(token) - token.startswith("-")
        if digits <= limit:
            return int(token)
        marker = _TooLong(digits, token[:limit])
        found.append(marker)
        return marker

    value = json.loads(
        text,
        object_pairs_hook=object_pairs_hook,
        parse_constant=parse_constant,
        parse_float=parse_float,
        parse_int=parse_integer,
    )
    if found:
        where, marker = _first_marker(value)
        raise NumberTooLongError(where, marker.digits, limit, marker.start)
    return value


def _first_marker(value: Any) -> tuple[str, _TooLong]:
    """The path of the first stand-in in document order (iterative: JSON may nest deeply)."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, _TooLong):
            return where, item
        if isinstance(item, dict):
            children = [(f"{where}.{k}" if where else str(k), v) for k, v in item.items()]
        elif isinstance(item, list):
            children = [(f"{where}[{i}]", v) for i, v in enumerate(item)]
        else:
            continue
        stack.extend(reversed(children))
    raise AssertionError("a marker was made but is not in the parsed value")


def _shorten(word: str, limit: int = 20) -> str:
    return word if len(word) <= limit else f"{word[:limit]}…"
