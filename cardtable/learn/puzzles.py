"""A puzzle: one decision whose best move clearly beats every other, as the seat saw it.

A decision becomes a puzzle when, in the analysis's own terms
(:mod:`cardtable.analysis.estimate`), the loss of *every* other alternative
minus two standard errors is at least :data:`MARGIN` percentage points of
win chance (the analysis's ``inaccuracy`` threshold): a solver who plays
anything else gives away that much, and the numbers say so with about 97.5%
confidence. The evaluation is the fair one, from the seat's view alone, so
the puzzle is fair: the solver sees exactly what that seat saw.

A puzzle is made from a view, the legal moves and their evaluation, never
from a state: no hidden card can reach it. Its file is JSON
(``cardtable-puzzles/1``): the game's options once, then per puzzle the
seat's view, the legal moves, the solution (indices into the legal moves;
equivalent moves count alike), every alternative's value, a one-line theme
and the rule it hinges on, and a rating.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cardtable.analysis.classify import THRESHOLDS
from cardtable.analysis.estimate import Evaluation
from cardtable.core.errors import CardtableError, RecordError
from cardtable.core.game import JSON, Game, Move, View
from cardtable.core.manifest import GameManifest
from cardtable.core.phrase import Phrase
from cardtable.core.registry import load, manifest

__all__ = [
    "FORMAT",
    "MARGIN",
    "Alternative",
    "NoPuzzlesError",
    "Puzzle",
    "PuzzleSet",
    "Theme",
    "legal_of",
    "load_puzzles",
    "make_puzzle",
    "margin_of",
    "parse_puzzles",
    "puzzles_path",
    "set_file",
    "theme_for",
    "user_puzzles_dir",
]

FORMAT = "cardtable-puzzles/1"
#: Percentage points of win chance every other move must clearly lose.
MARGIN = dict(THRESHOLDS)["inaccuracy"]
#: Where a puzzle's rating starts before anyone has tried it (Glicko-2's default).
START_RATING = 1500.0
START_DEVIATION = 350.0

#: ``(view, move) -> (theme, rule)``: a game's words for what a solution does,
#: English or a :class:`Phrase` (English with a catalog key, for other languages).
Theme = Callable[[View, Move], tuple[str | Phrase, str | None]]


class NoPuzzlesError(CardtableError):
    """No such puzzle: the game has none (no set shipped or built) or not the one asked for."""

    def __init__(self, game: str, reason: str) -> None:
        self.game = game
        self.reason = reason
        super().__init__(f"{game}: {reason}")


@dataclass(frozen=True, slots=True)
class Alternative:
    """One distinct choice: the legal moves (indices) that make it and its values."""

    moves: tuple[int, ...]
    win: float  # chance to win the game, 0-1
    win_se: float
    points: float  # points this round
    loss: float  # win chance lost against the best, percentage points
    loss_se: float

    def to_json(self) -> dict[str, JSON]:
        return {
            "moves": list(self.moves),
            "win": round(self.win, 4),
            "win_se": round(self.win_se, 4),
            "points": round(self.points, 3),
            "loss": round(self.loss, 2),
            "loss_se": round(self.loss_se, 2),
        }


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: str
    seat: int
    view: dict[str, JSON]  # the seat's view, as ``view.to_json()``
    legal: tuple[dict[str, JSON], ...]  # the legal moves, as ``move.to_json()``
    solution: tuple[int, ...]  # indices into ``legal``
    alternatives: tuple[Alternative, ...]  # best first
    margin: float  # percentage points: the least any other move clearly loses
    theme: str  # English
    rule: str | None
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    # The theme's catalog key and facts, where the game words its themes (a Phrase).
    theme_key: str | None = None
    theme_params: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, JSON]:
        return {
            "id": self.id,
            "seat": self.seat,
            "view": self.view,
            "legal": list(self.legal),
            "solution": list(self.solution),
            "alternatives": [a.to_json() for a in self.alternatives],
            "margin": round(self.margin, 2),
            "theme": self.theme,
            **(
                {}
                if self.theme_key is None
                else {"theme_key": self.theme_key, "theme_params": dict(self.theme_params or {})}
            ),
            "rule": self.rule,
            "rating": round(self.rating, 1),
            "deviation": round(self.deviation, 1),
        }


@dataclass(frozen=True, slots=True)
class PuzzleSet:
    game: str
    options: dict[str, JSON]
    builds: tuple[dict[str, JSON], ...]  # how each batch was made (games, budget, seed, counts)
    puzzles: tuple[Puzzle, ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "builds": list(self.builds),
            "puzzles": [p.to_json() for p in self.puzzles],
        }

    def merged(self, other: PuzzleSet) -> PuzzleSet:
        """This set and ``other``'s puzzles it lacks (same game and options)."""
        if (other.game, other.options) != (self.game, self.options):
            raise NoPuzzlesError(other.game, "cannot merge sets of different games or options")
        known = {p.id for p in self.puzzles}
        extra = tuple(p for p in other.puzzles if p.id not in known)
        return PuzzleSet(self.game, self.options, self.builds + other.builds, self.puzzles + extra)

    def by_id(self, puzzle_id: str) -> Puzzle:
        for puzzle in self.puzzles:
            if puzzle.id == puzzle_id:
                return puzzle
        raise NoPuzzlesError(self.game, f"no puzzle has the id {puzzle_id!r}")


