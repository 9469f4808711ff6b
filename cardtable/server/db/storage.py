"""Where tables live on disk: SQLAlchemy 2 async over SQLite or PostgreSQL.

Every write goes through a writer task (one for SQLite, a few for
PostgreSQL). It takes whatever writes are queued and commits them in one
transaction (group commit), then answers each caller; a move is
acknowledged only after its commit returned. Should a batch fail, its
writes are retried one by one so that one bad write does not sink the
others. Reads use their own connections.

When several processes share one PostgreSQL (``cardtable serve --redis``),
each write about a table carries the lease epoch this process holds for it
(:attr:`Storage.epochs`), and the transaction first checks that the lease is
still this process's at that epoch: a process that lost a table (its lease
ran out and another process claimed it) can never write to it again; its
write fails with :class:`LeaseLost`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    delete,
    event,
    func,
    insert,
    literal_column,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from cardtable.server.db.ratings import rate_table, table_changes
from cardtable.server.db.schema import analyses, chat, events, leases, parked, seats, tables
from cardtable.server.tables.chat import ChatLine
from cardtable.server.tables.facts import SeatFacts, TableFacts
from cardtable.server.tables.journal import Event
from cardtable.server.tables.outcomes import Outcome

log = logging.getLogger(__name__)

LIVE = ("waiting", "playing")
CLOSE_WAIT_SECONDS = 30.0  # at a stop, how long queued writes may take to commit
# The database's clock in milliseconds: every process of a deployment reads
# lease times from the same clock, whatever their machines' clocks say.
DB_NOW_MS = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"


# PostgreSQL's SQLSTATEs for a server that is not there to talk to: class 08
# (connection exceptions) and shutting down, crashed or still starting up.
_AWAY_STATES = ("08", "57P01", "57P02", "57P03")


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says that the database server could not be reached
    (stopped, restarting, the network between) rather than that a statement,
    the disk or our code failed. asyncpg's refused connection comes through
    SQLAlchemy as a bare network error (asyncio's "Multiple exceptions: …"
    when a host name has several addresses); a connection that died
    mid-statement as an invalidated DBAPIError; a server starting up or
    shutting down as a DBAPIError with its SQLSTATE."""
    if isinstance(exc, ConnectionError | TimeoutError | socket.gaierror):
        return True
    if type(exc) is OSError and str(exc).startswith("Multiple exceptions:"):
        return True
    if not isinstance(exc, DBAPIError):
        return False
    state = getattr(exc.orig, "sqlstate", None)
    return exc.connection_invalidated or (isinstance(state, str) and state.startswith(_AWAY_STATES))


def log_failure(logger: logging.Logger, exc: BaseException, message: str, *args: object) -> None:
    """Log a failed database call: one line for an outage (no traceback to
    read through while PostgreSQL restarts), the traceback for anything else."""
    if unreachable(exc):
        logger.warning(message + ": the database is unreachable (%s)", *args, exc)
    else:
        logger.error(message, *args, exc_info=exc)


class LeaseLost(Exception):
    """This process no longer holds the lease of the table it wrote for."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: another server process holds its lease now")
        self.table_id = table_id


class RematchExists(Exception):
    """The finished table already has its rematch: another process stored it
    first (the database holds one rematch per table)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: its rematch is stored already")
        self.table_id = table_id


@dataclass(slots=True)
class StoredTable:
    """A table as read back: its facts, its events and its chat in order."""

    facts: TableFacts
    events: list[Event]
    chat: list[ChatLine] = field(default_factory=list)


@dataclass(slots=True)
class AnalysisRow:
    """One seat's analysis of a finished table: asked for, then done or failed."""

    table_id: str
    seat: int
    status: str  # "pending", "done" or "failed"
    budget: float
    seed: int
    requested_ms: int
    result: str | None = None  # JSON text, once done
    error: str | None = None


# --- writes: small values the writer turns into statements -----------------


@dataclass(slots=True)
class _Create:
    facts: TableFacts
    events: Sequence[Event]
    owner: str | None  # the process that owns the new table (epoch 1), if processes share
    lease_ms: int


