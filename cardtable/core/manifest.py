"""What a game says about itself: one :class:`GameManifest` per game package.

The generic layers (terminal, bots, arena, adapters, server, analysis) know no
game by name; they read manifests from the registry. Every part beyond the
rules is named by a lazy ``"module:attr"`` string, so a manifest loads nothing
optional (numpy, rich, pyspiel…) until a caller asks for that part with
:func:`resolve`. A game that lacks a part leaves it ``None`` and the caller
says so in words (:class:`MissingPartError`), never with a ``KeyError``.

>>> m = GameManifest(name="nim", title="Nim", game="collections:OrderedDict",
...                  players=(2,), default_players=2)
>>> m.has("terminal_ui"), resolve(m.game).__name__
(False, 'OrderedDict')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from cardtable.core.errors import CardtableError

__all__ = [
    "BotEntry",
    "GameManifest",
    "MissingPartError",
    "OptionHelp",
    "resolve",
]


@dataclass(frozen=True)
class BotEntry:
    """One bot a game offers, by its ladder name.

    ``target`` is ``"module:Class"``, a :class:`~cardtable.bots.base.BotFactory`.
    ``extra`` names the ``python3 -m pip install -e ".[extra]"`` the bot needs (``None``: none).
    ``search`` marks the bot that the levels ``medium`` and ``hard`` seat.
    ``strength`` and ``time_per_move`` are the measured figures shown by
    ``cardtable bots`` (from ``docs/strength.md``).
    """

    target: str
    summary: str
    strength: str = ""
    time_per_move: str = ""
    extra: str | None = None
    search: bool = False
    deprecated_alias_of: str | None = None


@dataclass(frozen=True)
class OptionHelp:
    """One rules option (MT-10, MR-9…) as the command line and lobby explain it.

    ``from_file`` (``"module:attr"``, a callable ``(path) -> value`` raising
    ``OptionError``) makes
    the option settable from a file: ``--<option> FILE`` on the command line.
    """

    name: str
    help: str
    from_file: str | None = None


@dataclass(frozen=True)
class GameManifest:
    """Everything the generic layers may know about one game.

    ``game`` is ``"module:Class"``: ``Class(**options)`` is the
    :class:`~cardtable.core.game.Game`. The optional parts, each ``None`` when
    the game does not offer it:

    - ``terminal_ui``: ``"module:Class"``, a ``cardtable.cli.play.UIFactory``;
    - ``determinize``: ``"module:func"``, ``func(game, view, rng) -> State``
      sampling the cards the view's seat cannot see, consistently with it;
    - ``observation_encoder``: ``"module:Class"``, ``Class(game)`` an
      ``cardtable.adapters.observations.Encoder``;
    - ``openspiel``: ``"module:attr"``, the game's OpenSpiel layout;
    - ``evaluator``: ``"module:func"``, ``func(game)`` a
      ``cardtable.analysis.evaluator.Evaluator`` (a faster playout policy
      for game analysis; without one, analysis plays the heuristic bot);
    - ``rules``: a file inside the game package (the rules in words);
    - ``web_client``: a file inside the game package (the browser drawing);
    - ``tutorial``: a folder inside the game package: the guided first game's
      ``steps.json`` and its words per language (``en.json``…), and the
      shipped ``puzzles.json`` (``cardtable.learn``);
    - ``puzzle_theme``: ``"module:func"``, ``func(view, move) -> (theme, rule)``,
      a puzzle solution's idea in the game's own words.
    """

    name: str
    title: str
    game: str
    players: tuple[int, ...]
    default_players: int
    summary: str = ""
    options: tuple[OptionHelp, ...] = ()
    bots: Mapping[str, BotEntry] = field(default_factory=dict)
    terminal_ui: str | None = None
    determinize: str | None = None
    observation_encoder: str | None = None
    openspiel: str | None = None
    evaluator: str | None = None
    rules: str | None = None
    web_client: str | None = None
    tutorial: str | None = None
    puzzle_theme: str | None = None
    package: str | None = None  # where ``rules``, ``web_client`` and ``tutorial`` live

    def has(self, part: str) -> bool:
        """Whether the game offers ``part`` (a field name above)."""
        return getattr(self, part, None) is not None

    def part(self, part: str) -> Any:
        """The loaded ``part``; :class:`MissingPartError` if the game lacks it."""
        target = getattr(self, part, None)
        if target is None:
            raise MissingPartError(self.name, part)
        return resolve(target)

    @property
    def search_bot(self) -> str | None:
        """The bot the levels ``medium`` and ``hard`` seat, if the game has one."""
        return next((name for name, bot in self.bots.items() if bot.search), None)

    def option(self, name: str) -> OptionHelp | None:
        return next((o for o in self.options if o.name == name), None)


_PART_WORDS = {
    "terminal_ui": "a terminal interface",
    "determinize": "resampling of hidden cards (no search bot or analysis)",
    "observation_encoder": "an observation encoder (no PettingZoo/Gymnasium adapter)",
    "openspiel": "an OpenSpiel layout",
    "evaluator": "an analysis evaluator",
    "rules": "a rules text",
    "web_client": "a browser drawing",
    "tutorial": "a tutorial or puzzles",
    "puzzle_theme": "puzzle themes",
}


class MissingPartError(CardtableError):
    """A game was asked for a part its manifest does not offer."""

    def __init__(self, game: str, part: str) -> None:
        self.game = game
        self.part = part
        super().__init__(f"{game} does not offer {_PART_WORDS.get(part, part)}")


def resolve(target: str) -> Any:
    """Import ``"module:attr"`` (``attr`` may be dotted) and return the attribute."""
    module_name, _, attr = target.partition(":")
    obj: Any = import_module(module_name)
    for name in attr.split(".") if attr else ():
        obj = getattr(obj, name)
    return obj