def legal_of(game: Game, puzzle: Puzzle) -> list[Move]:
    """The puzzle's legal moves as the engine's moves."""
    return [game.move_from_json({"seat": puzzle.seat, **m}, "legal")[1] for m in puzzle.legal]


def margin_of(evaluation: Evaluation) -> float:
    """How clearly the best alternative beats every other, in percentage
    points of win chance: the smallest loss minus two standard errors over
    the others (``-inf`` with no other alternative)."""
    return min(
        (
            100 * (g.loss_win.mean - 2 * g.loss_win.se)
            for i, g in enumerate(evaluation.groups)
            if i != evaluation.best
        ),
        default=-math.inf,
    )


def theme_for(game_manifest: GameManifest) -> Theme:
    """The game's own themes, or a plain one naming the move."""
    if game_manifest.has("puzzle_theme"):
        theme: Theme = game_manifest.part("puzzle_theme")
        return theme
    return lambda view, move: (f"find the move: {move}", None)


def make_puzzle(
    view: View, legal: Sequence[Move], seat: int, evaluation: Evaluation, theme: Theme
) -> Puzzle | None:
    """The puzzle this decision makes, or ``None`` when its best move is not
    clearly best (:data:`MARGIN`). Built from the view alone."""
    margin = margin_of(evaluation)
    if margin < MARGIN:
        return None
    order = sorted(
        range(len(evaluation.groups)),
        key=lambda g: (g != evaluation.best, -evaluation.groups[g].win.mean),
    )
    alternatives = tuple(
        Alternative(
            moves=tuple(value.moves),
            win=value.win.mean,
            win_se=value.win.se,
            points=value.points.mean,
            loss=0.0 if g == evaluation.best else 100 * value.loss_win.mean,
            loss_se=0.0 if g == evaluation.best else 100 * value.loss_win.se,
        )
        for g in order
        for value in (evaluation.groups[g],)
    )
    solution = alternatives[0].moves
    words, rule = theme(view, legal[solution[0]])
    phrase = words if isinstance(words, Phrase) else Phrase(words, "", {})
    view_json = view.to_json()
    return Puzzle(
        id=_puzzle_id(view_json, seat),
        seat=seat,
        view=view_json,
        legal=tuple(m.to_json() for m in legal),
        solution=solution,
        alternatives=alternatives,
        margin=margin,
        theme=phrase.text,
        rule=rule,
        theme_key=phrase.key or None,  # a game that words its themes in English only
        theme_params=dict(phrase.params) if phrase.key else None,
    )