@dataclass(slots=True)
class _Append:
    table_id: str
    first: int  # the number of the first new event
    new: Sequence[Event]
    status: str | None  # a new status written in the same transaction
    outcome: Outcome | None  # the game's end: rated in the same transaction
    epoch: int | None  # the lease epoch it is written under (None: one process alone)
    # A turn-based table's next turn began (the deadline's start), in the same transaction.
    turn_started_ms: int | None = None
    # A turn-based table dropped the person at a seat (seat, dropped_ms), in the same transaction.
    dropped: tuple[int, int] | None = None


@dataclass(slots=True)
class _Seat:
    table_id: str
    seat: int
    name: str
    token_hash: str
    status: str | None  # a new status written in the same transaction
    epoch: int | None


@dataclass(slots=True)
class _Table:
    table_id: str
    values: dict[str, Any]
    epoch: int | None


@dataclass(slots=True)
class _Analysis:
    row: AnalysisRow
    new: bool  # insert (a first request) rather than update


@dataclass(slots=True)
class _Chat:
    table_id: str
    line: ChatLine


@dataclass(slots=True)
class _Park:
    table_id: str
    due_ms: int
    line: dict[str, Any]
    parked_ms: int
    epoch: int | None


_Write = _Create | _Append | _Seat | _Table | _Analysis | _Chat | _Park


