"""Options of MyRummy 111 (MR-9), validated once at construction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import OptionError
from cardtable.games.myrummy_111.cards import DEFAULT_SYMBOLS, check_symbols

OPTION_NAMES = (
    "players",
    "hand_sizes",
    "target",
    "rounds",
    "turn_limit",
    "symbols",
    "first_player",
)
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MIN_HAND, MAX_HAND = 12, 14
#: Players when none are asked for and ``hand_sizes`` does not say (a cardtable decision, MR-9).
DEFAULT_PLAYERS = 3
#: The largest value of each numeric option (cardtable limits, MR-9 sets none):
#: they keep a game finite and small, so a server, an arena run or a record
#: never holds a game that plays for ever.
MAXIMA = {"target": 500, "rounds": 100, "turn_limit": 5000}


@dataclass(frozen=True, slots=True)
class Options:
    """MR-9. ``rounds`` and ``turn_limit`` are ``None`` when off."""

    players: int
    hand_sizes: tuple[int, ...]
    target: int = 60
    rounds: int | None = None
    turn_limit: int | None = None
    symbols: tuple[int, ...] = DEFAULT_SYMBOLS
    first_player: int = 0

    def to_json(self) -> dict[str, Any]:
        """Every option as written in a record; ``rounds``/``turn_limit`` are
        ``null`` when off (readers accept ``null`` or absence)."""
        return {
            "players": self.players,
            "hand_sizes": list(self.hand_sizes),
            "target": self.target,
            "rounds": self.rounds,
            "turn_limit": self.turn_limit,
            "symbols": list(self.symbols),
            "first_player": self.first_player,
        }


def _positive(name: str, value: object, allow_none: bool) -> int | None:
    """``value`` checked: an integer from 1 to the option's maximum (:data:`MAXIMA`)."""
    if value is None and allow_none:
        return None
    top = MAXIMA[name]
    if type(value) is not int or not 1 <= value <= top:
        extra = " or null" if allow_none else ""
        raise OptionError(name, f"must be an integer from 1 to {top}{extra}, got {value!r}")
    return value


def make_options(
    players: object = None,
    hand_sizes: object = None,
    target: object = 60,
    rounds: object = None,
    turn_limit: object = None,
    symbols: object = None,
    first_player: object = 0,
) -> Options:
    """Check every option (bools are not ints) and raise OptionError naming it.

    Without ``players``, a list of ``hand_sizes`` gives one seat per entry."""
    if players is None:
        players = len(hand_sizes) if isinstance(hand_sizes, (list, tuple)) else DEFAULT_PLAYERS
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError(
            "players", f"must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}"
        )
    if hand_sizes is None:
        sizes = (MIN_HAND,) * players
    else:
        if not isinstance(hand_sizes, (list, tuple)) or len(hand_sizes) != players:
            raise OptionError(
                "hand_sizes",
                f"must be a list of {players} integers {MIN_HAND}–{MAX_HAND}, one per seat,"
                f" got {hand_sizes!r}",
            )
        for seat, size in enumerate(hand_sizes):
            if type(size) is not int or not MIN_HAND <= size <= MAX_HAND:
                raise OptionError(
                    "hand_sizes", f"seat {seat}: {size!r} is not an integer {MIN_HAND}–{MAX_HAND}"
                )
        sizes = tuple(hand_sizes)
    target_ = _positive("target", target, allow_none=False)
    assert target_ is not None
    rounds_ = _positive("rounds", rounds, allow_none=True)
    turn_limit_ = _positive("turn_limit", turn_limit, allow_none=True)
    table = DEFAULT_SYMBOLS if symbols is None else check_symbols(symbols)
    if type(first_player) is not int or not 0 <= first_player < players:
        raise OptionError(
            "first_player", f"must be a seat from 0 to {players - 1}, got {first_player!r}"
        )
    return Options(players, sizes, target_, rounds_, turn_limit_, table, first_player)
