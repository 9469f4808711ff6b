"""What a game says about itself: one :class:`GameManifest` per game package.

The generic layers (terminal, bots, arena, adapters, server, analysis) know no
game by name; they read manifests from the registry. Every part beyond the
rules is named by a lazy ``"module:attr"`` string, so a manifest loads nothing
optional (numpy, rich, pyspiel…) until a caller asks for that part with
:func:`resolve`. A game that lacks a part leaves it ``None`` and the caller
says so in words (:class:`MissingPartError`), never with a ``KeyError``.

A manifest checks its own fields when it is made (:class:`ManifestError`
names the field), so a plugin with a bad manifest is refused where it is
written, and the registry can set it aside without breaking the other games.

>>> m = GameManifest(name="nim", title="Nim", game="collections:OrderedDict",
...                  players=(2,), default_players=2,
...                  options=(OptionHelp("heaps", "how many heaps", default=3),))
>>> m.has("terminal_ui"), resolve(m.game).__name__
(False, 'OrderedDict')
>>> m.option("heaps").to_json()
{'name': 'heaps', 'help': 'how many heaps', 'from_file': False, 'default': 3}
>>> GameManifest(name="nim", title="Nim", game="nim:Nim", players=(2,), default_players=3)
Traceback (most recent call last):
...
cardtable.core.manifest.ManifestError: manifest 'nim': default_players: 3 is not one of players (2,)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Final, NoReturn

from cardtable.core.errors import CardtableError
from cardtable.core.game import JSON

__all__ = [
    "LEVEL_NAMES",
    "UNSTATED",
    "BotEntry",
    "Derived",
    "GameManifest",
    "ManifestError",
    "MissingPartError",
    "OptionHelp",
    "resolve",
]

# The levels people choose from, weakest first (``cardtable.bots.LEVELS`` says
# what each one seats); named here so that a manifest's ``BotEntry.levels`` is
# checked where it is made.
LEVEL_NAMES: Final = ("easy", "medium", "hard", "expert")
# ``"module:attr"``: a dotted module, a colon, a dotted attribute.
_TARGET = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
# A game's name is a command-line word and a URL segment: no spaces, no
# slash, and no leading dash (it would read as a flag).
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class ManifestError(CardtableError):
    """A manifest (or one of its entries) with a field that cannot work.

    ``where`` is the field (``options[1].default``, ``bots['fast'].target``).
    """

    def __init__(self, game: str, where: str, reason: str) -> None:
        self.game = game
        self.where = where
        self.reason = reason
        super().__init__(f"manifest {game!r}: {where}: {reason}")


def _check_target(value: object, game: str, where: str) -> None:
    if not isinstance(value, str) or not _TARGET.fullmatch(value):
        raise ManifestError(game, where, f'expected "module:attr", got {value!r}')


@dataclass(frozen=True)
class BotEntry:
    """One bot a game offers, by its ladder name.

    ``target`` is ``"module:Class"``, a :class:`~cardtable.bots.base.BotFactory`.
    ``extra`` names the ``python3 -m pip install -e ".[extra]"`` the bot needs (``None``: none).
    ``search`` marks the bot that the searching levels (``medium``, ``hard``,
    ``expert``) seat; it thinks for the budget it is given. ``thinks`` marks
    any other bot that searches for its budget (a research search), so that a
    server runs it in its worker pool, never on its event loop. ``levels`` names
    the levels that seat this bot instead (a game's stronger search for the
    top of the ladder), at each level's budget. ``strength`` and
    ``time_per_move`` are the measured figures shown by ``cardtable bots``
    (from ``docs/strength.md``); a search bot without ``time_per_move`` is
    shown with the levels' budgets.
    """

    target: str
    summary: str
    strength: str = ""
    time_per_move: str = ""
    extra: str | None = None
    search: bool = False
    thinks: bool = False
    levels: tuple[str, ...] = ()

    @property
    def instant(self) -> bool:
        """Whether it answers at once: no search of any kind (``search``,
        ``thinks``, or seated by a level) and no extra to load."""
        return not (self.search or self.thinks or self.levels) and self.extra is None


@dataclass(frozen=True)
class Derived:
    """A default that no single value states: it follows from the other
    options (MyRummy 111's ``hand_sizes`` from ``players``) or from the game's
    own data. ``how`` says it in words, for people."""

    how: str


class _Unstated:
    """The default of an option whose manifest says none (older plugins)."""

    def __repr__(self) -> str:
        return "UNSTATED"


UNSTATED: Final = _Unstated()


@dataclass(frozen=True)
class OptionHelp:
    """One rules option (MT-10, MR-9…) as the command line and lobby explain it.

    ``default`` is the value the game takes when the option is not given, as
    JSON (what ``game.options_json`` holds for it; the conformance suite
    checks that they agree), or a :class:`Derived` where it follows from other
    options. ``from_file`` (``"module:attr"``, a callable ``(path) -> value``
    raising ``OptionError``) makes the option settable from a file:
    ``--<option> FILE`` on the command line. ``choices`` lists every value the
    option takes where they are few (the lobby offers them as a list); empty:
    any value the game accepts. ``maximum`` is the largest value of a numeric
    option, as the game's own option check enforces it (every numeric option
    has one, so a game stays finite; the conformance test checks they agree).
    """

    name: str
    help: str
    default: JSON | Derived | _Unstated = UNSTATED
    from_file: str | None = None
    choices: tuple[JSON, ...] = ()
    maximum: int | None = None

    @property
    def has_default(self) -> bool:
        """Whether ``default`` is a value (not derived, not unstated)."""
        return not isinstance(self.default, Derived | _Unstated)

    def to_json(self) -> dict[str, JSON]:
        """The option for a client (the lobby): ``default`` where it is a
        value, ``default_how`` (words) where it is derived."""
        out: dict[str, JSON] = {
            "name": self.name,
            "help": self.help,
            "from_file": self.from_file is not None,
        }
        if isinstance(self.default, Derived):
            out["default_how"] = self.default.how
        elif self.has_default:
            out["default"] = self.default
        if self.choices:
            out["choices"] = list(self.choices)
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


@dataclass(frozen=True)
class GameManifest:
    """Everything the generic layers may know about one game.

    ``game`` is ``"module:Class"``: ``Class(**options)`` is the
    :class:`~cardtable.core.game.Game`. The optional parts, each ``None`` when
    the game does not offer it:

    - ``terminal_ui``: ``"module:Class"``, a ``cardtable.cli.ui.UIFactory``;
    - ``determinize``: ``"module:func"``, ``func(game, view, rng) -> State``
      sampling the cards the view's seat cannot see, uniformly over the deals
      consistent with it; the state it returns has ``detach_rng()``;
    - ``observation_encoder``: ``"module:Class"``, ``Class(game)`` an
      ``cardtable.adapters.observations.Encoder``;
    - ``openspiel``: ``"module:attr"``, the game's OpenSpiel layout;
    - ``evaluator``: ``"module:func"``, ``func(game)`` a
      ``cardtable.analysis.evaluator.Evaluator`` (a faster playout policy
      for game analysis; without one, analysis plays the heuristic bot);
    - ``rules``: a file inside ``package`` (the rules in words), package data;
    - ``web_client``: a file inside ``package`` (the browser drawing);
    - ``tutorial``: a folder inside ``package``: the guided first game's
      ``steps.json`` and its words per language (``en.json``…), and the
      shipped ``puzzles.json`` (``cardtable.learn``);
    - ``puzzle_theme``: ``"module:func"``, ``func(view, move) -> (theme, rule)``,
      a puzzle solution's idea in the game's own words;
    - ``playout_policy``: files inside ``package``, ``{players}`` in the name
      standing for the player count: a learned policy per player count
      (``cardtable.bots.learned``), which the generic search's playouts
      follow and the bot ``learned`` plays; it needs ``observation_encoder``.

    ``package`` is where ``rules``, ``web_client`` and ``playout_policy``
    are read from: a manifest that names any of them without it is refused.

    ``lowest_wins``: the game's totals are penalty points, so the lowest total
    wins (a shedding game's cards left). The generic layers that rank seats
    by their totals (the search bots' playouts, finishing ranks and ratings,
    the adapters' rewards, the browser's standings) read them the other way
    round.
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
    playout_policy: str | None = None
    package: str | None = None  # where ``rules``, ``web_client``, ``tutorial`` and policies live
    lowest_wins: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise ManifestError(
                str(self.name), "name", "letters, digits, '.', '_' or '-', not starting with '-'"
            )
        if not isinstance(self.title, str) or not self.title.strip():
            self._fail("title", f"expected a non-empty string, got {self.title!r}")
        if not isinstance(self.summary, str):
            self._fail("summary", f"expected a string, got {self.summary!r}")
        _check_target(self.game, self.name, "game")
        self._check_players()
        self._check_options()
        self._check_bots()
        for part in _CODE_PARTS:
            if getattr(self, part) is not None:
                _check_target(getattr(self, part), self.name, part)
        if self.package is not None and (
            not isinstance(self.package, str) or not _MODULE.fullmatch(self.package)
        ):
            self._fail("package", f"expected a dotted package name, got {self.package!r}")
        for part in _FILE_PARTS:
            value = getattr(self, part)
            if value is None:
                continue
            if not isinstance(value, str) or not value or value.startswith("/"):
                self._fail(part, f"expected a path inside the package, got {value!r}")
            if self.package is None:
                self._fail(part, "names a file but package= is not set, so it cannot be found")
        if self.playout_policy is not None:
            if self.observation_encoder is None:
                self._fail("playout_policy", "a policy reads views through observation_encoder=")
            try:
                self.playout_policy.format(players=self.default_players)
            except (KeyError, IndexError, ValueError):
                self._fail("playout_policy", "only {players} may stand in braces in its name")

    def _fail(self, where: str, reason: str) -> NoReturn:
        raise ManifestError(self.name, where, reason)

    def _check_players(self) -> None:
        counts = self.players
        if (
            not isinstance(counts, tuple)
            or not counts
            or any(type(n) is not int or n < 1 for n in counts)
            or len(set(counts)) != len(counts)
        ):
            self._fail("players", f"expected a tuple of distinct player counts, got {counts!r}")
        if self.default_players not in counts:
            self._fail(
                "default_players", f"{self.default_players!r} is not one of players {counts!r}"
            )

    def _check_options(self) -> None:
        if not isinstance(self.options, tuple):
            self._fail("options", f"expected a tuple of OptionHelp, got {self.options!r}")
        seen: set[str] = set()
        for i, option in enumerate(self.options):
            where = f"options[{i}]"
            if not isinstance(option, OptionHelp):
                self._fail(where, f"expected an OptionHelp, got {type(option).__name__}")
            if not isinstance(option.name, str) or not option.name or option.name in seen:
                self._fail(f"{where}.name", f"expected a new option name, got {option.name!r}")
            seen.add(option.name)
            if not isinstance(option.help, str):
                self._fail(f"{where}.help", f"expected a string, got {option.help!r}")
            if option.has_default:
                try:
                    json.dumps(option.default, allow_nan=False)
                except (TypeError, ValueError):
                    self._fail(f"{where}.default", f"not a JSON value: {option.default!r}")
            if (
                option.name == "players"
                and option.has_default
                and option.default != self.default_players
            ):
                self._fail(
                    f"{where}.default",
                    f"{option.default!r} differs from default_players {self.default_players}",
                )
            if option.choices and option.has_default and option.default not in option.choices:
                self._fail(f"{where}.default", f"{option.default!r} is not one of its choices")
            if option.from_file is not None:
                _check_target(option.from_file, self.name, f"{where}.from_file")

    def _check_bots(self) -> None:
        if not isinstance(self.bots, Mapping):
            self._fail("bots", f"expected a mapping of names to BotEntry, got {self.bots!r}")
        for name, bot in self.bots.items():
            where = f"bots[{name!r}]"
            if not isinstance(name, str) or not name:
                self._fail("bots", f"expected bot names, got {name!r}")
            if not isinstance(bot, BotEntry):
                self._fail(where, f"expected a BotEntry, got {type(bot).__name__}")
            _check_target(bot.target, self.name, f"{where}.target")
            self._check_levels(where, bot.levels)
        claimed = [level for bot in self.bots.values() for level in bot.levels]
        twice = sorted({level for level in claimed if claimed.count(level) > 1})
        if twice:
            self._fail(
                "bots", f"a level is seated by one bot at most, got {', '.join(twice)} twice"
            )
        searching = [name for name, bot in self.bots.items() if bot.search]
        if len(searching) > 1:
            self._fail("bots", f"one search bot at most, got {', '.join(searching)}")

    def _check_levels(self, where: str, levels: object) -> None:
        if not isinstance(levels, tuple) or not all(isinstance(x, str) for x in levels):
            self._fail(f"{where}.levels", f"expected a tuple of level names, got {levels!r}")
        unknown = [level for level in levels if level not in LEVEL_NAMES]
        if unknown:
            self._fail(
                f"{where}.levels",
                f"unknown level {unknown[0]!r}; the levels are {', '.join(LEVEL_NAMES)}",
            )

    def has(self, part: str) -> bool:
        """Whether the game offers ``part`` (a field name above)."""
        return getattr(self, part, None) is not None

    def part(self, part: str) -> Any:
        """The loaded ``part``; :class:`MissingPartError` if the game lacks it."""
        target = getattr(self, part, None)
        if target is None:
            raise MissingPartError(self.name, part, self.title)
        return resolve(target)

    @property
    def search_bot(self) -> str | None:
        """The bot the searching levels seat, if the game has one."""
        return next((name for name, bot in self.bots.items() if bot.search), None)

    def level_bot(self, level: str) -> str | None:
        """The game's own bot that ``level`` seats (``BotEntry.levels``), if any."""
        return next((name for name, bot in self.bots.items() if level in bot.levels), None)

    def option(self, name: str) -> OptionHelp | None:
        return next((o for o in self.options if o.name == name), None)


_CODE_PARTS = ("terminal_ui", "determinize", "observation_encoder", "openspiel", "evaluator")
_FILE_PARTS = ("rules", "web_client", "playout_policy")

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
    "playout_policy": "a learned policy",
}


class MissingPartError(CardtableError):
    """A game was asked for a part its manifest does not offer.

    ``game`` is the game's name; the message uses its ``title`` (for people).
    """

    def __init__(self, game: str, part: str, title: str | None = None) -> None:
        self.game = game
        self.part = part
        super().__init__(f"{title or game} does not offer {_PART_WORDS.get(part, part)}")


def resolve(target: str) -> Any:
    """Import ``"module:attr"`` (``attr`` may be dotted) and return the attribute."""
    module_name, _, attr = target.partition(":")
    obj: Any = import_module(module_name)
    for name in attr.split(".") if attr else ():
        obj = getattr(obj, name)
    return obj
