"""Reading what clients send: strict JSON, bounded sizes, careful numbers, checked shapes.

Everything a browser sends is untrusted. :func:`parse_json` reads it with
the project's one digit-limited JSON reader
(:func:`cardtable.core.numbers.loads_json`), allowing at most
:data:`MAX_DIGITS` digits (a 5,000-digit number would otherwise trip
Python's int-conversion limit deep inside ``json``), and with hooks that
refuse what would be costly or ambiguous: any float, ``NaN`` and
``Infinity``, duplicate keys and deep nesting. It also refuses text that is
not Unicode: a lone surrogate (``"\\ud800"``), which JSON can spell but no
UTF-8 can hold, so that nothing after it (msgspec, the database, a log line)
meets a string it cannot encode. :func:`convert` then checks
the value against a msgspec schema (:mod:`cardtable.server.requests`) and
puts msgspec's complaint in the server's words: the field's path and why,
the why read from the schema itself. Each failure is one :class:`BadInput`
sentence.

>>> parse_json('{"type": "move", "seq": 3}', 4096, "message")
{'type': 'move', 'seq': 3}
>>> parse_json('{"seq": ' + "9" * 5000 + "}", 8192, "message")
Traceback (most recent call last):
...
cardtable.server.wire.BadInput: message.seq: the number 999999999999… has more than 12 digits
>>> parse_json('{"type": "move\\\\ud800", "seq": 0}', 4096, "message")
Traceback (most recent call last):
...
cardtable.server.wire.BadInput: message.type holds a lone surrogate (not valid Unicode)
>>> from cardtable.server.requests import Join
>>> convert({"seat": 120, "name": "Ann"}, Join, "request")
Traceback (most recent call last):
...
cardtable.server.wire.BadInput: request.seat is 120; it must be from 0 to 99
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, TypeVar, overload

import msgspec
from msgspec import inspect

from cardtable.core.errors import CardtableError
from cardtable.core.numbers import NumberTooLongError, loads_json

if TYPE_CHECKING:
    from starlette.requests import Request

MAX_DIGITS = 12

T = TypeVar("T")


class BadInput(CardtableError):
    """A request or message that is not well formed; ``status`` is its HTTP code."""

    def __init__(self, message: str, status: int = 400) -> None:
        self.status = status
        # A sentence may quote what was sent (a key, a name): a lone surrogate
        # in it is spelled \udxxx, so that the answer can be encoded.
        super().__init__(message.encode("utf-8", "backslashreplace").decode("utf-8"))

    def body(self) -> dict[str, Any]:
        """The JSON answer (a refusal worded in the catalogs adds its key and facts)."""
        return {"error": str(self)}


class Worded(BadInput):
    """A refusal the page words from its catalogs: ``key`` names its words
    (``<prefix>.<key>``, the prefix of the subclass), ``params`` the facts they need."""

    prefix = ""

    def __init__(self, message: str, status: int, key: str, **params: Any) -> None:
        super().__init__(message, status)
        self.key, self.params = key, params

    def body(self) -> dict[str, Any]:
        return {"error": str(self), "key": f"{self.prefix}.{self.key}", "params": self.params}


# --- JSON -------------------------------------------------------------------


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


def at(what: str, path: str) -> str:
    """``what`` followed by a JSON path inside it (``seats[1].bot``, ``[0]``)."""
    if not path:
        return what
    return f"{what}{path}" if path.startswith("[") else f"{what}.{path}"


def parse_json(data: str | bytes, limit: int, what: str) -> Any:
    """The JSON value in ``data``; :class:`BadInput` naming ``what`` if it is
    over ``limit`` bytes or not strict JSON."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
    if size > limit:
        raise BadInput(f"{what} is {size} bytes; the limit is {limit}", 413)
    try:
        value = loads_json(
            data,
            max_digits=MAX_DIGITS,
            parse_float=_float,
            parse_constant=_constant,
            object_pairs_hook=_object,
        )
    except NumberTooLongError as exc:
        where = at(what, exc.where)
        raise BadInput(
            f"{where}: the number {exc.start}… has more than {MAX_DIGITS} digits"
        ) from None
    except BadInput as exc:
        raise BadInput(f"{what}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what} is not valid JSON: {exc.msg} at column {exc.colno}") from None
    except (UnicodeDecodeError, RecursionError, ValueError):
        raise BadInput(f"{what} is not valid JSON (bad encoding or nested too deeply)") from None
    _refuse_surrogates(value, what)
    return value