def _migrate(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", "cardtable.server.db:migrations")
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _sqlite_pragmas(engine: Engine) -> None:
    # WAL: readers never block the writer. synchronous=NORMAL: a commit is in
    # the WAL file before it returns, so it survives the process being killed.
    @event.listens_for(engine, "connect")
    def pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def _shared_settings(url: str, owner: str | None, lease_ms: int) -> dict[str, Any]:
    """Engine options when processes share PostgreSQL. A process stalled in
    the middle of a transaction (stopped, swapped out) keeps its row locks,
    and the others' ``SKIP LOCKED`` claims pass over those rows for as long as
    it stalls: its tables and analysis jobs could never move. PostgreSQL
    therefore ends such a transaction once it has idled for a lease."""
    if owner is None or not url.startswith("postgresql+asyncpg"):
        return {}
    timeout = {"idle_in_transaction_session_timeout": str(lease_ms)}
    return {"connect_args": {"server_settings": timeout}}


class Storage:
    """The database of one server process."""

    def __init__(self, url: str, owner: str | None = None, lease_seconds: float = 5.0) -> None:
        self.url = url
        # Several processes share the database: this one's name in the
        # leases, and the epoch of each table it holds. Without an owner the
        # process is alone and nothing is fenced (the SQLite default).
        self.owner = owner
        self.lease_ms = int(lease_seconds * 1000)
        self.epochs: dict[str, int] = {}
        self.engine: AsyncEngine = create_async_engine(
            url, **_shared_settings(url, owner, self.lease_ms)
        )
        if self.engine.dialect.name == "sqlite":
            _sqlite_pragmas(self.engine.sync_engine)
        self._queue: asyncio.Queue[tuple[_Write, asyncio.Future[None]]] = asyncio.Queue()
        self._writers: list[asyncio.Task[None]] = []
        # SQLite has one writer at a time. PostgreSQL commits in parallel and
        # each commit waits for its WAL flush, so several writers keep the
        # disk busy. A table has at most one write pending (the caller holds
        # the table's lock), so a table's writes stay in order either way.
        self.writers = 1 if self.engine.dialect.name == "sqlite" else 4

    async def open(self) -> None:
        """Migrate the schema to the newest version and start the writer."""
        async with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # The migrations are one transaction that may pause between its
                # statements longer than a lease on a loaded machine: the idle
                # limit that frees a stalled process's rows is not for it.
                await conn.execute(text("SET LOCAL idle_in_transaction_session_timeout = 0"))
            await conn.run_sync(_migrate)
        self._writers = [
            asyncio.create_task(self._write_loop(), name=f"storage-writer-{i}")
            for i in range(self.writers)
        ]

    async def flush(self) -> None:
        """Wait until whatever is queued is committed (for a while, should the
        database be gone)."""
        if self._writers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queue.join(), CLOSE_WAIT_SECONDS)

    async def close(self) -> None:
        """Commit whatever is queued, then stop the writers."""
        await self.flush()
        for writer in self._writers:
            writer.cancel()
        await asyncio.gather(*self._writers, return_exceptions=True)
        await self.engine.dispose()

    # --- writes -------------------------------------------------------------
    async def create(self, facts: TableFacts, events: Sequence[Event]) -> None:
        """Store a new table with its first events (the first deal); when
        processes share the database, this one owns it from now (epoch 1)."""
        await self._submit(_Create(facts, events, self.owner, self.lease_ms))
        if self.owner is not None:
            self.epochs[facts.id] = 1

    async def append(
        self,
        table_id: str,
        first: int,
        new: Sequence[Event],
        status: str | None = None,
        outcome: Outcome | None = None,
        turn_started_ms: int | None = None,
        dropped: tuple[int, int] | None = None,
    ) -> None:
        """Store new events; with ``outcome`` (the last move, or a turn-based
        game ended on time) the table is rated in the same transaction, its
        changes left in ``outcome.changes``; with ``turn_started_ms`` (a
        turn-based table) the next turn's start is stored with the move that
        began it; with ``dropped`` (seat, when) a turn-based table dropped
        that person (out of time: a bot plays the seat for the rest of the
        game, across restarts) with the deadline event that says so."""
        await self._submit(
            _Append(
                table_id,
                first,
                new,
                status,
                outcome,
                self._epoch(table_id),
                turn_started_ms,
                dropped,
            )
        )

    async def set_seat(
        self, table_id: str, seat: int, name: str, token_hash: str, status: str | None = None
    ) -> None:
        await self._submit(_Seat(table_id, seat, name, token_hash, status, self._epoch(table_id)))

    async def set_table(self, table_id: str, **values: Any) -> None:
        await self._submit(_Table(table_id, values, self._epoch(table_id)))

    async def set_finished_table(self, table_id: str, **values: Any) -> None:
        """A write about a finished table (its rematch's id): no lease holds a
        finished table (the heartbeat released it), so none fences the write."""
        await self._submit(_Table(table_id, values, None))

    def _epoch(self, table_id: str) -> int | None:
        """The epoch a write about ``table_id`` carries; refused at once when
        processes share the database and this one holds no lease on it."""
        if self.owner is None:
            return None
        epoch = self.epochs.get(table_id)
        if epoch is None:
            raise LeaseLost(table_id)
        return epoch

    async def park(self, table_id: str, due_ms: int, line: dict[str, Any], now_ms: int) -> None:
        """Mark turn-based ``table_id`` as at rest until ``due_ms``, with its
        lobby line ``line`` (cardtable/server/live/parking.py); fenced like a
        move, so a process that lost the table cannot park it."""
        await self._submit(_Park(table_id, due_ms, line, now_ms, self._epoch(table_id)))

    async def unpark(self, table_id: str) -> None:
        """``table_id`` is back in a process's memory: no longer at rest."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(parked).where(parked.c.table_id == table_id))

    async def parked_due(self, now_ms: int, limit: int) -> list[str]:
        """Up to ``limit`` resting tables, still live, due back by ``now_ms``
        (the most overdue first)."""
        query = (
            select(parked.c.table_id)
            .join(tables, tables.c.id == parked.c.table_id)
            .where(parked.c.due_ms <= now_ms, tables.c.status.in_(LIVE))
            .order_by(parked.c.due_ms)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return list((await conn.scalars(query)).all())

    async def parked_lines(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        """The lobby lines of those of ``ids`` that are at rest."""
        if not ids:
            return []
        query = select(parked.c.line).where(parked.c.table_id.in_(list(ids)))
        async with self.engine.connect() as conn:
            return [json.loads(line) for line in (await conn.scalars(query)).all()]

    async def put_analysis(self, row: AnalysisRow, new: bool) -> None:
        """Store a seat's analysis row: ``new`` inserts it, else it is updated."""
        await self._submit(_Analysis(row, new))

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        """Store a chat line of ``table_id`` (committed when this returns)."""
        await self._submit(_Chat(table_id, line))

    async def _submit(self, write: _Write) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._queue.put((write, done))
        await done

    async def _write_loop(self) -> None:
        # Each writer keeps its own connection: no pool checkout (and reset)
        # per commit, which costs a round trip to PostgreSQL each time.
        conn: AsyncConnection | None = None
        try:
            while True:
                batch = [await self._queue.get()]
                while not self._queue.empty() and len(batch) < 1000:
                    batch.append(self._queue.get_nowait())
                try:
                    if conn is None:
                        conn = await self.engine.connect()
                    failed = await self._store(conn, [w for w, _ in batch])
                except Exception:
                    await _discard(conn)  # it may be broken
                    conn = None
                    failed = [await self._commit_alone(w) for w, _ in batch]
                for (_, done), error in zip(batch, failed, strict=True):
                    self._queue.task_done()
                    if done.done():
                        continue
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        finally:
            if conn is not None:
                await conn.close()

    async def _commit_alone(self, write: _Write) -> BaseException | None:
        try:
            async with self.engine.connect() as conn:
                await self._commit(conn, [write])
        except LeaseLost as exc:  # expected once a table moved: its caller lets it go
            log.warning("%s", exc)
            return exc
        except IntegrityError as exc:
            if isinstance(write, _Create) and write.facts.rematch_of is not None:
                # Expected when two processes make one rematch: the caller takes theirs.
                return RematchExists(write.facts.rematch_of)
            log.exception("storing %s failed", type(write).__name__)
            return exc
        except Exception as exc:
            log_failure(log, exc, "storing %s failed", type(write).__name__)
            return exc
        return None

    async def _store(
        self, conn: AsyncConnection, writes: list[_Write]
    ) -> list[BaseException | None]:
        """Commit ``writes``; what failed, write by write (``LeaseLost``)."""
        if self.owner is not None and all(_plain_move(w) for w in writes):
            moves = cast(list[_Append], writes)
            lost = await _append_fenced(conn, self.owner, moves)
            for table_id in sorted({table_id for table_id, _ in lost}):
                log.warning("%s", LeaseLost(table_id))
            return [LeaseLost(w.table_id) if (w.table_id, w.epoch) in lost else None for w in moves]
        await self._commit(conn, writes)
        return [None] * len(writes)

    async def _commit(self, conn: AsyncConnection, writes: list[_Write]) -> None:
        async with conn.begin():
            event_rows: list[dict[str, Any]] = []
            await self._fence(conn, writes)
            for write in writes:
                if isinstance(write, _Append):
                    event_rows.extend(
                        _event_rows(write.table_id, write.first, write.new, write.epoch)
                    )
                    values = {
                        k: v
                        for k, v in (
                            ("status", write.status),
                            ("turn_started_ms", write.turn_started_ms),
                        )
                        if v is not None
                    }
                    if values:
                        await _flush(conn, event_rows)
                        await conn.execute(
                            update(tables).where(tables.c.id == write.table_id).values(values)
                        )
                    if write.dropped is not None:
                        await _flush(conn, event_rows)
                        seat, dropped_ms = write.dropped
                        await conn.execute(
                            update(seats)
                            .where(seats.c.table_id == write.table_id, seats.c.seat == seat)
                            .values(dropped_ms=dropped_ms)
                        )
                    if write.outcome is not None:
                        await _flush(conn, event_rows)
                        write.outcome.changes = await rate_table(conn, write.outcome)
                    continue
                await _flush(conn, event_rows)
                await _execute(conn, write)
            await _flush(conn, event_rows)

    async def _fence(self, conn: AsyncConnection, writes: list[_Write]) -> None:
        """Refuse the transaction unless this process still holds every table
        the writes are about, at the epoch each carries. The lease rows stay
        locked until the commit, so no claim (``FOR UPDATE SKIP LOCKED``)
        slips in between; they are locked in table order, as the heartbeat
        locks them, so two transactions never wait on each other in a circle.
        Every write's epoch is checked: one batch may hold a table's writes
        under two epochs (queued before this process lost the table, and
        after it claimed it again)."""
        wanted = {
            (w.table_id, w.epoch)
            for w in writes
            if isinstance(w, _Append | _Seat | _Table | _Park) and w.epoch is not None
        }
        if not wanted:
            return
        rows = await conn.execute(
            select(leases.c.table_id, leases.c.owner, leases.c.epoch)
            .where(leases.c.table_id.in_(sorted({table_id for table_id, _ in wanted})))
            .order_by(leases.c.table_id)
            .with_for_update(read=True)
        )
        found = {r.table_id: (r.owner, r.epoch) for r in rows}
        for table_id, epoch in sorted(wanted):
            if found.get(table_id) != (self.owner, epoch):
                raise LeaseLost(table_id)

    # --- reads --------------------------------------------------------------
    async def load(self, table_id: str) -> StoredTable | None:
        rows = await self._load(tables.c.id == table_id)
        return rows[0] if rows else None

    async def load_live(self) -> list[StoredTable]:
        """Every table still waiting or playing, except those at rest: what a
        restart brings back."""
        resting = select(parked.c.table_id).where(parked.c.table_id == tables.c.id)
        return await self._load(tables.c.status.in_(LIVE) & ~resting.exists())

    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the stored rematch of ``table_id``, if one was made."""
        query = select(tables.c.id).where(tables.c.rematch_of == table_id)
        async with self.engine.connect() as conn:
            found: str | None = await conn.scalar(query)
        return found

    async def recent_creators(self, since_ms: int) -> list[tuple[str, int]]:
        """(creator, created_ms) of every table made since ``since_ms``, oldest
        first: the create limits' memory after a restart."""
        query = (
            select(tables.c.creator, tables.c.created_ms)
            .where(tables.c.created_ms >= since_ms, tables.c.creator.is_not(None))
            .order_by(tables.c.created_ms)
        )
        async with self.engine.connect() as conn:
            return [(r[0], r[1]) for r in (await conn.execute(query)).all()]

    async def waiting_count(self, creator: str) -> int:
        """How many tables ``creator`` made wait for players now."""
        query = (
            select(func.count())
            .select_from(tables)
            .where(tables.c.status == "waiting", tables.c.creator == creator)
        )
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def load_chat(self, table_id: str) -> list[ChatLine]:
        """Every chat line of one table, in order: what its replay shows."""
        async with self.engine.connect() as conn:
            return [line for _, line in await _chat_rows(conn, [table_id])]

    async def load_analyses(self, table_id: str) -> list[AnalysisRow]:
        """The analysis rows of one table, by seat."""
        return await self._analyses(analyses.c.table_id == table_id)

    async def pending_analyses(self) -> list[AnalysisRow]:
        """Every analysis asked for and not done: what a restart resumes."""
        return await self._analyses(analyses.c.status == "pending")

    async def _analyses(self, where: Any) -> list[AnalysisRow]:
        query = select(analyses).where(where).order_by(analyses.c.requested_ms, analyses.c.seat)
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).mappings().all()
        return [
            AnalysisRow(
                r["table_id"],
                r["seat"],
                r["status"],
                float(r["budget"]),
                r["seed"],
                r["requested_ms"],
                r["result"],
                r["error"],
            )
            for r in found
        ]

    async def _load(self, where: Any) -> list[StoredTable]:
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(tables).where(where))).mappings().all()
            ids = [r["id"] for r in found]
            if not ids:
                return []
            seat_rows = (
                await conn.execute(
                    select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.seat)
                )
            ).mappings()
            event_rows = (
                await conn.execute(
                    select(events).where(events.c.table_id.in_(ids)).order_by(events.c.n)
                )
            ).mappings()
            by_id = {r["id"]: StoredTable(_table_facts(r), []) for r in found}
            for s in seat_rows:
                by_id[s["table_id"]].facts.seats.append(
                    SeatFacts(
                        s["seat"], s["kind"], s["bot"], s["name"], s["token_hash"], s["dropped_ms"]
                    )
                )
            for e in event_rows:
                by_id[e["table_id"]].events.append((e["kind"], json.loads(e["data"])))
            finished = [r["id"] for r in found if r["status"] == "finished"]
            if finished:
                for table_id, changes in (await table_changes(conn, finished)).items():
                    by_id[table_id].facts.ratings = changes
            for table_id, line in await _chat_rows(conn, ids):
                by_id[table_id].chat.append(line)
        return list(by_id.values())


