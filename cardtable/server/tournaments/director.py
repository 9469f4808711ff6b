"""Running tournaments: starting them, making each deal's tables, scoring a
deal once it is over at every table, and the next deal after it.

The deals are played in step: deal ``k + 1`` starts when deal ``k`` is over
at every table. So a person never waits on a table of a later deal, and a
deal's cards are shown to nobody until everyone has played them
(:meth:`TournamentStore.sealed`: spectators, records, replays and analyses of
a tournament's table wait for that; standings count only such deals).

A tournament's tables are ordinary tables of the hub (private, never rated,
no take-backs, no rematch) that play one deal: the game's first round
(``Table.prepare``), dealt from the deal's seed. A person's seat is theirs
from the start (``ct_account_seats``): its token is an HMAC of the seat
under the server's secret, so any browser the person is signed in on can be
given it (:meth:`Director.seat_of`) and nothing secret is stored.

A sweep every second starts the tournaments that are due and looks at the
running ones; with several processes each runs it, and the store's
compare-and-set steps let exactly one of them take each step.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from cardtable.core.registry import load
from cardtable.server.clock import now_ms
from cardtable.server.db.storage import log_failure, unreachable
from cardtable.server.live.hub import Hub, new_table_id
from cardtable.server.live.play import Play
from cardtable.server.periodic import Periodic
from cardtable.server.tables.facts import SeatFacts
from cardtable.server.tables.lobby import NewTable
from cardtable.server.tables.table import Table, hash_token
from cardtable.server.tournaments.ledger import (
    DealTable,
    Entrant,
    Standing,
    Tournament,
    TournamentStore,
)
from cardtable.server.tournaments.rules import (
    TURN_SECONDS,
    bot_name,
    deal_percentages,
    deal_seed,
    lowest_wins,
    seat_tables,
    seats_needed,
    standings,
)

log = logging.getLogger(__name__)

SWEEP_SECONDS = 1.0
BOT_DELAY_MS = 600  # bots' pacing at a tournament's tables: people can follow, deals end soon
STAND_IN = "medium"  # plays an absent person's seat: the deal matters to everyone's score


@dataclass(frozen=True, slots=True)
class SeatOf:
    """A person's seat on the deal being played."""

    table_id: str
    seat: int
    token: str
    deal: int