# After json has paired what pairs, any surrogate left in a string is a lone one.
_SURROGATE = re.compile("[\ud800-\udfff]")


# Where an item sits: its parent's place and its key or index (None: the top).
_Place = tuple["_Place", str | int] | None


def _refuse_surrogates(value: Any, what: str) -> None:
    """:class:`BadInput` naming the first text (a key or a string) in ``value``
    that holds a lone surrogate. A loop, not recursion: ``value`` may nest as
    deeply as the JSON reader allows; a path is spelled only for the culprit."""
    todo: list[tuple[Any, _Place]] = [(value, None)]
    while todo:
        item, place = todo.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise BadInput(f"{_spelled(what, place)} {_NOT_UNICODE}")
        elif isinstance(item, dict):
            for key in item:
                if _SURROGATE.search(key):
                    raise BadInput(f"a key of {_spelled(what, place)} {_NOT_UNICODE}")
            todo.extend((inner, (place, key)) for key, inner in reversed(item.items()))
        elif isinstance(item, list):
            todo.extend((inner, (place, i)) for i, inner in reversed(list(enumerate(item))))


def _spelled(what: str, place: _Place, limit: int = 120) -> str:
    """``what`` and the path to ``place`` (``message.move.cards[2]``), cut at ``limit``."""
    steps: list[str] = []
    while place is not None:
        place, step = place
        steps.append(f"[{step}]" if isinstance(step, int) else f".{step[:40]}")
    path = what + "".join(reversed(steps))
    return path if len(path) <= limit else path[:limit] + "…"


_NOT_UNICODE = "holds a lone surrogate (not valid Unicode)"


# --- shapes -----------------------------------------------------------------

