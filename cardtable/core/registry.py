"""Game names -> game classes, so that ``cardtable.load("myrummy-111")`` and
records' ``"game"`` field find the same code."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from cardtable.core.errors import CardtableError
from cardtable.core.game import Game

# Imported lazily: loading one game should not import the other.
_GAMES: dict[str, str] = {
    "marshmallow-test": "cardtable.games.marshmallow_test:MarshmallowTest",
    "myrummy-111": "cardtable.games.myrummy_111:MyRummy111",
}

GAME_NAMES: tuple[str, ...] = tuple(_GAMES)


class UnknownGameError(CardtableError):
    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(f"unknown game {name!r}; known games: {', '.join(GAME_NAMES)}")


def game_class(name: str) -> Callable[..., Game]:
    try:
        target = _GAMES[name]
    except (KeyError, TypeError):
        raise UnknownGameError(name) from None
    module_name, class_name = target.split(":")
    cls: Callable[..., Game] = getattr(import_module(module_name), class_name)
    return cls


def load(name: str, **options: Any) -> Game:
    """The game ``name`` with ``options`` by their spec names (MT-10, MR-9).

    Bad options raise :class:`~cardtable.core.errors.OptionError`, a
    ``ValueError`` that names the option.
    """
    return game_class(name)(**options)
