"""Cards of MyRummy 111: the ints 2 … 111 (MR-1.1) and their joker symbols (MR-1.2).

A symbols table is a tuple of 110 ints, one per card 2 … 111 in order. The hot
path uses :func:`symbol_lookup`, a tuple indexed by the card value itself.

>>> default_symbols(40), default_symbols(13), default_symbols(105)
(4, 1, 3)
"""

from __future__ import annotations

import json
from pathlib import Path

from cardtable.core.errors import OptionError
from cardtable.core.numbers import NumberTooLongError, loads_json, parse_int

LOWEST = 2
HIGHEST = 111
CARDS: tuple[int, ...] = tuple(range(LOWEST, HIGHEST + 1))  # MR-1.1
NUM_CARDS = len(CARDS)  # 110


def default_symbols(card: int) -> int:
    """MR-1.2 [interpretation]: 1 + [4|n] + [8|n] + [5|n] + [7|n]."""
    return 1 + (card % 4 == 0) + (card % 8 == 0) + (card % 5 == 0) + (card % 7 == 0)


DEFAULT_SYMBOLS: tuple[int, ...] = tuple(default_symbols(c) for c in CARDS)


def symbol_lookup(symbols: tuple[int, ...]) -> tuple[int, ...]:
    """A tuple ``t`` with ``t[card]`` = the card's symbols (``t[0] = t[1] = 0``)."""
    return (0, 0, *symbols)


def is_card(value: object) -> bool:
    """True for an int (not a bool) naming a card 2 … 111."""
    return type(value) is int and LOWEST <= value <= HIGHEST


def check_symbols(value: object) -> tuple[int, ...]:
    """Validate a symbols table (MR-9 ``symbols``); raises OptionError."""
    if not isinstance(value, (list, tuple)):
        raise OptionError(
            "symbols", f"must be a list of {NUM_CARDS} integers 1–4, not {type(value).__name__}"
        )
    if len(value) != NUM_CARDS:
        raise OptionError(
            "symbols", f"must list {NUM_CARDS} integers 1–4 (cards 2…111), got {len(value)}"
        )
    for i, s in enumerate(value):
        if type(s) is not int or not 1 <= s <= 4:
            raise OptionError(
                "symbols", f"card {i + LOWEST} has {s!r} symbols; each must be an integer 1–4"
            )
    return tuple(value)


def load_symbols(path: str | Path) -> tuple[int, ...]:
    """Read a symbols table from a file in any form :func:`parse_symbols`
    accepts. Raises OptionError saying why not."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        raise OptionError("symbols", f"cannot read {str(path)!r}: {why}") from None
    return parse_symbols(text, repr(str(path)))


def parse_symbols(text: str, source: str = "the text") -> tuple[int, ...]:
    """A symbols table written as text, in one of the forms accepted everywhere
    (``docs/symbols.md``): a JSON list; 110 numbers separated by whitespace
    and/or commas (one per line is fine); or 110 digits in a row, as
    OpenSpiel's ``symbols`` parameter writes them. Raises OptionError.

    >>> parse_symbols("1" * 110) == parse_symbols(", ".join(["1"] * 110)) == (1,) * 110
    True
    """
    stripped = text.strip()
    values: object
    if stripped.startswith("["):
        try:
            values = loads_json(stripped)
        except NumberTooLongError as exc:
            raise OptionError("symbols", f"{source} at {exc.where}: {exc.reason}") from None
        except json.JSONDecodeError as exc:
            raise OptionError("symbols", f"{source} is not valid JSON: {exc.msg}") from None
        return check_symbols(values)
    words = stripped.replace(",", " ").split()
    if len(words) == 1 and words[0].isdigit():
        words = list(words[0])  # digits in a row (no count has two digits)
    try:
        values = [parse_int(w, f"{source}, number {i + 1}") for i, w in enumerate(words)]
    except ValueError as exc:  # NumberTooLongError included
        raise OptionError("symbols", str(exc)) from None
    return check_symbols(values)