# msgspec says "<why> - at `$.seats[1].bot`" ("- at" absent for the top level).
_COMPLAINT = re.compile(r"(?P<why>.*?)(?: - at `\$(?P<path>[^`]*)`)?", re.DOTALL)
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<name>.*)`", re.DOTALL)
_MISSING = re.compile(r"Object missing required field `(?P<name>.*)`", re.DOTALL)


@overload
def convert(value: Any, schema: type[T], what: str) -> T: ...
@overload
def convert(value: Any, schema: Any, what: str) -> Any: ...  # a union of structs
def convert(value: Any, schema: Any, what: str) -> Any:
    """``value`` (parsed JSON) as ``schema``, or :class:`BadInput` naming the
    first faulty field under ``what`` and saying what it must be."""
    try:
        return msgspec.convert(value, schema, strict=True)
    except msgspec.ValidationError as exc:
        raise BadInput(_words(str(exc), value, inspect.type_info(schema), what)) from None


def _words(complaint: str, value: Any, schema: inspect.Type, what: str) -> str:
    found = _COMPLAINT.fullmatch(complaint)
    assert found is not None  # the pattern matches any text
    why, path = found["why"], found["path"] or ""
    where = at(what, path.removeprefix("."))
    try:
        return _said(why, where, *_walk(schema, value, path))
    except (KeyError, IndexError, TypeError, ValueError):
        return f"{where}: {why}"  # a complaint the schema cannot word: msgspec's own


def _said(why: str, where: str, kind: inspect.Type, here: Any) -> str:
    """msgspec's complaint ``why`` about the value ``here`` of type ``kind``, in our words."""
    if why.startswith("Expected `object`") and isinstance(
        _unwrap(kind), (inspect.UnionType, inspect.StructType)
    ):
        return f"{where} must be a JSON object"
    unknown = _UNKNOWN.fullmatch(why)
    if unknown is not None:
        allowed = ", ".join(_field_names(_pick(kind, here)))
        return f"{where}: unknown field {unknown['name'][:40]!r}; allowed: {allowed}"
    missing = _MISSING.fullmatch(why)
    if missing is not None:
        name = missing["name"]
        if name == _tag_field(kind):
            return f"{where}.{name} {_describe(kind)}"
        return f"{where}.{name} {_describe(_field(_pick(kind, here), name).type)}"
    return f"{where} {_describe(kind, here)}"


def _walk(kind: inspect.Type, value: Any, path: str) -> tuple[inspect.Type, Any]:
    """The schema type at ``path`` and the value found there (``None`` if absent)."""
    for name, index in _STEP.findall(path):
        if name and name == _tag_field(kind):
            return kind, None  # a struct's tag: the union itself says what it may be
        struct = _pick(kind, value)
        if index:
            if not isinstance(struct, inspect.ListType):
                raise TypeError("not a list")
            kind, value = struct.item_type, value[int(index)]
        else:
            kind = _field(struct, name).type
            value = value.get(name) if isinstance(value, dict) else None
    return kind, value


def _tag_field(kind: inspect.Type) -> str | None:
    """The field naming which struct of a tagged union a value is, if any."""
    kind = _unwrap(kind)
    members = kind.types if isinstance(kind, inspect.UnionType) else (kind,)
    tags = {t.tag_field for t in map(_unwrap, members) if isinstance(t, inspect.StructType)}
    return next(iter(tags)) if len(tags) == 1 else None


def _unwrap(kind: inspect.Type) -> inspect.Type:
    return kind.type if isinstance(kind, inspect.Metadata) else kind


def _pick(kind: inspect.Type, value: Any) -> inspect.Type:
    """The member of a union that ``value`` is meant as: the struct its tag
    names, else the one member that is not ``null``."""
    kind = _unwrap(kind)
    if not isinstance(kind, inspect.UnionType):
        return kind
    members = [_unwrap(t) for t in kind.types if not isinstance(t, inspect.NoneType)]
    tag = value.get(_tag_field(kind) or "") if isinstance(value, dict) else None
    for member in members:
        if isinstance(member, inspect.StructType) and member.tag_field and member.tag == tag:
            return member
    if len(members) != 1:
        raise ValueError("no single member")
    return members[0]


def _field(struct: inspect.Type, name: str) -> inspect.Field:
    if not isinstance(struct, inspect.StructType):
        raise TypeError("not a struct")
    for field in struct.fields:
        if field.encode_name == name:
            return field
    raise KeyError(name)


def _field_names(struct: inspect.Type) -> list[str]:
    if not isinstance(struct, inspect.StructType):
        raise TypeError("not a struct")
    tag = [struct.tag_field] if struct.tag_field is not None else []
    return [*tag, *(f.encode_name for f in struct.fields)]


def _describe(kind: inspect.Type, value: Any = None) -> str:
    """What a value of ``kind`` must be, from the schema: its description if
    it has one, else said from its type (and range)."""
    if isinstance(kind, inspect.Metadata):
        described = (kind.extra_json_schema or {}).get("description")
        return str(described) if described else _describe(kind.type, value)
    if isinstance(kind, inspect.IntType):
        bounds = kind.ge is not None and kind.le is not None
        if bounds and isinstance(value, int) and not isinstance(value, bool):
            return f"is {value}; it must be from {kind.ge} to {kind.le}"
        return (
            f"must be a whole number from {kind.ge} to {kind.le}"
            if bounds
            else ("must be a whole number")
        )
    if isinstance(kind, inspect.UnionType):
        tags = [_unwrap(t) for t in kind.types]
        named = [repr(t.tag) for t in tags if isinstance(t, inspect.StructType) and t.tag]
        if named:
            return f"must be {', '.join(named[:-1])} or {named[-1]}"
        members = [t for t in kind.types if not isinstance(t, inspect.NoneType)]
        return _describe(members[0], value) if len(members) == 1 else "has the wrong type"
    if isinstance(kind, inspect.LiteralType):
        return f"must be one of {', '.join(map(str, kind.values))}"
    if isinstance(kind, inspect.ListType):
        return "must be a list"
    return _PLAIN.get(type(kind), "has the wrong type")


_PLAIN: dict[type[inspect.Type], str] = {
    inspect.BoolType: "must be true or false",
    inspect.StrType: "must be a string",
    inspect.DictType: "must be a JSON object",
    inspect.StructType: "must be a JSON object",
}


def display_name(text: str, where: str, limit: int = 32) -> str:
    """A display name: 1…``limit`` printable characters after trimming."""
    name = text.strip()
    if not 1 <= len(name) <= limit:
        raise BadInput(f"{where} must be 1 to {limit} characters")
    if not name.isprintable():
        raise BadInput(f"{where} may not hold control characters")
    return name


# What an HTTP request's body may hold: no route takes more.
MAX_BODY = 16 * 1024


async def read_json(request: Request) -> Any:
    """The request's JSON value, at most :data:`MAX_BODY` bytes (its shape is
    the schema's to check)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadInput(f"the request body is over {MAX_BODY} bytes", 413)
    return parse_json(bytes(body), MAX_BODY, "request")
