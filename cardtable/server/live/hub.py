"""The tables of one server process: creating, joining, loading and rematching.

:class:`Hub` keeps every table that is waiting or playing in memory (and
finished ones while someone looks at them). At start it rebuilds each
unfinished table from its stored record, so a restart continues from the last
acknowledged move. What happens at a table once it runs — moves, bots,
timers, stand-ins — is :class:`cardtable.server.live.play.Play`'s job.

When several processes share one database (``cardtable serve --redis``), the
hub holds only the live tables whose lease this process holds, and asks its
:class:`Owners` (:mod:`cardtable.server.cluster.cluster`) for any other live table.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import re
import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from cardtable.core.errors import CardtableError
from cardtable.core.registry import load
from cardtable.core.replay import load_record
from cardtable.server.db.storage import LIVE, RematchExists, Storage, StoredTable, log_failure
from cardtable.server.guard.limits import Gate
from cardtable.server.live.bots import BotPool
from cardtable.server.settings import Settings
from cardtable.server.tables.facts import TableFacts
from cardtable.server.tables.journal import Journal
from cardtable.server.tables.listing import entry
from cardtable.server.tables.lobby import NewTable
from cardtable.server.tables.table import (
    Reader,
    Refused,
    Table,
    build_table,
    new_token,
    unique_name,
)
from cardtable.server.wire import BadInput

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

log = logging.getLogger(__name__)

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def new_table_id() -> str:
    """A new table's id: 12 random URL-safe characters, never a leading "-"
    (an operator types an id after ``cardtable admin chat remove``, where it
    would read as an option)."""
    while (table_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return table_id


class NotFound(BadInput):
    def __init__(self, table_id: str) -> None:
        super().__init__(f"there is no table {table_id[:40]!r}; check the link", 404)


class TableMoving(BadInput):
    """The table is on its way from one server process to another."""

    def __init__(self, table_id: str) -> None:
        super().__init__(
            f"table {table_id} is moving to another server process; try again in a moment", 503
        )


class ServedElsewhere(TableMoving):
    """Another process serves the table and keeps it (its own sockets are
    there): a socket that lands here is relayed to it."""

    def __init__(self, table_id: str, holder: str) -> None:
        super().__init__(table_id)
        self.table_id, self.holder = table_id, holder


class Owners(Protocol):
    """Which process serves which live table, when several share the database."""

    async def acquire(self, table_id: str) -> Table | None:
        """The live table ``table_id``, now this process's (None: it is not
        live); raises :class:`TableMoving` when it cannot be had yet, and
        :class:`ServedElsewhere` when another process keeps it."""
        ...

    async def relay(
        self,
        ws: WebSocket,
        table_id: str,
        token: str | None,
        address: str,
        holder: str,
        reader: Reader,
    ) -> None:
        """Serve the accepted socket ``ws`` through ``holder``, which keeps the
        table, for ``reader`` (who is signed in on it, and whom they blocked)."""
        ...

    async def tables_page(self, query: Mapping[str, str]) -> dict[str, Any]:
        """``GET /api/tables`` over the tables of every process."""
        ...

    async def online(self) -> int:
        """Sockets open at the tables of every process (``GET /api/online``)."""
        ...

    async def live_lines(self, ids: list[str]) -> list[dict[str, Any]]:
        """The lobby lines of the live ones of ``ids``, on any process."""
        ...

    async def wake(self, table_id: str) -> Table | None:
        """Parked ``table_id``, claimed and served by this process now; None
        where another process holds it (it is passed over, not asked for)."""
        ...

    async def parked(self, table_id: str) -> None:
        """This process parked ``table_id``: give its lease back at once."""
        ...

    async def seat_at(self, holder: str, table_id: str, seat: int, name: str) -> str:
        """Seat account ``name`` at ``seat`` of ``table_id``, which ``holder``
        keeps; the seat's token (raises :class:`Refused` if it did not)."""
        ...


