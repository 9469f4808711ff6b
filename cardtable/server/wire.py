"""Reading what clients send: strict JSON, bounded sizes, careful numbers.

Everything a browser sends is untrusted. JSON is parsed with hooks that
refuse what would be costly or ambiguous: integers longer than
:data:`MAX_DIGITS` digits (a 5,000-digit number would otherwise trip
Python's int-conversion limit deep inside ``json``), any float, ``NaN`` and
``Infinity``, duplicate keys and deep nesting. Each failure is one
:class:`BadInput` sentence saying where and why.

>>> parse_json('{"type": "move", "seq": 3}', 4096, "message")
{'type': 'move', 'seq': 3}
>>> parse_json('{"seq": ' + "9" * 5000 + "}", 8192, "message")
Traceback (most recent call last):
...
cardtable.server.wire.BadInput: message: the number 999999999999… has more than 12 digits
"""

from __future__ import annotations

import json
from typing import Any

from cardtable.core.errors import CardtableError

MAX_DIGITS = 12


class BadInput(CardtableError):
    """A request or message that is not well formed; ``status`` is its HTTP code."""

    def __init__(self, message: str, status: int = 400) -> None:
        self.status = status
        super().__init__(message)


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadInput(f"the number {text[:MAX_DIGITS]}… has more than {MAX_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    raise BadInput(f"{text[:20]} is not an integer; numbers here are whole numbers")


def _constant(text: str) -> float:
    raise BadInput(f"{text} is not valid JSON")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise BadInput(f"the key {key[:40]!r} appears twice")
        obj[key] = value
    return obj


def parse_json(data: str | bytes, limit: int, what: str) -> Any:
    """The JSON value in ``data``; :class:`BadInput` naming ``what`` if it is
    over ``limit`` bytes or not strict JSON."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
    if size > limit:
        raise BadInput(f"{what} is {size} bytes; the limit is {limit}", 413)
    try:
        return json.loads(
            data,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
            object_pairs_hook=_object,
        )
    except BadInput as exc:
        raise BadInput(f"{what}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what} is not valid JSON: {exc.msg} at column {exc.colno}") from None
    except (UnicodeDecodeError, RecursionError, ValueError):
        raise BadInput(f"{what} is not valid JSON (bad encoding or nested too deeply)") from None


def expect_object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadInput(f"{what} must be a JSON object")
    return value


def only_keys(obj: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    for key in obj:
        if key not in allowed:
            raise BadInput(f"{what}: unknown field {key[:40]!r}; allowed: {', '.join(allowed)}")


def get_int(
    obj: dict[str, Any], key: str, what: str, lo: int, hi: int, default: int | None = None
) -> int:
    """``obj[key]`` as an int in ``lo…hi`` (``default`` when absent, if given)."""
    if key not in obj and default is not None:
        return default
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{what}.{key} must be a whole number from {lo} to {hi}")
    if not lo <= value <= hi:
        raise BadInput(f"{what}.{key} is {value}; it must be from {lo} to {hi}")
    return value


def get_optional_int(obj: dict[str, Any], key: str, what: str, lo: int, hi: int) -> int | None:
    if obj.get(key) is None:
        return None
    return get_int(obj, key, what, lo, hi)


def get_bool(obj: dict[str, Any], key: str, what: str, default: bool) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise BadInput(f"{what}.{key} must be true or false")
    return value


def get_choice(
    obj: dict[str, Any], key: str, what: str, choices: tuple[str, ...], default: str
) -> str:
    value = obj.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise BadInput(f"{what}.{key} must be one of {', '.join(choices)}")
    return value


def get_name(obj: dict[str, Any], key: str, what: str, limit: int = 32) -> str:
    """A display name: 1…``limit`` printable characters after trimming."""
    value = obj.get(key)
    if not isinstance(value, str):
        raise BadInput(f"{what}.{key} must be a string")
    name = value.strip()
    if not 1 <= len(name) <= limit:
        raise BadInput(f"{what}.{key} must be 1 to {limit} characters")
    if not name.isprintable():
        raise BadInput(f"{what}.{key} may not hold control characters")
    return name
