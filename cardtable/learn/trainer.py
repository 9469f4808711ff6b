"""A player's puzzle training: their rating, the next puzzle, the daily one.

The player's rating and each tried puzzle's rating live in a small JSON
profile (``cardtable-puzzle-profile/1``), one per person; a puzzle not yet
tried by them has its shipped rating. One try is one rating period
(lichess does the same): a solve is the player's win over the puzzle.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Collection
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cardtable.analysis.seeds import derive_seed
from cardtable.core.errors import RecordError
from cardtable.learn.glicko import Rating, update
from cardtable.learn.puzzles import Puzzle, PuzzleSet

__all__ = [
    "PROFILE_FORMAT",
    "Outcome",
    "Profile",
    "daily_puzzle",
    "nearest_puzzle",
    "next_puzzle",
    "rate",
]

PROFILE_FORMAT = "cardtable-puzzle-profile/1"


@dataclass(frozen=True, slots=True)
class Outcome:
    solved: bool
    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


@dataclass
class _GameRecord:
    player: Rating = field(default_factory=Rating)
    puzzles: dict[str, Rating] = field(default_factory=dict)  # tried puzzles' ratings
    tried: list[str] = field(default_factory=list)


class Profile:
    """One person's ratings per game, read from and written to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._games: dict[str, _GameRecord] = {}
        if path.is_file():
            try:
                obj = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise RecordError(str(path), f"not JSON: {exc}") from None
            self._read(obj)

    def _read(self, obj: Any) -> None:
        if not isinstance(obj, dict) or obj.get("format") != PROFILE_FORMAT:
            raise RecordError(str(self.path), f"not a {PROFILE_FORMAT} file")
        try:
            for name, g in obj["games"].items():
                self._games[name] = _GameRecord(
                    Rating(**g["player"]),
                    {k: Rating(**r) for k, r in g["puzzles"].items()},
                    list(g["tried"]),
                )
        except (KeyError, TypeError, AttributeError) as exc:
            raise RecordError(str(self.path), f"malformed profile: {exc}") from None

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        obj = {
            "format": PROFILE_FORMAT,
            "games": {
                name: {
                    "player": asdict(g.player),
                    "puzzles": {k: asdict(r) for k, r in g.puzzles.items()},
                    "tried": g.tried,
                }
                for name, g in self._games.items()
            },
        }
        self.path.write_text(json.dumps(obj, indent=1) + "\n", encoding="utf-8")

    def player(self, game: str) -> Rating:
        return self._game(game).player

    def tried(self, game: str) -> tuple[str, ...]:
        return tuple(self._game(game).tried)

    def puzzle_rating(self, game: str, puzzle: Puzzle) -> Rating:
        """The puzzle's rating as this profile knows it (its shipped one if untried here)."""
        known = self._game(game).puzzles.get(puzzle.id)
        return known if known is not None else Rating(puzzle.rating, puzzle.deviation)

    def record(self, game: str, puzzle: Puzzle, solved: bool) -> Outcome:
        """Rate one try: the player and the puzzle both move (then :meth:`save`)."""
        entry = self._game(game)
        outcome = rate(entry.player, self.puzzle_rating(game, puzzle), solved)
        entry.player = outcome.player_after
        entry.puzzles[puzzle.id] = outcome.puzzle_after
        if puzzle.id not in entry.tried:
            entry.tried.append(puzzle.id)
        return outcome

    def _game(self, game: str) -> _GameRecord:
        return self._games.setdefault(game, _GameRecord())


def rate(player: Rating, puzzle: Rating, solved: bool) -> Outcome:
    """One try as one rating period for both sides (a solve: the player wins)."""
    return Outcome(
        solved,
        player,
        update(player, [(puzzle, 1.0 if solved else 0.0)]),
        puzzle,
        update(puzzle, [(player, 0.0 if solved else 1.0)]),
    )


def nearest_puzzle(
    puzzles: PuzzleSet,
    rating: float,
    tried: Collection[str] = (),
    rating_of: Callable[[Puzzle], float] = lambda p: p.rating,
) -> Puzzle:
    """The untried puzzle whose rating is nearest ``rating`` (every puzzle
    again once all are tried); ties go to the first in the set."""
    pool = [p for p in puzzles.puzzles if p.id not in tried] or list(puzzles.puzzles)
    return min(pool, key=lambda p: abs(rating_of(p) - rating))


def next_puzzle(puzzles: PuzzleSet, profile: Profile) -> Puzzle:
    """The next puzzle for the profile's player (:func:`nearest_puzzle`)."""
    game = puzzles.game
    return nearest_puzzle(
        puzzles,
        profile.player(game).rating,
        set(profile.tried(game)),
        lambda p: profile.puzzle_rating(game, p).rating,
    )


def daily_puzzle(puzzles: PuzzleSet, day: datetime.date) -> Puzzle:
    """The same puzzle for everyone on ``day``: drawn by hashing the game and the date."""
    return puzzles.puzzles[derive_seed(puzzles.game, day.isoformat()) % len(puzzles.puzzles)]
