"""A first lesson for any game, made from what the game already has.

A game with a tutorial folder teaches with its own steps
(:mod:`.tutorial`); every other game gets this lesson, which needs no
content written for it: the sections of its rules text
(:mod:`cardtable.core.rulebook`), then a guided game in which every answer
cites a rule. A refused move cites the rule the engine's refusal names; a
hint names the legal moves and, for the moves the game knows that are not
legal now, the rules that refuse them (the engine's judgement of its whole
action space, :func:`cardtable.core.engine.explain`), so the hint says
*why* the choice is what it is, from the rules themselves.

Everything here is read from one seat's state through the engine's own
answers; the faces (the terminal's ``cardtable learn``) word it.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.bots import level_for
from cardtable.core.engine import explain
from cardtable.core.game import Move, State
from cardtable.core.manifest import GameManifest
from cardtable.core.rulebook import UnknownRuleError, rulebook

__all__ = ["Limit", "Section", "limits", "opponent_level", "rule_sections", "rule_text"]

#: The level the guided game's opponents play, when the game has it.
GUIDE_LEVEL = "easy"


@dataclass(frozen=True, slots=True)
class Section:
    """One numbered section of a game's rules text."""

    number: str  # "FS-2"
    title: str  # its heading without the hashes: "FS-2 The deal"
    text: str  # the whole section, heading included


@dataclass(frozen=True, slots=True)
class Limit:
    """The moves one rule refuses now, with the engine's words for the first of them."""

    rule: str | None
    reason: str
    moves: tuple[Move, ...]


def rule_sections(game_manifest: GameManifest) -> tuple[Section, ...]:
    """The sections of the game's rules text in order; none for a game without one."""
    if not game_manifest.has("rules"):
        return ()
    book = rulebook(game_manifest)
    return tuple(
        Section(number, text.splitlines()[0].removeprefix("## ").strip(), text)
        for number, text in book.parts.items()
        if "." not in number
    )


def rule_text(game_manifest: GameManifest, rule: str | None) -> str | None:
    """The words of ``rule`` in the game's rules text, or ``None`` where the
    game has no rules text or the text no such number (a refusal may cite a
    rule a plugin never wrote down)."""
    if rule is None or not game_manifest.has("rules"):
        return None
    try:
        return rulebook(game_manifest).rule(rule)
    except UnknownRuleError:
        return None


def limits(state: State, seat: int) -> tuple[Limit, ...]:
    """Why the game's other moves are not legal for ``seat`` now: one
    :class:`Limit` per rule that refuses some, the rule refusing fewest first
    (the nearest to a legal move, such as a held card that does not follow)."""
    by_rule: dict[str | None, list[Move]] = {}
    reasons: dict[str | None, str] = {}
    for judged in explain(state, seat):
        if judged.legal:
            continue
        by_rule.setdefault(judged.rule, []).append(judged.move)
        reasons.setdefault(judged.rule, judged.reason or "")
    found = [Limit(rule, reasons[rule], tuple(moves)) for rule, moves in by_rule.items()]
    return tuple(sorted(found, key=lambda limit: len(limit.moves)))


def opponent_level(game_name: str) -> str:
    """The bot the guided game seats against the learner: the ``easy`` level
    where the game has it (rules of thumb, or a short search), else ``random``,
    which plays every game."""
    return GUIDE_LEVEL if level_for(GUIDE_LEVEL, game_name) is not None else "random"