class Director:
    def __init__(self, hub: Hub, play: Play, store: TournamentStore, secret: bytes) -> None:
        self.hub = hub
        self.play = play
        self.store = store
        self._secret = secret
        self.bot_delay_ms = BOT_DELAY_MS
        self._sweeps = Periodic(
            SWEEP_SECONDS, self.sweep, "the tournament sweep", outage=unreachable
        )
        # Each tournament table's points, kept as its deal ends (scoring needs
        # no reload), until its deal is scored.
        self._points: dict[str, tuple[int, ...]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._sweeps.start()

    async def stop(self) -> None:
        await self._sweeps.stop()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def watch(self, table: Table) -> None:
        """After a change at a table (``Play.watch``): a tournament's table whose
        deal has just ended is looked at now, so the deal is scored and the
        next one dealt the moment the last table ends, not at the next sweep."""
        if table.facts.tournament is None or table.status != "finished":
            return
        if table.id in self._points:
            return
        self._points[table.id] = tuple(int(p) for p in table.state.scores)
        task = asyncio.get_running_loop().create_task(self._look_now(table.facts.tournament))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _look_now(self, tournament_id: str) -> None:
        try:
            await self.look_at(tournament_id)
        except Exception as exc:  # the sweep tries again within a second
            log_failure(log, exc, "tournament %s: a deal's end was not acted on", tournament_id)

    async def sweep(self) -> None:
        now = now_ms()
        for tournament_id in await self.store.due(now):
            await self.begin(tournament_id)
        for tournament_id in await self.store.running():
            await self.look_at(tournament_id)

    # --- the steps -----------------------------------------------------------
    async def begin(self, tournament_id: str) -> None:
        """Start a due tournament: bots fill the tables, deal 0's tables are made."""
        t = await self.store.get(tournament_id)
        if t is None or t.status != "upcoming":
            return
        people = await self.store.entrants(tournament_id)
        if not people:
            await self.store.cancel(tournament_id, now_ms())  # nobody came
            log.info("tournament %s: nobody entered, cancelled", tournament_id)
            return
        first = max(e.id for e in people) + 1
        bots = [
            Entrant(first + i, None, bot_name(t.bot, i + 1), t.bot)
            for i in range(seats_needed(len(people), t.players) - len(people))
        ]
        if await self.store.start(tournament_id, bots, now_ms()):
            log.info("tournament %s: started, %d people, %d bots", t.id, len(people), len(bots))
            await self.look_at(tournament_id)

    async def look_at(self, tournament_id: str) -> None:
        """Make the current deal's missing tables, or score it once every table is over."""
        t = await self.store.get(tournament_id)
        if t is None or t.status != "running" or t.deal is None:
            return
        entrants = await self.store.entrants(tournament_id)
        made = await self.store.deal_tables(tournament_id, t.deal)
        if len(made) < len(entrants) // t.players:
            await self._make_tables(t, entrants, made)
            return
        statuses = await self.store.statuses([d.table_id for d in made])
        for d in made:  # brought back by a restart, a takeover or a wake: say what it plays
            held = self.hub.tables.get(d.table_id)
            if held is not None and held.tournament_label is None:
                held.tournament_label = label(t, d.deal)
        for d in made:
            if d.table_id not in statuses:  # claimed, then the process stopped before making it
                await self._make_table(t, entrants, d)
        if all(statuses.get(d.table_id) == "finished" for d in made):
            await self._score(t, made)

    async def _make_tables(
        self, t: Tournament, entrants: list[Entrant], made: list[DealTable]
    ) -> None:
        assert t.deal is not None
        totals = [0.0] * len(entrants)
        if t.form == "swiss" and t.deal > 0:
            for s in standings(len(entrants), await self.store.scored(t.id)):
                totals[s.entrant] = s.total
        seating = seat_tables(t.form, len(entrants), t.players, t.deal, t.seed, totals)
        have = {d.number for d in made}
        for number, seats in enumerate(seating):
            if number in have:
                continue
            claimed = DealTable(t.deal, number, new_table_id(), seats, None, None)
            if await self.store.claim_table(t.id, t.deal, number, claimed.table_id, seats):
                await self._make_table(t, entrants, claimed)

    async def _make_table(self, t: Tournament, entrants: list[Entrant], d: DealTable) -> None:
        """Make table ``d`` of its deal, with its people seated and its bots in place."""
        game = load(t.game, **t.options)
        seats: list[SeatFacts] = []
        for seat, e in enumerate(entrants[i] for i in d.seats):
            if e.account_id is None:
                seats.append(SeatFacts(seat, "bot", bot=e.bot))
            else:
                token = self.token(d.table_id, seat, e.account_id)
                seats.append(SeatFacts(seat, "human", name=e.name, token_hash=hash_token(token)))
        new = NewTable(
            game,
            seats,
            private=True,
            turn_seconds=None if t.move_hours is not None else TURN_SECONDS,
            bot_delay_ms=self.bot_delay_ms,
            stand_in=STAND_IN,
            rated=False,
            move_hours=t.move_hours,
            on_timeout=None if t.move_hours is None else "stand-in",
            tournament=t.id,
            deal_seed=deal_seed(t.seed, t.form, d.deal, d.number),
        )
        table = await self.hub.create(new, table_id=d.table_id)
        table.tournament_label = label(t, d.deal)
        for seat, e in enumerate(entrants[i] for i in d.seats):
            if e.account_id is not None:
                await self.store.link_seat(table.id, seat, e.account_id)
        self.play.changed(table)

    async def _score(self, t: Tournament, made: list[DealTable]) -> None:
        assert t.deal is not None
        points = []
        for d in made:
            kept = self._points.get(d.table_id)
            if kept is None:  # it ended in another process, or before a restart
                table = await self.hub.get(d.table_id)
                kept = tuple(int(p) for p in table.state.scores)
            points.append(kept)
        percentages = deal_percentages(t.form, points, lowest_wins(t.game))
        scored = [(d.number, points[i], percentages[i]) for i, d in enumerate(made)]
        last = t.deal + 1 >= t.deals
        rating = None
        if last and t.rated:
            this_deal = [(d.seats, percentages[i]) for i, d in enumerate(made)]
            rating = await self._final_standing(t, [*await self.store.scored(t.id), *this_deal])
        if not await self.store.score_deal(t.id, t.deal, scored, last, now_ms(), rating):
            return
        for d in made:
            self._points.pop(d.table_id, None)
        log.info("tournament %s: deal %d scored", t.id, t.deal)
        if not last:
            await self.look_at(t.id)

    async def _final_standing(
        self, t: Tournament, scored: list[tuple[tuple[int, ...], tuple[float, ...]]]
    ) -> Standing | None:
        """A rated tournament is one game of all its entrants, ranked by the
        standings over every deal (``scored``); None where fewer than two
        entrants are people (as at a table: a rating needs two accounts)."""
        entrants = await self.store.entrants(t.id)
        if sum(e.account_id is not None for e in entrants) < 2:
            return None
        ranks = [0] * len(entrants)
        for s in standings(len(entrants), scored):
            ranks[s.entrant] = s.place
        return t, entrants, ranks

    # --- people's seats --------------------------------------------------------
    def token(self, table_id: str, seat: int, account_id: str) -> str:
        """The seat's token: the same on every asking, never stored."""
        message = f"tournament-seat|{table_id}|{seat}|{account_id}".encode()
        digest = hmac.new(self._secret, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:24]).decode("ascii")

    def seat_of(
        self, t: Tournament, account_id: str, entrants: list[Entrant], tables: list[DealTable]
    ) -> SeatOf | None:
        """``account_id``'s seat on the deal being played, if it plays in ``t``
        (``entrants`` and ``tables``: the tournament's, as the ledger has them)."""
        if t.status != "running" or t.deal is None:
            return None
        mine = next((i for i, e in enumerate(entrants) if e.account_id == account_id), None)
        if mine is None:
            return None
        for d in tables:
            if d.deal == t.deal and mine in d.seats:
                seat = d.seats.index(mine)
                return SeatOf(d.table_id, seat, self.token(d.table_id, seat, account_id), t.deal)
        return None


def label(t: Tournament, deal: int) -> dict[str, Any]:
    """What a table's state says of the tournament it plays ``deal`` of."""
    return {"id": t.id, "name": t.name, "deal": deal, "deals": t.deals}


def new_tournament_id() -> str:
    """A tournament's id: 10 random URL-safe characters."""
    return secrets.token_urlsafe(8).replace("-", "x")


def new_tournament_seed() -> int:
    """The seed of a tournament's deals and seating (a signed 64-bit column holds it)."""
    return secrets.randbits(62)