async def _chat_rows(conn: AsyncConnection, ids: list[str]) -> list[tuple[str, ChatLine]]:
    """(table id, line) of every chat line of the tables ``ids``, each table's in order."""
    query = select(chat).where(chat.c.table_id.in_(ids)).order_by(chat.c.table_id, chat.c.n)
    return [
        (
            r["table_id"],
            ChatLine(
                r["n"],
                r["channel"],
                r["seat"],
                r["name"],
                r["text"],
                r["phrase"],
                r["move"],
                r["at_ms"],
            )
            if r["removed_ms"] is None
            else ChatLine(
                r["n"], r["channel"], r["seat"], r["name"], None, None, r["move"], r["at_ms"], True
            ),
        )
        for r in (await conn.execute(query)).mappings()
    ]


async def _discard(conn: AsyncConnection | None) -> None:
    if conn is not None:
        with contextlib.suppress(Exception):
            await conn.close()


def _table_facts(r: Any) -> TableFacts:
    return TableFacts(
        id=r["id"],
        game=r["game"],
        options=json.loads(r["options"]),
        private=bool(r["private"]),
        turn_seconds=r["turn_seconds"],
        bot_delay_ms=r["bot_delay_ms"],
        stand_in=r["stand_in"],
        status=r["status"],
        created_ms=r["created_ms"],
        seats=[],
        rematch_of=r["rematch_of"],
        rematch_id=r["rematch_id"],
        creator=r["creator"],
        abandoned_ms=r["abandoned_ms"],
        rated=bool(r["rated"]),
        move_hours=r["move_hours"],
        on_timeout=r["on_timeout"],
        turn_started_ms=r["turn_started_ms"],
        tournament=r["tournament_id"],
    )


