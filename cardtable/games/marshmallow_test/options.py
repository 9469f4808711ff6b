"""Options of Marshmallow Test (MT-10), validated once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import OptionError

TRUMP_AFTER_RUFF = ("may", "must")  # MT-5.4 and its [variant]
OPTION_NAMES = ("players", "target", "trump_after_ruff", "first_dealer")

#: Tricks needed to go out, by player count (MT-6.1).
TRICKS_TO_GO_OUT = {2: 6, 3: 4, 4: 3, 5: 3}

#: Players when none are asked for (the spec leaves it open; cardtable decides, MT-10).
DEFAULT_PLAYERS = 4

#: The largest ``target`` (a cardtable limit, MT-10 sets none): a game to a few
#: hundred points ends in a few hundred deals, so a server, an arena run or a
#: record never holds a game that plays for ever.
MAX_TARGET = 500


@dataclass(frozen=True, slots=True)
class Options:
    players: int
    target: int = 20
    trump_after_ruff: str = "may"
    first_dealer: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "target": self.target,
            "trump_after_ruff": self.trump_after_ruff,
            "first_dealer": self.first_dealer,
        }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def make_options(**options: Any) -> Options:
    """Check every option (MT-10) and return them; OptionError names the culprit."""
    for name in options:
        if name not in OPTION_NAMES:
            raise OptionError(name, f"unknown option; options are {', '.join(OPTION_NAMES)}")
    players = options.get("players", DEFAULT_PLAYERS)
    if not _is_int(players) or not 2 <= players <= 5:
        raise OptionError("players", f"must be an integer from 2 to 5, got {players!r}")
    target = options.get("target", 20)
    if not _is_int(target) or not 1 <= target <= MAX_TARGET:
        raise OptionError("target", f"must be an integer from 1 to {MAX_TARGET}, got {target!r}")
    ruff = options.get("trump_after_ruff", "may")
    if not isinstance(ruff, str) or ruff not in TRUMP_AFTER_RUFF:
        raise OptionError("trump_after_ruff", f"must be 'may' or 'must', got {ruff!r}")
    first_dealer = options.get("first_dealer", 0)
    if not _is_int(first_dealer) or not 0 <= first_dealer < players:
        raise OptionError(
            "first_dealer", f"must be a seat from 0 to {players - 1}, got {first_dealer!r}"
        )
    return Options(players, target, ruff, first_dealer)
