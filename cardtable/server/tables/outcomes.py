"""Ratings of people, per game and player count: which tables count, how, and how shown.

The rules as plain values (no database library, so the message code can
use them); :mod:`cardtable.server.db.ratings` reads and writes them.

When a table is rated
    A table is made rated or friendly (``TableFacts.rated``, chosen in the
    lobby; quick match makes rated tables); a friendly table is never
    rated. A finished rated table is rated when at least two of its seats belong to
    accounts (``ct_account_seats`` when its last move is stored) and no
    account holds two of its seats. Two accounts that took their seats from
    one client address may be one person farming a rating: such a table is
    not rated and ends friendly (stored so). An expired table, or a game not
    played to its end, is never rated, except a turn-based game that ended
    because a person's move time ran out (``on_timeout: "end"``): it is rated
    as it stands. A seat claimed for an account after the end is not rated
    either.

Who is in the update
    Every seat is one player of one OpenSkill update
    (:func:`cardtable.bots.ratings.rate`, the arena's model). Accounts play
    at their rating for this game and player count (a newcomer's where they
    have none) and are updated. Bots play at their fixed published rating
    (:func:`cardtable.bots.ratings.bot_skill`) and guests at a newcomer's;
    neither is updated, nor stored.

Ranks
    The game's own finishing order (:func:`cardtable.bots.ratings.finishing_ranks`:
    its winners, then by score, ties shared). A player whose seat a stand-in
    was playing when the game ended (they left, or their time ran out and
    they did not take the seat back), or whose move time ran out and ended
    a turn-based game, is ranked last, below everyone who stayed (Board
    Game Arena's rule); several such seats share last place.

Exactly once
    The update is computed and written by the storage writer in the
    transaction that stores the table's last move and its ``finished``
    status (:meth:`cardtable.server.db.storage.Storage.append`), reading the
    accounts' ratings there; ``ct_rating_changes`` is keyed by table and
    account. So a crash either loses the last move and its rating together
    or keeps both: a restart neither rates a table twice nor skips one.

Shown
    ``display_rating`` (``1000 + 10 × (mu − 3σ)``). The first
    :data:`PROVISIONAL_GAMES` rated games of a game and player count are
    provisional: shown with a "?" and kept off the leaderboard.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.bots.ratings import Skill, display_rating, finishing_ranks
from cardtable.core.game import State
from cardtable.core.registry import manifest
from cardtable.server.tables.facts import RatingChange
from cardtable.server.tables.table import Table

PROVISIONAL_GAMES = 10  # rated games of a game and player count before a rating is established


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat at the end: who sat there and whether a stand-in finished for them."""

    kind: str  # "human" or "bot"
    bot: str | None
    left: bool


@dataclass(slots=True)
class Outcome:
    """A finished table as the rating needs it; ``changes`` is filled by the
    writer that stores the last move (empty: the table was not rated)."""

    table_id: str
    game: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    seats: tuple[SeatOutcome, ...]
    finished_ms: int
    rated: bool = True  # made rated (False: friendly, never rated)
    changes: list[RatingChange] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.seats)


def outcome_of(table: Table, final: State, finished_ms: int, ran_out: int | None = None) -> Outcome:
    """The outcome of ``table`` whose game ``final`` has ended (before it is
    stored), or which ended because the person at seat ``ran_out`` ran out
    of time (that seat ranks as one who left)."""
    return Outcome(
        table_id=table.id,
        game=table.game.name,
        scores=tuple(final.scores),
        winners=tuple(final.winners),
        seats=tuple(
            SeatOutcome(
                s.facts.kind, s.facts.bot, s.human and (s.stand_in is not None or i == ran_out)
            )
            for i, s in enumerate(table.seats)
        ),
        finished_ms=finished_ms,
        rated=table.facts.rated,
    )


def final_ranks(outcome: Outcome) -> list[int]:
    """Rank per seat, 1 best: the game's order among those who stayed, then
    every seat a stand-in finished, tied last.

    >>> seats = (SeatOutcome("human", None, True),) + (SeatOutcome("human", None, False),) * 2
    >>> final_ranks(Outcome("t", "marshmallow-test", (30, 10, 20), (0,), seats, 0))
    [3, 2, 1]
    """
    stayed = [i for i, seat in enumerate(outcome.seats) if not seat.left]
    order = finishing_ranks(
        [outcome.scores[i] for i in stayed],
        [stayed.index(w) for w in outcome.winners if w in stayed],
        manifest(outcome.game).lowest_wins,
    )
    ranks = [len(stayed) + 1] * outcome.players
    for i, rank in zip(stayed, order, strict=True):
        ranks[i] = rank
    return ranks


def shown(skill: Skill, games: int) -> dict[str, Any]:
    """A rating as the API gives it: the number, and whether it is provisional."""
    return {
        "rating": display_rating(skill),
        "provisional": games < PROVISIONAL_GAMES,
        "games": games,
    }


def change_json(change: RatingChange) -> dict[str, Any]:
    """One account's change at one table: before, after, the difference (``+12``)."""
    before = display_rating(Skill(change.mu_before, change.sigma_before))
    after = display_rating(Skill(change.mu_after, change.sigma_after))
    return {
        "seat": change.seat,
        "rank": change.rank,
        "before": before,
        "after": after,
        "change": after - before,
        "provisional": change.games_after < PROVISIONAL_GAMES,
    }


def seat_change(changes: list[RatingChange], seat: int) -> dict[str, Any] | None:
    """:func:`change_json` of ``seat``, or ``None`` where that seat was not rated."""
    return next((change_json(c) for c in changes if c.seat == seat), None)