def _event_rows(
    table_id: str, first: int, new: Sequence[Event], epoch: int | None
) -> list[dict[str, Any]]:
    return [
        {
            "table_id": table_id,
            "n": first + i,
            "kind": kind,
            "data": json.dumps(data),
            "epoch": epoch,
        }
        for i, (kind, data) in enumerate(new)
    ]


def _plain_move(write: _Write) -> bool:
    """A write that only appends events under a lease: the bulk of them."""
    return (
        isinstance(write, _Append)
        and write.status is None
        and write.outcome is None
        and write.turn_started_ms is None
        and write.dropped is None
        and write.epoch is not None
    )


# The fence and the append in one statement (PostgreSQL). The lease rows are
# read FOR SHARE in table order, as _fence and the heartbeat lock them; an
# event is inserted only where its table's row still names this process at
# the event's epoch, and the statement commits on its own. A move thus costs
# one round trip instead of four (BEGIN, the fence, the insert, COMMIT):
# measured with three processes on two cores, that halved the ack's p99.
_APPEND_FENCED = """
WITH held AS (
    SELECT table_id, epoch FROM ct_leases
    WHERE table_id = ANY($1::text[]) AND owner = $2
    ORDER BY table_id FOR SHARE
)
INSERT INTO ct_events (table_id, n, kind, data, epoch)
SELECT v.table_id, v.n, v.kind, v.data, v.epoch
FROM unnest($3::text[], $4::int[], $5::text[], $6::text[], $7::int[])
    AS v(table_id, n, kind, data, epoch)
JOIN held ON held.table_id = v.table_id AND held.epoch = v.epoch
RETURNING table_id, epoch
"""


