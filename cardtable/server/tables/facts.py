"""A table's settings, status and seats as plain values.

The lobby makes them, the in-memory table (:mod:`cardtable.server.tables.table`)
holds them and storage (:mod:`cardtable.server.db.storage`) maps them to its
rows. Nothing here needs a database library, so the table and the message
code import without SQLAlchemy or Alembic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# "An hour left": when the person to move is told so (accounts/notices.py), and
# when a parked turn-based table comes back into memory (live/parking.py).
HOUR_LEFT_MS = 3_600_000


@dataclass(slots=True)
class SeatFacts:
    """Who sits at a seat: a person (once joined, a name and a token's hash) or a bot."""

    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    dropped_ms: int | None = None  # turn-based: dropped for running out of time (a bot plays on)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a rated table did to one account's rating (``ct_rating_changes``)."""

    seat: int
    account_id: str
    rank: int  # 1 best; a player who left and let a stand-in finish is last
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    games_after: int  # the account's rated games of this game and player count, this one included


@dataclass(slots=True)
class TableFacts:
    """A table's settings and status, and its seats."""

    id: str
    game: str
    options: dict[str, Any]
    private: bool
    turn_seconds: int | None
    bot_delay_ms: int
    stand_in: str
    status: str
    created_ms: int
    seats: list[SeatFacts]
    rematch_of: str | None = None
    rematch_id: str | None = None
    creator: str | None = None  # the address of the client that made it
    abandoned_ms: int | None = None  # when stand-ins were sent to finish it
    rated: bool = True  # chosen when it is made; friendly (False): never rated
    # A finished table's rating changes, one per rated account (none: not rated).
    ratings: list[RatingChange] = field(default_factory=list)
    # Turn-based (docs/server.md, "Turn-based tables"): the hours a person has
    # for each move (None: a real-time table), what the table does when they
    # run out (ON_TIMEOUT), and when the current turn began.
    move_hours: int | None = None
    on_timeout: str | None = None
    turn_started_ms: int | None = None
    # The tournament this table plays one deal of (cardtable/server/tournaments/):
    # the table ends with the deal's round, and nobody else may see it meanwhile.
    tournament: str | None = None

    @property
    def turn_based(self) -> bool:
        return self.move_hours is not None

    @property
    def deadline_ms(self) -> int | None:
        """When the current turn's time runs out (a turn-based table that plays)."""
        if self.move_hours is None or self.turn_started_ms is None:
            return None
        return self.turn_started_ms + self.move_hours * 3_600_000
