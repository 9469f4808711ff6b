"""The registry: the one live source of game names and their manifests.

Games are found in two places, read when first asked and again after
:func:`refresh`:

- every sub-package of :mod:`cardtable.games` with a ``manifest`` module that
  defines ``MANIFEST`` (the built-in games);
- every entry point in the group ``cardtable.games`` (a game published as its
  own package: ``[project.entry-points."cardtable.games"] mygame =
  "mygame.manifest:MANIFEST"``).

Nothing copies the list of names at import time, so a plugin installed (or
put on ``sys.path``) later is found after :func:`refresh`, and processes
started with ``spawn`` find the same games as their parent.

>>> "marshmallow-test" in game_names()
True
>>> manifest("myrummy-111").default_players
3
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Mapping
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from cardtable.core.errors import CardtableError
from cardtable.core.game import Game
from cardtable.core.manifest import GameManifest, resolve

ENTRY_POINT_GROUP = "cardtable.games"
_BUILTIN_PACKAGE = "cardtable.games"

__all__ = [
    "ENTRY_POINT_GROUP",
    "UnknownGameError",
    "game_class",
    "game_names",
    "load",
    "manifest",
    "manifests",
    "refresh",
]


class UnknownGameError(CardtableError):
    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(f"unknown game {name!r}; known games: {', '.join(game_names())}")


class ManifestError(CardtableError):
    """A plugin's entry point does not lead to a usable manifest."""


@cache
def manifests() -> Mapping[str, GameManifest]:
    """Every known game's manifest by name: built-in games first, then plugins."""
    found: dict[str, GameManifest] = {}
    package = import_module(_BUILTIN_PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.ispkg:
            module = import_module(f"{_BUILTIN_PACKAGE}.{info.name}.manifest")
            _add(found, module.MANIFEST, f"{_BUILTIN_PACKAGE}.{info.name}")
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            loaded = point.load()
        except Exception as exc:  # a broken plugin must not break the built-in games
            raise ManifestError(f"game plugin {point.name!r} ({point.value}): {exc}") from exc
        _add(found, loaded, point.value)
    return found


def _add(found: dict[str, GameManifest], loaded: Any, source: str) -> None:
    if not isinstance(loaded, GameManifest):
        raise ManifestError(f"{source}: expected a GameManifest, got {type(loaded).__name__}")
    if loaded.name in found:
        raise ManifestError(f"{source}: a game named {loaded.name!r} is already registered")
    found[loaded.name] = loaded


def refresh() -> None:
    """Forget what was found, so the next call looks again (after installing a plugin)."""
    manifests.cache_clear()


def game_names() -> tuple[str, ...]:
    """The names of every known game, built-in first."""
    return tuple(manifests())


def manifest(name: object) -> GameManifest:
    """The manifest of game ``name``; :class:`UnknownGameError` if there is none."""
    if not isinstance(name, str) or name not in manifests():
        raise UnknownGameError(name)
    return manifests()[name]


def game_class(name: str) -> Callable[..., Game]:
    cls: Callable[..., Game] = resolve(manifest(name).game)
    return cls


def load(name: str, **options: Any) -> Game:
    """The game ``name`` with ``options`` by their spec names (MT-10, MR-9).

    Bad options raise :class:`~cardtable.core.errors.OptionError`, a
    ``ValueError`` that names the option.
    """
    return game_class(name)(**options)
