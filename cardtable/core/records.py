"""``cardtable-record/1``: reading and writing game records.

A record holds the options, every deal and every decision of a game, so it
replays without any generator (``../shared/spec/record-format.md``). Like
:mod:`json` (and PokerKit's PHH) there are ``load``/``loads``/``dump``/``dumps``;
writing is canonical and reading reports the first problem with where it is.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import IO, Any, overload

from cardtable.core.errors import RecordError
from cardtable.core.game import JSON, Game
from cardtable.core.numbers import NumberTooLongError, loads_json

FORMAT = "cardtable-record/1"
RESULT_KEYS = ("finished", "scores", "round_scores", "winners")
BOM = "\ufeff"


@overload
def make_record(
    game: Game,
    rounds: list[dict[str, JSON]],
    result: dict[str, JSON] | None = None,
    players: Sequence[str] | None = None,
) -> dict[str, JSON]: ...


@overload
def make_record(
    game: str,
    rounds: list[dict[str, JSON]],
    result: dict[str, JSON] | None = None,
    players: Sequence[str] | None = None,
    *,
    options: dict[str, JSON],
) -> dict[str, JSON]: ...


def make_record(
    game: Game | str,
    rounds: list[dict[str, JSON]],
    result: dict[str, JSON] | None = None,
    players: Sequence[str] | None = None,
    *,
    options: dict[str, JSON] | None = None,
) -> dict[str, JSON]:
    """The canonical record of a game: what every game's ``State.record``
    returns, and what the server's journal rebuilds from its stored events.

    ``game`` is the :class:`~cardtable.core.game.Game`, or only its name with
    its ``options`` (``options_json``) for a stored game not loaded yet.
    Without ``result`` the record has none (a game's events as stored, which
    :func:`cardtable.core.replay.replay` plays to find it).

    >>> record = make_record("some-game", [], options={"players": 2})
    >>> list(record), record["options"]
    (['format', 'game', 'options', 'rounds'], {'players': 2})
    """
    num_players: int | None = None  # checks the players' names when known
    if isinstance(game, str):
        if options is None:
            raise TypeError("make_record() needs the options of a game given by its name")
        name = game
    else:
        if options is not None:
            raise TypeError("make_record() takes a game's options from the game itself")
        name, options, num_players = game.name, game.options_json, game.num_players
    record: dict[str, JSON] = {"format": FORMAT, "game": name, "options": options}
    if players is not None:
        names = list(players)
        if num_players is not None and (
            len(names) != num_players or not all(isinstance(n, str) for n in names)
        ):
            raise ValueError(f"players must be {num_players} names, got {names!r}")
        record["players"] = names
    record["rounds"] = rounds
    if result is not None:
        record["result"] = result
    return record


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise RecordError("", f"duplicate key {key!r} in a JSON object")
        obj[key] = value
    return obj


def _reject_constant(name: str) -> float:
    raise RecordError("", f"{name} is not valid JSON")


def loads(text: str | bytes) -> dict[str, JSON]:
    """Parse a record's JSON text strictly (no duplicate keys, NaN or Infinity,
    no integer of more than :data:`~cardtable.core.numbers.MAX_DIGITS` digits).

    A leading UTF-8 byte order mark is ignored (editors on Windows write one).
    Only the JSON is checked here; :func:`cardtable.core.replay.replay` checks
    the record against the rules.
    """
    if isinstance(text, str):
        text = text.removeprefix(BOM)
    try:
        obj = loads_json(
            text, object_pairs_hook=_reject_duplicates, parse_constant=_reject_constant
        )
    except RecordError:
        raise
    except NumberTooLongError as exc:
        raise RecordError(exc.where, exc.reason) from None
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"line {exc.lineno}, column {exc.colno}", f"bad JSON: {exc.msg}"
        ) from None
    except (UnicodeDecodeError, RecursionError) as exc:
        raise RecordError("", f"bad JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise RecordError("", f"a record is a JSON object, not {type(obj).__name__}")
    return obj


def load(fp: IO[str]) -> dict[str, JSON]:
    return loads(fp.read())


def dumps(record: dict[str, JSON], *, indent: int | None = None) -> str:
    """Canonical JSON text of a record (keys in the order written, no NaN)."""
    _check_finite(record, "")
    return json.dumps(record, indent=indent, allow_nan=False, ensure_ascii=False)


def dump(record: dict[str, JSON], fp: IO[str], *, indent: int | None = None) -> None:
    fp.write(dumps(record, indent=indent))
    fp.write("\n")


def _check_finite(value: JSON, where: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where or 'record'}: {value} cannot be written as JSON")
    if isinstance(value, dict):
        for key, item in value.items():
            _check_finite(item, f"{where}.{key}" if where else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_finite(item, f"{where}[{i}]")
