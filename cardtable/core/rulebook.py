"""A game's rules in words, looked up by rule number.

Each game package may ship its rules as Markdown (named by its manifest's
``rules`` field), numbered as the spec numbers them: a section is a heading
``## MT-5 Tricks``; a rule is a paragraph that starts with its number in bold,
``**MT-5.4** …``, and runs to the next rule or section. Error messages, code
and tests cite those numbers, and ``cardtable rules GAME RULE`` prints one.

>>> from cardtable.core.registry import manifest
>>> book = rulebook(manifest("marshmallow-test"))
>>> book.rule("mt-6.1").startswith("**MT-6.1** How many tricks")
True
>>> book.normalize("5.4")
'MT-5.4'
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from importlib import resources

from cardtable.core.errors import CardtableError
from cardtable.core.manifest import GameManifest, MissingPartError

#: A rule number as cited anywhere: ``MT-5``, ``MR-4.4``.
RULE_NUMBER = re.compile(r"\b([A-Z]{2})-(\d+)(?:\.(\d+))?\b")
_SECTION = re.compile(r"^## ([A-Z]{2}-\d+)\b")
_RULE = re.compile(r"^\*\*([A-Z]{2}-\d+\.\d+)\*\*")
_QUERY = re.compile(r"(?:([A-Za-z]{2})-?)?(\d+(?:\.\d+)?)")

__all__ = ["RULE_NUMBER", "Rulebook", "UnknownRuleError", "parse_rules", "rulebook"]


class UnknownRuleError(CardtableError):
    """A rule number that a game's rules do not have."""

    def __init__(self, game: str, number: str, close: tuple[str, ...]) -> None:
        self.game = game
        self.number = number
        self.close = close
        hint = f"; close ones: {', '.join(close)}" if close else ""
        super().__init__(f"{game} has no rule {number!r}{hint}")


@dataclass(frozen=True)
class Rulebook:
    """One game's rules: the whole text and each numbered part of it."""

    game: str
    text: str
    parts: dict[str, str]  # "MT-5" (a whole section) and "MT-5.4" (one rule), in order

    @property
    def prefix(self) -> str:
        """The letters every number of this game starts with (``MT``)."""
        return next(iter(self.parts)).partition("-")[0]

    def normalize(self, query: str) -> str:
        """``mt-5.4``, ``MT5.4`` and ``5.4`` all mean ``MT-5.4``."""
        match = _QUERY.fullmatch(query.strip())
        if match is None:
            return query.strip()
        return f"{(match[1] or self.prefix).upper()}-{match[2]}"

    def rule(self, query: str) -> str:
        """The text of one rule or section; :class:`UnknownRuleError` lists close numbers."""
        number = self.normalize(query)
        if number in self.parts:
            return self.parts[number]
        raise UnknownRuleError(self.game, number, self.close_to(number))

    def close_to(self, number: str) -> tuple[str, ...]:
        section = number.partition(".")[0]
        siblings = [n for n in self.parts if n.partition(".")[0] == section]
        if siblings:
            return tuple(siblings)
        return tuple(difflib.get_close_matches(number, list(self.parts), n=5, cutoff=0.5))


def parse_rules(text: str) -> dict[str, str]:
    """Each section and rule of a rules text by number (see the module's docstring)."""
    parts: dict[str, list[str]] = {}
    section: str | None = None
    rule: str | None = None
    for line in text.splitlines():
        heading = _SECTION.match(line)
        if heading:
            section, rule = heading[1], None
            parts[section] = [line]
            continue
        if line.startswith("#"):
            section = rule = None  # a heading without a number ends the last section
            continue
        start = _RULE.match(line)
        if start and section is not None:
            rule = start[1]
            parts[rule] = []
        if section is not None:
            parts[section].append(line)
        if rule is not None:
            parts[rule].append(line)
    return {number: "\n".join(lines).strip() for number, lines in parts.items()}


def rulebook(game: GameManifest) -> Rulebook:
    """The rules shipped with ``game``; :class:`MissingPartError` if it has none."""
    if game.rules is None or game.package is None:
        raise MissingPartError(game.name, "rules")
    text = resources.files(game.package).joinpath(game.rules).read_text(encoding="utf-8")
    return Rulebook(game.name, text, parse_rules(text))
