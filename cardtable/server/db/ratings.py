"""Ratings in the database: rating a finished table in its last move's
transaction, and reading ratings back (profiles, leaderboards, matching).

What is rated and how is :mod:`cardtable.server.tables.outcomes`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardtable.bots.ratings import Skill, bot_skill, display_rating, newcomer, rate
from cardtable.server.db.schema import account_seats, accounts, rating_changes, ratings, tables
from cardtable.server.tables.facts import RatingChange
from cardtable.server.tables.outcomes import PROVISIONAL_GAMES, Outcome, final_ranks, shown

BOARD_PAGE = 50  # leaderboard entries per page, at most


def _one_address_for_two_accounts(rows: list[Any]) -> bool:
    """Whether two accounts took their seats from one client address."""
    accounts_of: dict[str, set[str]] = {}
    for r in rows:
        if r.address is not None:
            accounts_of.setdefault(r.address, set()).add(r.account_id)
    return any(len(held) > 1 for held in accounts_of.values())


async def rate_table(conn: AsyncConnection, outcome: Outcome) -> list[RatingChange]:
    """Rate ``outcome``'s table inside the caller's transaction (see the module):
    the accounts' new ratings and the table's change rows are written, and
    the changes returned; nothing when the table is not rated."""
    if not outcome.rated:
        return []
    rows = [
        r
        for r in await conn.execute(
            select(account_seats.c.seat, account_seats.c.account_id, account_seats.c.address).where(
                account_seats.c.table_id == outcome.table_id
            )
        )
        if r.seat < outcome.players and outcome.seats[r.seat].kind == "human"
    ]
    owners = {r.seat: r.account_id for r in rows}
    held = Counter(owners.values())
    if len(held) < 2 or max(held.values()) > 1:
        return []
    if _one_address_for_two_accounts(rows):
        # Perhaps one person playing two accounts: the table ends friendly.
        outcome.rated = False
        await conn.execute(
            update(tables).where(tables.c.id == outcome.table_id).values(rated=False)
        )
        return []
    query = select(ratings).where(
        ratings.c.account_id.in_(sorted(held)),
        ratings.c.game == outcome.game,
        ratings.c.players == outcome.players,
    )
    if conn.dialect.name == "postgresql":
        # Two tables of one player ending at once: the second waits for the first.
        query = query.order_by(ratings.c.account_id).with_for_update()
    current = {r.account_id: r for r in await conn.execute(query)}
    before: list[Skill] = []
    for i, seat in enumerate(outcome.seats):
        row = current.get(owners.get(i, ""))
        if row is not None:
            before.append(Skill(row.mu, row.sigma))
        elif seat.kind == "bot" and seat.bot is not None:
            before.append(bot_skill(outcome.game, outcome.players, seat.bot))
        else:
            before.append(newcomer())  # an account's first game, or a guest
    ranks = final_ranks(outcome)
    after = rate(before, ranks)
    changes = []
    for seat, account_id in sorted(owners.items()):
        old, new = before[seat], after[seat]
        key = {"account_id": account_id, "game": outcome.game, "players": outcome.players}
        games = await store_rating(conn, key, current.get(account_id), new, outcome.finished_ms)
        changes.append(
            RatingChange(seat, account_id, ranks[seat], old.mu, old.sigma, new.mu, new.sigma, games)
        )
    await conn.execute(
        insert(rating_changes),
        [
            {
                "table_id": outcome.table_id,
                "account_id": c.account_id,
                "seat": c.seat,
                "game": outcome.game,
                "players": outcome.players,
                "rank": c.rank,
                "mu_before": c.mu_before,
                "sigma_before": c.sigma_before,
                "mu_after": c.mu_after,
                "sigma_after": c.sigma_after,
                "games_after": c.games_after,
                "rated_ms": outcome.finished_ms,
            }
            for c in changes
        ],
    )
    return changes


async def store_rating(
    conn: AsyncConnection, key: dict[str, Any], row: Any, skill: Skill, now_ms: int
) -> int:
    """Write an account's new rating (``key``: its account, game and player
    count) over ``row``, its rating before (None: its first rated game of
    them); its rated games with this one."""
    games = (row.games if row is not None else 0) + 1
    values = {
        "mu": skill.mu,
        "sigma": skill.sigma,
        "games": games,
        "ordinal": skill.ordinal,
        "updated_ms": now_ms,
    }
    if row is None:
        await conn.execute(insert(ratings).values(**key, **values))
    else:
        await conn.execute(
            update(ratings)
            .where(*(ratings.c[name] == value for name, value in key.items()))
            .values(values)
        )
    return games


async def table_changes(
    conn: AsyncConnection, table_ids: list[str]
) -> dict[str, list[RatingChange]]:
    """The stored rating changes of these tables, by table (a table not rated has none)."""
    found: dict[str, list[RatingChange]] = {}
    query = (
        select(rating_changes)
        .where(rating_changes.c.table_id.in_(table_ids))
        .order_by(rating_changes.c.seat)
    )
    for r in await conn.execute(query):
        found.setdefault(r.table_id, []).append(
            RatingChange(
                r.seat,
                r.account_id,
                r.rank,
                r.mu_before,
                r.sigma_before,
                r.mu_after,
                r.sigma_after,
                r.games_after,
            )
        )
    return found


class Ratings:
    """The ratings of one server, read in short transactions of their own."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def rating_for(self, account_id: str, game: str, players: int) -> tuple[float, float]:
        """``(mu, sigma)`` of the account for this game and player count; a
        newcomer's where it has played no rated game of them (for matching)."""
        query = select(ratings.c.mu, ratings.c.sigma).where(
            ratings.c.account_id == account_id,
            ratings.c.game == game,
            ratings.c.players == players,
        )
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).first()
        if found is None:
            fresh = newcomer()
            return fresh.mu, fresh.sigma
        return float(found.mu), float(found.sigma)

    async def shown_rating(self, account_id: str | None, game: str, players: int) -> float:
        """The rating a person reads, which quick match pairs on (its ranges are
        in these points); a guest is matched as a newcomer."""
        if account_id is None:
            return float(display_rating(newcomer()))
        mu, sigma = await self.rating_for(account_id, game, players)
        return float(display_rating(Skill(mu, sigma)))

    async def of_account(self, account_id: str) -> dict[str, list[dict[str, Any]]]:
        """Every rating of the account, by game, each ``{players, rating, provisional, games}``."""
        query = (
            select(ratings)
            .where(ratings.c.account_id == account_id)
            .order_by(ratings.c.game, ratings.c.players)
        )
        by_game: dict[str, list[dict[str, Any]]] = {}
        async with self.engine.connect() as conn:
            for r in await conn.execute(query):
                by_game.setdefault(r.game, []).append(
                    {"players": r.players, **shown(Skill(r.mu, r.sigma), r.games)}
                )
        return by_game

    async def leaderboard(
        self, game: str, players: int, offset: int, limit: int
    ) -> tuple[list[dict[str, Any]], bool]:
        """Established ratings of a game and player count, best first (by
        mu − 3σ, then name): one page from ``offset``, and whether more follow."""
        query = (
            select(accounts.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(
                ratings.c.game == game,
                ratings.c.players == players,
                ratings.c.games >= PROVISIONAL_GAMES,
            )
            .order_by(ratings.c.ordinal.desc(), accounts.c.name_key)
            .offset(offset)
            .limit(limit + 1)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        entries = [
            {"rank": offset + i + 1, "name": r.name, **shown(Skill(r.mu, r.sigma), r.games)}
            for i, r in enumerate(rows[:limit])
        ]
        return entries, len(rows) > limit

    async def established(self, game: str, players: int) -> int:
        """How many players the leaderboard of this game and player count holds."""
        query = select(func.count()).where(
            ratings.c.game == game,
            ratings.c.players == players,
            ratings.c.games >= PROVISIONAL_GAMES,
        )
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar() or 0)

    async def busiest(self, game: str) -> int | None:
        """The player count whose leaderboard holds the most players (the
        fewest players on a tie), or None while no one is established: where
        a leaderboard opens when no count is asked for."""
        count = func.count().label("n")
        query = (
            select(ratings.c.players, count)
            .where(ratings.c.game == game, ratings.c.games >= PROVISIONAL_GAMES)
            .group_by(ratings.c.players)
            .order_by(count.desc(), ratings.c.players)
            .limit(1)
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else int(row.players)
