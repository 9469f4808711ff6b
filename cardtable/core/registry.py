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

A broken plugin (its module does not import, its entry point names something
other than a :class:`~cardtable.core.manifest.GameManifest`, its manifest is
refused, its name is taken) breaks no other game: it is left out of
:func:`manifests`, listed by :func:`broken_plugins` with the reason, and
reported once per process as one warning line naming the distribution, the
entry point and the error (logger ``cardtable.core.registry``; with no
logging set up, Python prints it on stderr). That is once per command: the
worker processes a command starts (the arena's, the server's bots) were told
by it, through :data:`TOLD_ENV`, and stay quiet. Naming a left-out game
(:class:`UnknownGameError`) says that it was left out, and why.

>>> "marshmallow-test" in game_names()
True
>>> manifest("myrummy-111").default_players
3
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from cardtable.core.errors import CardtableError
from cardtable.core.game import Game
from cardtable.core.manifest import GameManifest, ManifestError, resolve

ENTRY_POINT_GROUP = "cardtable.games"
_BUILTIN_PACKAGE = "cardtable.games"

__all__ = [
    "ENTRY_POINT_GROUP",
    "TOLD_ENV",
    "BrokenPlugin",
    "ManifestError",
    "UnknownGameError",
    "broken_plugins",
    "game_class",
    "game_names",
    "load",
    "manifest",
    "manifests",
    "refresh",
]

log = logging.getLogger(__name__)


class UnknownGameError(CardtableError):
    def __init__(self, name: object) -> None:
        self.name = name
        known = f"known games: {', '.join(game_names())}"
        # A plugin's entry point is usually named after its game: say why it is missing.
        why = next((p for p in broken_plugins() if p.entry_point.split(" = ")[0] == name), None)
        super().__init__(f"unknown game {name!r}; {known}" if why is None else f"{why}; {known}")


@dataclass(frozen=True)
class BrokenPlugin:
    """A ``cardtable.games`` entry point that gave no usable game, and why."""

    distribution: str  # "name version" of the package that declares it
    entry_point: str  # as its entry_points.txt writes it: "name = module:attr"
    reason: str

    def __str__(self) -> str:
        return f"game plugin {self.entry_point!r} of {self.distribution} is left out: {self.reason}"


_reported: set[BrokenPlugin] = set()  # warned about in this process (refresh rescans)

#: Set to the id of a process that warned about the broken plugins, so that
#: the worker processes it starts (which inherit it) do not warn again.
TOLD_ENV = "CARDTABLE_BROKEN_PLUGINS_TOLD"


def _told_by_parent() -> bool:
    """Whether this is a worker process whose parent already warned."""
    parent = multiprocessing.parent_process()
    return parent is not None and os.environ.get(TOLD_ENV) == str(parent.pid)


@dataclass(frozen=True)
class _Found:
    games: Mapping[str, GameManifest]
    broken: tuple[BrokenPlugin, ...]


@cache
def _scan() -> _Found:
    games: dict[str, GameManifest] = {}
    package = import_module(_BUILTIN_PACKAGE)
    # A built-in game that fails is cardtable's own bug: it raises, in every test.
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.ispkg:
            module = import_module(f"{_BUILTIN_PACKAGE}.{info.name}.manifest")
            games[_checked(games, module.MANIFEST)] = module.MANIFEST
    broken: list[BrokenPlugin] = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            loaded = point.load()
            games[_checked(games, loaded)] = loaded
        except Exception as exc:  # a broken plugin must not break the other games
            broken.append(_broken(point, exc))
    if broken and _told_by_parent():
        _reported.update(broken)
    for plugin in broken:
        if plugin not in _reported:
            _reported.add(plugin)
            log.warning("cardtable: %s", plugin)
    if broken:
        os.environ[TOLD_ENV] = str(os.getpid())  # for the workers this process starts
    return _Found(games, tuple(broken))


def _checked(found: Mapping[str, GameManifest], loaded: Any) -> str:
    """The name ``loaded`` registers, once it is known to be a new game's manifest."""
    if not isinstance(loaded, GameManifest):
        named = getattr(loaded, "__name__", None)  # a class or a module: say which
        what = type(loaded).__name__ + (f" {named}" if isinstance(named, str) else "")
        raise TypeError(f"expected a GameManifest, got {what}")
    if loaded.name in found:
        raise ValueError(f"a game named {loaded.name!r} is already registered")
    return loaded.name


def _broken(point: EntryPoint, exc: Exception) -> BrokenPlugin:
    dist = getattr(point, "dist", None)  # None for an entry point made by hand
    where = "unknown distribution"
    if dist is not None:
        where = f"{dist.metadata['Name']} {dist.version}"
    reason = " ".join(f"{type(exc).__name__}: {exc}".split())  # one line, whatever it says
    return BrokenPlugin(where, f"{point.name} = {point.value}", reason)


def manifests() -> Mapping[str, GameManifest]:
    """Every known game's manifest by name: built-in games first, then plugins
    (those that loaded: see :func:`broken_plugins`)."""
    return _scan().games


def broken_plugins() -> tuple[BrokenPlugin, ...]:
    """The plugins left out of :func:`manifests`, with their reasons."""
    return _scan().broken


def refresh() -> None:
    """Forget what was found, so the next call looks again (after installing a plugin)."""
    _scan.cache_clear()


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