def _puzzle_id(view_json: Mapping[str, Any], seat: int) -> str:
    text = json.dumps({"seat": seat, "view": view_json}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def user_puzzles_dir() -> Path:
    """Where ``cardtable puzzles build`` keeps the sets of games that ship none:
    the user's own folder, beside the puzzle profile (an installed plugin's
    package may be read-only, and a set built is the user's, not the plugin's)."""
    return Path.home() / ".cardtable" / "puzzles"


def set_file(where: Path, game_name: str) -> Path:
    """The set's file that ``where`` names: a ``.json`` file itself, else a
    folder holding ``GAME.json``."""
    return where if where.suffix == ".json" else where / f"{game_name}.json"


def puzzles_path(game_manifest: GameManifest) -> Any:
    """Where the game's puzzle set lives: a game with a tutorial folder ships
    ``puzzles.json`` there (a ``Traversable``); any other game's set is the one
    built into :func:`user_puzzles_dir` (a ``Path``)."""
    if game_manifest.tutorial is None or game_manifest.package is None:
        return set_file(user_puzzles_dir(), game_manifest.name)
    return resources.files(game_manifest.package).joinpath(game_manifest.tutorial, "puzzles.json")


def load_puzzles(game_name: str, where: Path | None = None) -> PuzzleSet:
    """The puzzles of ``game_name`` (:func:`puzzles_path`, or the set in
    ``where``, a file or folder as :func:`set_file` reads it), checked
    (:func:`parse_puzzles`)."""
    path = puzzles_path(manifest(game_name)) if where is None else set_file(where, game_name)
    if not path.is_file():
        raise NoPuzzlesError(
            game_name,
            f"no puzzles have been built into {path}"
            f" (cardtable puzzles build {game_name} writes them there)",
        )
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(str(path), f"not JSON: {exc}") from None
    puzzles = parse_puzzles(obj, str(path))
    if puzzles.game != game_name:
        raise NoPuzzlesError(game_name, f"{path} holds puzzles of {puzzles.game}")
    return puzzles


def _typed(obj: Mapping[str, Any], name: str, kinds: tuple[type, ...], what: str) -> Any:
    """``obj[name]``, or a :class:`ValueError` saying it is missing or not ``what``
    (a JSON ``true`` is no number here, though Python counts it one)."""
    if name not in obj:
        raise ValueError(f"{name} is missing")
    value = obj[name]
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise ValueError(f"{name} must be {what}, not {json.dumps(value)[:40]}")
    return value


NUMBER = ((int, float), "a number")
TEXT = ((str,), "a string")


def _alternative(a: Any) -> Alternative:
    if not isinstance(a, dict):
        raise ValueError("each alternative must be an object")
    numbers = {k: _typed(a, k, *NUMBER) for k in ("win", "win_se", "points", "loss", "loss_se")}
    return Alternative(moves=tuple(_typed(a, "moves", (list,), "a list")), **numbers)


def _puzzle(game: Game, p: Any) -> Puzzle:
    """One puzzle of a set; :class:`ValueError` (or the engine's
    ``KeyError``/``TypeError``) says what is wrong with it."""
    if not isinstance(p, dict):
        raise ValueError("a puzzle must be an object")
    game.view_from_json(_typed(p, "view", (dict,), "an object"))
    if not isinstance(p.get("theme_key", ""), str) or not isinstance(
        p.get("theme_params", {}), dict
    ):
        raise ValueError("theme_key must be a string and theme_params an object")
    legal = tuple(_typed(p, "legal", (list,), "a list"))
    solution = tuple(_typed(p, "solution", (list,), "a list"))
    if not solution or any(
        isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < len(legal) for s in solution
    ):
        raise ValueError(f"solution {list(solution)} is not among its {len(legal)} moves")
    alternatives = _typed(p, "alternatives", (list,), "a list")
    return Puzzle(
        id=_typed(p, "id", *TEXT),
        seat=_typed(p, "seat", (int,), "a whole number"),
        view=p["view"],
        legal=legal,
        solution=solution,
        alternatives=tuple(_alternative(a) for a in alternatives),
        margin=_typed(p, "margin", *NUMBER),
        theme=_typed(p, "theme", *TEXT),
        rule=_typed(p, "rule", (str, type(None)), "a string or null"),
        rating=_typed(p, "rating", *NUMBER),
        deviation=_typed(p, "deviation", *NUMBER),
        theme_key=p.get("theme_key"),
        theme_params=p.get("theme_params"),
    )


def parse_puzzles(obj: Any, where: str) -> PuzzleSet:
    """A puzzle set from its JSON; :class:`RecordError` names the puzzle and
    field at fault, including a view the game does not accept, and never
    lets another error through (a set is read from any file a person names)."""
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise RecordError(where, f"not a {FORMAT} file")
    try:
        name = _typed(obj, "game", *TEXT)
        options = _typed(obj, "options", (dict,), "an object")
        listed = _typed(obj, "puzzles", (list,), "a list")
        builds = _typed(obj, "builds", (list,), "a list")
    except ValueError as exc:
        raise RecordError(where, str(exc)) from None
    try:
        game: Game = load(name, **options)
    except CardtableError as exc:  # an unknown game, options it refuses
        raise RecordError(where, str(exc)) from None
    puzzles = []
    for i, p in enumerate(listed):
        try:
            puzzles.append(_puzzle(game, p))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"{where}: puzzles[{i}]", str(exc)) from None
    return PuzzleSet(name, options, tuple(builds), tuple(puzzles))
