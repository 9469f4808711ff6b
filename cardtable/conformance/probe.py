"""Where a check is, and how it says that a promise broke there.

A check walks games (players, seed, decision) and tells its :class:`Probe`
where it is as it goes; when something does not hold it calls
:meth:`Probe.require`, which raises :class:`PromiseBroken` with the place and
the reason, so the runner reports "3 players, seed 1, decision 17: …" and a
person can replay exactly that game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn

__all__ = ["Probe", "PromiseBroken"]


class PromiseBroken(Exception):
    """A promise did not hold; ``where`` says in which game and decision."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}" if where else why)
        self.where = where
        self.why = why


@dataclass
class Probe:
    """A check's settings (games per player count, the first seed) and its place."""

    games: int
    seed: int = 0
    place: dict[str, object] = field(default_factory=dict)

    @property
    def seeds(self) -> range:
        return range(self.seed, self.seed + self.games)

    def at(self, **place: object) -> None:
        """Note where the check is now (``players=3, seed=1``, ``decision=17``);
        a key given ``None`` is forgotten."""
        self.place.update(place)
        for key in [k for k, v in self.place.items() if v is None]:
            del self.place[key]

    def where(self) -> str:
        words = {"players": "{} players", "seed": "seed {}", "decision": "decision {}"}
        return ", ".join(words.get(k, k + " {}").format(v) for k, v in self.place.items())

    def require(self, holds: object, why: str) -> None:
        """Raise :class:`PromiseBroken` here unless ``holds``."""
        if not holds:
            self.fail(why)

    def fail(self, why: str) -> NoReturn:
        raise PromiseBroken(self.where(), why)