class Hub:
    """Every table of this process, and the ways to make and find them."""

    def __init__(self, storage: Storage, settings: Settings, pool: BotPool) -> None:
        self.storage = storage
        self.settings = settings
        self.pool = pool
        self.tables: dict[str, Table] = {}
        self.gate = Gate(settings.limits)
        self.owners: Owners | None = None  # set when processes share the database
        # A table brought back into memory starts to play (Play.review).
        self.on_wake: Callable[[Table], None] = lambda table: None
        self._waking: dict[str, asyncio.Lock] = {}

    async def load_live(self) -> list[Table]:
        """Rebuild every waiting or playing table from the database."""
        revived = []
        for stored in await self.storage.load_live():
            try:
                table = await self._rebuild(stored)
            except CardtableError as exc:
                log.error("table %s cannot be rebuilt from its record: %s", stored.facts.id, exc)
                continue
            self.tables[table.id] = table
            revived.append(table)
        return revived

    async def resync(self, table: Table) -> None:
        """Make ``table``'s game what the database holds (after a write whose
        outcome is unknown), keeping its seats' connections."""
        try:
            stored = await self.storage.load(table.id)
            if stored is None:
                return
            fresh = await self._rebuild(stored)
        except Exception as exc:
            log_failure(log, exc, "table %s: cannot read it back from the database", table.id)
            return
        table.state, table.journal, table.facts.status = fresh.state, fresh.journal, fresh.status

    async def adopt(self, stored: StoredTable) -> Table:
        """Rebuild a table this process has just come to own, and hold it."""
        table = await self._rebuild(stored)
        self.tables[table.id] = table
        return table

    async def _rebuild(self, stored: StoredTable) -> Table:
        """:meth:`_revive`, storing the deal of a round the record did not start yet."""
        table = self._revive(stored)
        pending = table.journal.pending(table.state)
        if pending:  # the record stopped at the end of a round: store the new deal
            await self.storage.append(table.id, table.journal.stored, pending)
            table.journal.commit(pending)
        return table

    def _revive(self, stored: StoredTable) -> Table:
        facts, events = stored.facts, stored.events
        journal = Journal(events)
        record = journal.record(facts.game, facts.options)
        live = facts.status != "finished"
        # A tournament's finished table stays at its deal's end (Table.prepare).
        rng = random.Random(secrets.randbits(64)) if live else None
        state = load_record(record, rng, deal_next=facts.tournament is None)
        if facts.status == "waiting" and all(s.kind == "bot" or s.token_hash for s in facts.seats):
            facts.status = "playing"  # the last join's status write did not land; its seat did
        table = build_table(facts, load(facts.game, **facts.options), state, journal)
        table.chat.extend(stored.chat)
        table.chat_next = stored.chat[-1].n + 1 if stored.chat else 0
        return table

    async def get(self, table_id: str, keep: bool = False) -> Table:
        """The table ``table_id``, from memory or (a finished one) from the
        database; ``keep`` holds a finished one in memory while it has
        clients (so that all of them see a rematch)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not TABLE_ID.fullmatch(table_id):
            raise NotFound(table_id)
        if self.owners is not None and (owned := await self.owners.acquire(table_id)):
            return owned
        stored = await self.storage.load(table_id)
        if stored is None:
            raise NotFound(table_id)
        if self.owners is None and stored.facts.status in LIVE:  # parked (live/parking.py)
            return await self._wake(stored)
        table = self._revive(stored)
        return self.tables.setdefault(table_id, table) if keep else table

    async def wake(self, table_id: str) -> Table | None:
        """Parked ``table_id`` back in this process's memory (None: it is not
        live any more, or another process serves it)."""
        if (table := self.tables.get(table_id)) is not None:
            return table
        if self.owners is not None:
            return await self.owners.wake(table_id)
        stored = await self.storage.load(table_id)
        if stored is None or stored.facts.status not in LIVE:
            return None
        return await self._wake(stored)

    async def _wake(self, stored: StoredTable) -> Table:
        """Serve parked ``stored`` from memory again (one process alone: no
        lease to claim); one rebuild however many ask at once."""
        table_id = stored.facts.id
        lock = self._waking.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                if (table := self.tables.get(table_id)) is not None:
                    return table
                await self.storage.unpark(table_id)  # before any move is made
                table = await self.adopt(stored)
        finally:
            if not lock.locked():
                self._waking.pop(table_id, None)
        self.on_wake(table)
        return table

    async def live_lines(self, ids: list[str]) -> list[dict[str, Any]]:
        """The lobby lines of the live ones of ``ids``: this process's, the
        other processes' and, for a parked table, the line it was parked with."""
        lines = {i: entry(t) for i in ids if (t := self.tables.get(i)) and t.status in LIVE}
        elsewhere = [i for i in ids if i not in lines]
        if elsewhere and self.owners is not None:
            lines.update((line["id"], line) for line in await self.owners.live_lines(elsewhere))
            elsewhere = [i for i in ids if i not in lines]
        lines.update((line["id"], line) for line in await self.storage.parked_lines(elsewhere))
        return [lines[i] for i in ids if i in lines]

    def forget_if_idle(self, table: Table) -> None:
        """Drop a finished (or expired) table nobody looks at from memory (it stays on disk)."""
        if table.status in ("finished", "expired") and not table.clients:
            self.tables.pop(table.id, None)

    async def waiting_of(self, creator: str) -> int:
        """Tables ``creator`` made that wait for players (in every process,
        when several share the database: the database counts them)."""
        if self.owners is not None:
            return await self.storage.waiting_count(creator)
        return sum(
            1 for t in self.tables.values() if t.status == "waiting" and t.facts.creator == creator
        )

    async def create(
        self,
        new: NewTable,
        rematch_of: str | None = None,
        creator: str | None = None,
        table_id: str | None = None,
    ) -> Table:
        live = sum(1 for t in self.tables.values() if t.status in ("waiting", "playing"))
        if live >= self.settings.max_tables:
            raise BadInput(f"this server holds {live} open tables, its limit; try again later", 503)
        seed = secrets.randbits(64) if new.deal_seed is None else new.deal_seed
        state = new.game.new_game(random.Random(seed))
        journal = Journal()
        deal = journal.new_events(state)
        waiting = any(s.kind == "human" and s.token_hash is None for s in new.seats)
        facts = TableFacts(
            id=new_table_id() if table_id is None else table_id,
            game=new.game.name,
            options=new.game.options_json,
            private=new.private,
            turn_seconds=new.turn_seconds,
            bot_delay_ms=new.bot_delay_ms,
            stand_in=new.stand_in,
            status="waiting" if waiting else "playing",
            created_ms=int(self.settings.limits.clock() * 1000),
            seats=new.seats,
            rematch_of=rematch_of,
            creator=creator,
            rated=new.rated,
            move_hours=new.move_hours,
            on_timeout=new.on_timeout,
            tournament=new.tournament,
        )
        if new.move_hours is not None and not waiting:  # the first turn begins now
            facts.turn_started_ms = facts.created_ms
        await self.storage.create(facts, deal)
        table = build_table(facts, new.game, state, journal)
        self.tables[table.id] = table
        return table

    async def join(self, table: Table, seat: int, name: str, *, account: bool = False) -> str:
        """Seat a person at a free human seat; the seat's new secret token. A
        guest's name that another seat goes by gets a number (an account's name
        is who they are, and stays)."""
        async with table.lock:
            if table.status == "finished":
                raise Refused("the game is over; no seat can be taken")
            if table.status == "expired":
                raise Refused("this table expired before its seats were taken; make a new one")
            n = len(table.seats)
            if not 0 <= seat < n:
                raise Refused(f"there is no seat {seat}: seats are 0 to {n - 1}")
            s = table.seats[seat]
            if not s.human:
                raise Refused(f"seat {seat} is a bot's seat")
            if s.taken:
                raise Refused(f"seat {seat} is taken; choose a free seat or watch")
            if not account:  # two guests who left the name empty both send "Player"
                name = unique_name(name, [o.facts.name for o in table.seats if o is not s])
            token, digest = new_token()
            full = all(o.taken for o in table.seats if o is not s)
            status = "playing" if full else None
            await self.storage.set_seat(table.id, seat, name, digest, status)
            s.facts.name, s.facts.token_hash = name, digest
            if status is not None:
                if table.facts.turn_based:  # the first turn begins when the last seat is taken
                    started = int(self.settings.limits.clock() * 1000)
                    await self.storage.set_table(table.id, turn_started_ms=started)
                    table.facts.turn_started_ms = started
                # Only now, with no await between: a lobby line published meanwhile (the
                # heartbeat's, for "My games" on other processes) never shows a turn-based
                # table playing without the deadline of its first turn.
                table.facts.status = status
            table.note("joined", seat)
        return token

    async def rematch(self, old: Table, token: str) -> Table:
        """The table of the rematch (made on the first ask): same game,
        options, seats, names and tokens."""
        async with old.lock:
            if old.status != "finished":
                raise Refused("a rematch can start only when the game is over")
            if old.seat_for_token(token) is None:
                raise BadInput(f"this token belongs to no seat of table {old.id}", 403)
            if old.facts.tournament is not None:
                raise Refused(
                    "a tournament's table has no rematch: the next deal is at the tournament",
                    key="tournament.noRematch",
                )
            if old.facts.rematch_id is not None:
                return await self.get(old.facts.rematch_id)
            seats = [dataclasses.replace(s) for s in old.facts.seats]  # copies: names, tokens
            new = NewTable(
                old.game,
                seats,
                old.facts.private,
                old.facts.turn_seconds,
                old.facts.bot_delay_ms,
                old.facts.stand_in,
                old.facts.rated,
                old.facts.move_hours,
                old.facts.on_timeout,
            )
            try:
                table = await self.create(new, rematch_of=old.id, creator=old.facts.creator)
            except RematchExists:
                # Another process made it since this one read the old table:
                # everybody who asks goes to that one table.
                made = await self.storage.rematch_of(old.id)
                if made is None:
                    raise
                table = await self.get(made)
            await self.storage.set_finished_table(old.id, rematch_id=table.id)
            old.facts.rematch_id = table.id
            return table