async def _append_fenced(
    conn: AsyncConnection, owner: str, writes: list[_Append]
) -> set[tuple[str, int | None]]:
    """Append ``writes``' events where this process still holds the table at
    the write's epoch; the (table, epoch) of the writes not stored (their
    table is no longer held at that epoch: another process has it, or this
    one claimed it again since)."""
    rows = [r for w in writes for r in _event_rows(w.table_id, w.first, w.new, w.epoch)]
    raw = (await conn.get_raw_connection()).driver_connection
    assert raw is not None
    # Outside a transaction of SQLAlchemy's: asyncpg runs the statement in
    # one implicit transaction of its own.
    stored = await raw.fetch(
        _APPEND_FENCED,
        sorted({w.table_id for w in writes}),
        owner,
        *([r[key] for r in rows] for key in ("table_id", "n", "kind", "data", "epoch")),
    )
    return {(r["table_id"], r["epoch"]) for r in rows} - {
        (r["table_id"], r["epoch"]) for r in stored
    }


async def _flush(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(insert(events), rows)
        rows.clear()


async def _execute(conn: AsyncConnection, write: _Write) -> None:
    if isinstance(write, _Create):
        facts = write.facts
        await conn.execute(
            insert(tables).values(
                id=facts.id,
                game=facts.game,
                options=json.dumps(facts.options),
                private=facts.private,
                turn_seconds=facts.turn_seconds,
                bot_delay_ms=facts.bot_delay_ms,
                stand_in=facts.stand_in,
                status=facts.status,
                created_ms=facts.created_ms,
                rematch_of=facts.rematch_of,
                rematch_id=facts.rematch_id,
                creator=facts.creator,
                abandoned_ms=facts.abandoned_ms,
                rated=facts.rated,
                move_hours=facts.move_hours,
                on_timeout=facts.on_timeout,
                turn_started_ms=facts.turn_started_ms,
                tournament_id=facts.tournament,
            )
        )
        await conn.execute(
            insert(seats),
            [
                {
                    "table_id": facts.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "dropped_ms": s.dropped_ms,
                }
                for s in facts.seats
            ],
        )
        owned = write.owner is not None
        await conn.execute(
            insert(leases).values(
                table_id=facts.id,
                owner=write.owner,
                epoch=1 if owned else 0,
                expires_ms=literal_column(f"{DB_NOW_MS} + {write.lease_ms}") if owned else 0,
            )
        )
        await _flush(conn, _event_rows(facts.id, 0, write.events, 1 if owned else None))
    elif isinstance(write, _Seat):
        await conn.execute(
            update(seats)
            .where(seats.c.table_id == write.table_id, seats.c.seat == write.seat)
            .values(name=write.name, token_hash=write.token_hash)
        )
        if write.status is not None:
            await conn.execute(
                update(tables).where(tables.c.id == write.table_id).values(status=write.status)
            )
    elif isinstance(write, _Table):
        await conn.execute(update(tables).where(tables.c.id == write.table_id).values(write.values))
    elif isinstance(write, _Park):
        await conn.execute(delete(parked).where(parked.c.table_id == write.table_id))
        await conn.execute(
            insert(parked).values(
                table_id=write.table_id,
                due_ms=write.due_ms,
                line=json.dumps(write.line),
                parked_ms=write.parked_ms,
            )
        )
    elif isinstance(write, _Chat):
        line = write.line
        await conn.execute(
            insert(chat).values(
                table_id=write.table_id,
                n=line.n,
                channel=line.channel,
                seat=line.seat,
                name=line.name,
                text=line.text,
                phrase=line.phrase,
                move=line.move,
                at_ms=line.at_ms,
            )
        )
    elif isinstance(write, _Analysis):
        asked = write.row
        values = {
            "status": asked.status,
            "budget": asked.budget,
            "seed": asked.seed,
            "requested_ms": asked.requested_ms,
            "result": asked.result,
            "error": asked.error,
            # A seat asked for again, or finished, is nobody's job any more.
            "claimed_by": None,
            "claimed_until_ms": None,
            "progress": None,
        }
        if write.new:
            await conn.execute(
                insert(analyses).values(table_id=asked.table_id, seat=asked.seat, **values)
            )
        else:
            await conn.execute(
                update(analyses)
                .where(analyses.c.table_id == asked.table_id, analyses.c.seat == asked.seat)
                .values(values)
            )
