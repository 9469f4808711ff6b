"""What a bot is: a seat's decision maker that sees only that seat's view.

A bot is built once per game with its seat, the game (and so its options), a
seeded generator and a budget. Each decision it receives the seat's
``view(seat)`` and the legal moves, never the state: hidden cards cannot reach
it by construction.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cardtable.core.game import Game, Move, View


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a bot may think per decision: seconds and/or iterations.

    ``None`` means no limit of that kind; a search bot stops at whichever
    limit comes first and has a default when both are ``None``.
    """

    seconds: float | None = None
    iterations: int | None = None

    def deadline(self, default_seconds: float) -> float | None:
        """The ``time.perf_counter()`` at which a search that starts now
        stops for time (``None``: it counts iterations only); with neither
        limit set, ``default_seconds`` from now."""
        seconds = self.seconds
        if seconds is None and self.iterations is None:
            seconds = default_seconds
        return None if seconds is None else time.perf_counter() + seconds


class Bot(Protocol):
    """One seat's player. ``choose`` must return one of ``legal``."""

    seat: int

    def choose(self, view: View, legal: Sequence[Move]) -> Move: ...


class BotFactory(Protocol):
    def __call__(
        self,
        seat: int,
        game: Game,
        rng: random.Random,
        budget: Budget | None = None,
        **options: Any,
    ) -> Bot: ...


class RandomBot:
    """Picks uniformly among the legal moves: the baseline of every ladder."""

    def __init__(
        self, seat: int, game: Game, rng: random.Random, budget: Budget | None = None
    ) -> None:
        self.seat = seat
        self.game = game
        self.rng = rng

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        return legal[self.rng.randrange(len(legal))]
