"""Tournaments in the database (``ct_tournaments`` and its three companions,
:mod:`cardtable.server.db.schema`), each read or write one short transaction.

Two processes may run the same tournament's director at once (several
processes share one database): every step that moves a tournament on is a
compare-and-set on its status and deal, so exactly one of them takes it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardtable.bots.ratings import Skill, bot_skill, display_rating, newcomer, rate
from cardtable.server.db.ratings import store_rating
from cardtable.server.db.schema import (
    account_seats,
    ratings,
    tables,
    tournament_chat,
    tournament_entrants,
    tournament_invites,
    tournament_tables,
    tournaments,
)
from cardtable.server.tournaments.rules import NewTournament

LISTED = 50  # finished tournaments listed, the latest first
CLASH_TRIES = 20  # a row's number taken meanwhile: tried again
# Entry numbers are drawn below this; the bots that fill the tables are
# numbered after the largest, and an Integer column holds them all.
ENTRY_NUMBERS = 2**30


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    name: str
    game: str
    options: dict[str, Any]
    form: str
    deals: int
    start_ms: int
    move_hours: int | None
    access: str
    rated: bool
    bot: str
    creator_id: str | None
    creator_name: str
    status: str
    seed: int
    deal: int | None
    created_ms: int
    finished_ms: int | None

    @property
    def players(self) -> int:
        return int(self.options["players"])


@dataclass(frozen=True, slots=True)
class Entrant:
    id: int
    account_id: str | None
    name: str
    bot: str | None
    rating_before: float | None = None
    rating_after: float | None = None


@dataclass(frozen=True, slots=True)
class DealTable:
    deal: int
    number: int
    table_id: str
    seats: tuple[int, ...]  # the entrant at each seat
    points: tuple[int, ...] | None  # once the deal is over at every table
    percentages: tuple[float, ...] | None


# A rated tournament's final standing: the tournament, its entrants, and each
# entrant's place (1 = first), which one rating update takes as one game.
Standing = tuple[Tournament, Sequence[Entrant], Sequence[int]]


def scored_tables(tables: Sequence[DealTable]) -> list[tuple[tuple[int, ...], tuple[float, ...]]]:
    """The seats and percentages of the tables whose deal is over everywhere."""
    return [(d.seats, d.percentages) for d in tables if d.percentages is not None]


def _tournament(r: Any) -> Tournament:
    return Tournament(
        id=r.id,
        name=r.name,
        game=r.game,
        options=json.loads(r.options),
        form=r.form,
        deals=r.deals,
        start_ms=r.start_ms,
        move_hours=r.move_hours,
        access=r.access,
        rated=bool(r.rated),
        bot=r.bot,
        creator_id=r.creator_id,
        creator_name=r.creator_name,
        status=r.status,
        seed=r.seed,
        deal=r.deal,
        created_ms=r.created_ms,
        finished_ms=r.finished_ms,
    )


def _deal_table(r: Any) -> DealTable:
    return DealTable(
        r.deal,
        r.number,
        r.table_id,
        tuple(json.loads(r.seats)),
        None if r.points is None else tuple(json.loads(r.points)),
        None if r.percentages is None else tuple(json.loads(r.percentages)),
    )


class TournamentStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(
        self, tournament_id: str, new: NewTournament, creator: tuple[str, str], seed: int, now: int
    ) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(tournaments).values(
                    id=tournament_id,
                    name=new.name,
                    game=new.game,
                    options=json.dumps(new.options),
                    form=new.form,
                    deals=new.deals,
                    start_ms=new.start_ms,
                    move_hours=new.move_hours,
                    access=new.access,
                    rated=new.rated,
                    bot=new.bot,
                    creator_id=creator[0],
                    creator_name=creator[1],
                    status="upcoming",
                    seed=seed,
                    deal=None,
                    created_ms=now,
                )
            )

    async def upcoming_of(self, account_id: str) -> int:
        query = select(func.count()).where(
            tournaments.c.creator_id == account_id, tournaments.c.status == "upcoming"
        )
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def get(self, tournament_id: str) -> Tournament | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(tournaments).where(tournaments.c.id == tournament_id))
            ).first()
        return None if row is None else _tournament(row)

    async def listing(self, viewer: str | None) -> list[Tournament]:
        """Open tournaments, and those ``viewer`` made, entered or is invited to:
        every upcoming or running one, and the latest finished."""
        visible = tournaments.c.access == "open"
        if viewer is not None:
            mine = select(tournament_entrants.c.tournament_id).where(
                tournament_entrants.c.account_id == viewer
            )
            invited = select(tournament_invites.c.tournament_id).where(
                tournament_invites.c.account_id == viewer
            )
            visible = or_(
                visible,
                tournaments.c.creator_id == viewer,
                tournaments.c.id.in_(mine),
                tournaments.c.id.in_(invited),
            )
        live = select(tournaments).where(visible, tournaments.c.status.in_(("upcoming", "running")))
        done = (
            select(tournaments)
            .where(visible, tournaments.c.status == "finished")
            .order_by(tournaments.c.finished_ms.desc())
            .limit(LISTED)
        )
        async with self.engine.connect() as conn:
            rows = [*await conn.execute(live.order_by(tournaments.c.start_ms))]
            rows += [*await conn.execute(done)]
        return [_tournament(r) for r in rows]

    async def people_counts(self, ids: Sequence[str]) -> dict[str, int]:
        query = (
            select(tournament_entrants.c.tournament_id, func.count())
            .where(
                tournament_entrants.c.tournament_id.in_(list(ids)),
                tournament_entrants.c.account_id.is_not(None),
            )
            .group_by(tournament_entrants.c.tournament_id)
        )
        async with self.engine.connect() as conn:
            return {r[0]: int(r[1]) for r in await conn.execute(query)}

    async def entrants(self, tournament_id: str) -> list[Entrant]:
        query = (
            select(tournament_entrants)
            .where(tournament_entrants.c.tournament_id == tournament_id)
            .order_by(tournament_entrants.c.entered_ms, tournament_entrants.c.id)
        )
        async with self.engine.connect() as conn:
            return [
                Entrant(r.id, r.account_id, r.name, r.bot, r.rating_before, r.rating_after)
                for r in await conn.execute(query)
            ]

    async def invited(self, tournament_id: str, account_id: str) -> bool:
        query = select(tournament_invites.c.account_id).where(
            tournament_invites.c.tournament_id == tournament_id,
            tournament_invites.c.account_id == account_id,
        )
        async with self.engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def invite(self, tournament_id: str, account_id: str) -> None:
        async with self.engine.begin() as conn:
            try:
                async with conn.begin_nested():
                    await conn.execute(
                        insert(tournament_invites).values(
                            tournament_id=tournament_id, account_id=account_id
                        )
                    )
            except IntegrityError:
                pass  # invited already

    async def enter(self, tournament_id: str, account_id: str, name: str, now: int) -> bool:
        """Enter ``account_id`` while the tournament is upcoming (entering twice
        changes nothing); False if it no longer is. An entry's number is drawn
        at random (entrants are listed by when they entered), so people
        entering at once do not meet on one number."""
        for _ in range(CLASH_TRIES):
            try:
                async with self.engine.begin() as conn:
                    status = (
                        await conn.execute(
                            select(tournaments.c.status).where(tournaments.c.id == tournament_id)
                        )
                    ).scalar()
                    if status != "upcoming":
                        return False
                    mine = tournament_entrants.c.tournament_id == tournament_id
                    entered = await conn.execute(
                        select(tournament_entrants.c.id).where(
                            mine, tournament_entrants.c.account_id == account_id
                        )
                    )
                    if entered.first() is not None:
                        return True
                    await conn.execute(
                        insert(tournament_entrants).values(
                            tournament_id=tournament_id,
                            id=secrets.randbelow(ENTRY_NUMBERS),
                            account_id=account_id,
                            name=name,
                            bot=None,
                            entered_ms=now,
                        )
                    )
                return True
            except IntegrityError:
                continue  # that number was drawn before, or this account entered meanwhile
        raise RuntimeError(f"tournament {tournament_id}: no entry after {CLASH_TRIES} tries")

    async def leave(self, tournament_id: str, account_id: str) -> bool:
        async with self.engine.begin() as conn:
            status = (
                await conn.execute(
                    select(tournaments.c.status).where(tournaments.c.id == tournament_id)
                )
            ).scalar()
            if status != "upcoming":
                return False
            await conn.execute(
                delete(tournament_entrants).where(
                    tournament_entrants.c.tournament_id == tournament_id,
                    tournament_entrants.c.account_id == account_id,
                )
            )
        return True

    async def set_start(self, tournament_id: str, start_ms: int) -> bool:
        """Move an upcoming tournament's start (to now: its creator starts it)."""
        query = (
            update(tournaments)
            .where(tournaments.c.id == tournament_id, tournaments.c.status == "upcoming")
            .values(start_ms=start_ms)
        )
        async with self.engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

    async def cancel(self, tournament_id: str, now: int) -> bool:
        query = (
            update(tournaments)
            .where(tournaments.c.id == tournament_id, tournaments.c.status == "upcoming")
            .values(status="cancelled", finished_ms=now)
        )
        async with self.engine.begin() as conn:
            return (await conn.execute(query)).rowcount == 1

    async def due(self, now: int) -> list[str]:
        query = select(tournaments.c.id).where(
            tournaments.c.status == "upcoming", tournaments.c.start_ms <= now
        )
        async with self.engine.connect() as conn:
            return [r.id for r in await conn.execute(query)]

    async def running(self) -> list[str]:
        query = select(tournaments.c.id).where(tournaments.c.status == "running")
        async with self.engine.connect() as conn:
            return [r.id for r in await conn.execute(query)]

    async def start(self, tournament_id: str, bots: Sequence[Entrant], now: int) -> bool:
        """Upcoming to running at deal 0, the filling bots entered with it;
        False where another process started it (or it was cancelled)."""
        async with self.engine.begin() as conn:
            moved = await conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id, tournaments.c.status == "upcoming")
                .values(status="running", deal=0)
            )
            if moved.rowcount != 1:
                return False
            if bots:
                await conn.execute(
                    insert(tournament_entrants),
                    [
                        {
                            "tournament_id": tournament_id,
                            "id": b.id,
                            "account_id": None,
                            "name": b.name,
                            "bot": b.bot,
                            "entered_ms": now,
                        }
                        for b in bots
                    ],
                )
        return True

    async def claim_table(self, tournament_id: str, deal: int, number: int, table_id: str,
                          seats: Sequence[int]) -> bool:  # fmt: skip
        """Write which table plays ``deal`` as table ``number`` before it is
        made; False where another process wrote it first (it makes that one)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(tournament_tables).values(
                        tournament_id=tournament_id,
                        deal=deal,
                        number=number,
                        table_id=table_id,
                        seats=json.dumps(list(seats)),
                    )
                )
        except IntegrityError:
            return False
        return True

    async def deal_tables(self, tournament_id: str, deal: int | None = None) -> list[DealTable]:
        where = [tournament_tables.c.tournament_id == tournament_id]
        if deal is not None:
            where.append(tournament_tables.c.deal == deal)
        query = (
            select(tournament_tables)
            .where(*where)
            .order_by(tournament_tables.c.deal, tournament_tables.c.number)
        )
        async with self.engine.connect() as conn:
            return [_deal_table(r) for r in await conn.execute(query)]

    async def scored(self, tournament_id: str) -> list[tuple[tuple[int, ...], tuple[float, ...]]]:
        """Each table's seats and percentages on the deals over at every table
        (what the standings are summed from: :func:`.rules.standings`)."""
        return scored_tables(await self.deal_tables(tournament_id))

    async def statuses(self, table_ids: Sequence[str]) -> dict[str, str]:
        query = select(tables.c.id, tables.c.status).where(tables.c.id.in_(list(table_ids)))
        async with self.engine.connect() as conn:
            return {r.id: r.status for r in await conn.execute(query)}

    async def link_seat(self, table_id: str, seat: int, account_id: str) -> None:
        """The seat is the account's (My games, its profile): no address, as
        nobody took it from a client."""
        async with self.engine.begin() as conn:
            try:
                async with conn.begin_nested():
                    await conn.execute(
                        insert(account_seats).values(
                            table_id=table_id, seat=seat, account_id=account_id, address=None
                        )
                    )
            except IntegrityError:
                pass  # linked already (a restart made the table again)

    async def score_deal(
        self,
        tournament_id: str,
        deal: int,
        scored: Sequence[tuple[int, tuple[int, ...], tuple[float, ...]]],
        last: bool,
        now: int,
        rating: Standing | None = None,
    ) -> bool:
        """Write each table's points and percentages on ``deal`` and move the
        tournament to the next deal (or finish it), in one transaction; False
        where another process did it first. A rated tournament's last deal
        passes its final ``rating``: its people are rated in the same
        transaction, so nobody ever sees it finished and not rated, and a
        process that stops halfway leaves it to be scored again."""
        async with self.engine.begin() as conn:
            values: dict[str, Any] = (
                {"status": "finished", "deal": None, "finished_ms": now}
                if last
                else {"deal": deal + 1}
            )
            moved = await conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tournament_id,
                    tournaments.c.status == "running",
                    tournaments.c.deal == deal,
                )
                .values(**values)
            )
            if moved.rowcount != 1:
                return False
            for number, points, percentages in scored:
                await conn.execute(
                    update(tournament_tables)
                    .where(
                        tournament_tables.c.tournament_id == tournament_id,
                        tournament_tables.c.deal == deal,
                        tournament_tables.c.number == number,
                    )
                    .values(
                        points=json.dumps(list(points)), percentages=json.dumps(list(percentages))
                    )
                )
            if rating is not None:
                await self._rate(conn, rating, now)
        return True

    @staticmethod
    async def _rate(conn: AsyncConnection, standing: Standing, now: int) -> None:
        """One OpenSkill update of every entrant by its place, for the game and
        its player count: people at their rating (a newcomer's where they have
        none) and updated, bots at their published rating and not; each
        person's shown rating before and after is kept with their entry."""
        t, entrants, ranks = standing
        people = [e for e in entrants if e.account_id is not None]
        query = select(ratings).where(
            ratings.c.account_id.in_([e.account_id for e in people]),
            ratings.c.game == t.game,
            ratings.c.players == t.players,
        )
        current = {r.account_id: r for r in await conn.execute(query)}
        before = []
        for e in entrants:
            row = current.get(e.account_id or "")
            if e.bot is not None:
                before.append(bot_skill(t.game, t.players, e.bot))
            else:
                before.append(newcomer() if row is None else Skill(row.mu, row.sigma))
        after = rate(before, ranks)
        for i, e in enumerate(entrants):
            if e.account_id is None:
                continue
            key = {"account_id": e.account_id, "game": t.game, "players": t.players}
            await store_rating(conn, key, current.get(e.account_id), after[i], now)
            await conn.execute(
                update(tournament_entrants)
                .where(
                    tournament_entrants.c.tournament_id == t.id,
                    tournament_entrants.c.id == e.id,
                )
                .values(
                    rating_before=float(display_rating(before[i])),
                    rating_after=float(display_rating(after[i])),
                )
            )

    async def sealed(self, table_id: str) -> bool:
        """Whether ``table_id`` plays a tournament's deal that is not yet over
        at every table (nothing of it may be shown to anyone not seated there)."""
        query = select(tournament_tables.c.points).where(tournament_tables.c.table_id == table_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return row is not None and row.points is None

    async def of_account(self, account_id: str) -> list[tuple[Tournament, Entrant]]:
        """The finished tournaments ``account_id`` played, the latest first, with its entry."""
        query = (
            select(tournaments, tournament_entrants.c.id.label("entrant"))
            .join(
                tournament_entrants,
                and_(
                    tournament_entrants.c.tournament_id == tournaments.c.id,
                    tournament_entrants.c.account_id == account_id,
                ),
            )
            .where(tournaments.c.status == "finished")
            .order_by(tournaments.c.finished_ms.desc())
            .limit(LISTED)
        )
        async with self.engine.connect() as conn:
            rows = [*await conn.execute(query)]
        return [(_tournament(r), Entrant(r.entrant, account_id, "", None)) for r in rows]

    async def say(self, tournament_id: str, account_id: str, name: str, text: str, now: int) -> int:
        """Store a chat line; its number (the next free one, even when two are said at once)."""
        for _ in range(CLASH_TRIES):
            try:
                async with self.engine.begin() as conn:
                    last = (
                        await conn.execute(
                            select(func.max(tournament_chat.c.n)).where(
                                tournament_chat.c.tournament_id == tournament_id
                            )
                        )
                    ).scalar()
                    n = 0 if last is None else last + 1
                    await conn.execute(
                        insert(tournament_chat).values(
                            tournament_id=tournament_id,
                            n=n,
                            account_id=account_id,
                            name=name,
                            text=text,
                            at_ms=now,
                        )
                    )
                return n
            except IntegrityError:
                continue  # another line took that number: the next
        raise RuntimeError(
            f"tournament {tournament_id}: no chat line number after {CLASH_TRIES} tries"
        )

    async def chat(self, tournament_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        """The lines after line ``after`` (-1: from the first), at most ``limit``, oldest first."""
        query = (
            select(tournament_chat)
            .where(tournament_chat.c.tournament_id == tournament_id, tournament_chat.c.n > after)
            .order_by(tournament_chat.c.n)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [
                {"n": r.n, "name": r.name, "text": r.text, "at_ms": r.at_ms}
                for r in await conn.execute(query)
            ]
