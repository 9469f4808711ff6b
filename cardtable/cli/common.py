"""What every ``cardtable`` command shares: error lines and ``-o`` options."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from cardtable.core.numbers import NumberTooLongError, loads_json


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one ``error:`` line on stderr and return the exit for the caller
    to raise. The message is escaped (``cardtable[ray]`` is not markup) and
    never wrapped, so scripts can read it."""
    console = Console(stderr=True, highlight=False, soft_wrap=True)
    console.print(f"[bold red]error:[/bold red] {escape(message)}")
    return typer.Exit(code)


def game_option_flag(help: str = "a game option, repeatable (`cardtable games` lists them)") -> Any:
    """The ``--option/-o KEY=VALUE`` declaration, for ``Annotated[list[str] | None, …]``;
    one place, so that every command spells the flag alike (``help`` says what it is for
    in that command). The values are read by :func:`parse_options`."""
    return typer.Option("--option", "-o", metavar="KEY=VALUE", help=help)


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``-o key=value`` pairs; values are JSON where they parse as JSON (``[12,13]``).

    >>> parse_options(["target=10", "hand_sizes=[12, 14]", "trump_after_ruff=must"])
    {'target': 10, 'hand_sizes': [12, 14], 'trump_after_ruff': 'must'}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise fail(f"--option {pair!r}: write it as KEY=VALUE, e.g. -o target=10")
        try:
            options[key] = loads_json(raw)
        except NumberTooLongError as exc:
            inside = f" ({exc.where})" if exc.where else ""
            raise fail(f"--option {key}{inside}: {exc.reason}") from None
        except json.JSONDecodeError:
            options[key] = raw
    return options
