"""Analyses of finished games: asked for over HTTP, judged in the worker pool,
stored so that each seat of a game is analyzed once.

A request names a seat or every seat of a finished table. Each seat not yet
analyzed gets a ``pending`` row in ``ct_analyses`` (committed before the
answer) and joins a queue; one runner works through the queue, a seat at a
time, each decision a job of its own in the bot pool
(:mod:`cardtable.server.live.analysis_work`), at most as many at once as the pool
has workers, so bots at other tables wait for one decision at most. When a
seat is done its result is stored (``done``, with its JSON); at start every
``pending`` row joins the queue again, so a restart loses only the work in
progress. Progress (decisions judged so far) is kept in memory.

Every seat of a table is analyzed with the same budget and seed (those of
its first request; the seed is always :data:`SEED`), so the seats' results
merge into the document one ``cardtable analyze --json`` run would print.

When several processes share one PostgreSQL (``cardtable serve --redis``),
the queue is the table itself (:mod:`cardtable.server.db.analysis_queue`): any
process takes the next pending seat, whoever asked, and every process reads
a seat's state and progress from its row.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import operator
from collections import deque
from dataclasses import dataclass
from typing import Any

from cardtable.analysis import SeatAnalysis
from cardtable.core.registry import manifest
from cardtable.server.clock import now_ms
from cardtable.server.db.analysis_queue import AnalysisQueue
from cardtable.server.db.storage import AnalysisRow
from cardtable.server.live.analysis_work import AnalysisJob, analyze_part, merge_results
from cardtable.server.live.hub import Hub
from cardtable.server.tables.table import Refused, Table
from cardtable.server.wire import BadInput

__all__ = ["MAX_WAITING", "SEED", "Analyses"]

log = logging.getLogger(__name__)

SEED = 0  # the analysis seed: the same numbers for everybody who asks
MAX_WAITING = 64  # seats queued at once; beyond that a request is refused for now
POLL_SECONDS = 0.5  # several processes: how often an idle runner looks for a pending seat

Key = tuple[str, int]  # (table id, seat)


@dataclass
class _Work:
    """A queued seat: its budget and seed, and how far it has got."""

    row: AnalysisRow
    running: bool = False
    done: int = 0


class Analyses:
    """The analysis queue of one server process (or its side of the shared
    one, given ``shared``) and its runner."""

    def __init__(self, hub: Hub, budget: float, shared: AnalysisQueue | None = None) -> None:
        self.hub = hub
        self.budget = budget
        self.shared = shared
        self._queue: deque[Key] = deque()
        self._work: dict[Key, _Work] = {}
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()  # one request at a time decides what to insert
        self._runner: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Queue every seat asked for before a restart; start the runner.
        (Shared, the pending rows are the queue: nothing to gather.)"""
        if self.shared is not None:
            self._runner = asyncio.create_task(self._run_shared(self.shared), name="analyses")
            return
        for row in await self.hub.storage.pending_analyses():
            self._enqueue(row)
        self._runner = asyncio.create_task(self._run(), name="analyses")

    async def stop(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)

    # --- requests -------------------------------------------------------------
    async def request(self, table: Table, seat: int | None) -> tuple[dict[str, Any], bool]:
        """Queue ``seat`` (``None``: every seat) of a finished table where it is
        not analyzed or its analysis failed; the document now and whether
        anything was queued."""
        seats = self._seats(table, seat)
        async with self._lock:
            rows = {r.seat: r for r in await self.hub.storage.load_analyses(table.id)}
            wanted = [s for s in seats if s not in rows or rows[s].status == "failed"]
            waiting = len(self._queue) if self.shared is None else await self.shared.waiting()
            if waiting + len(wanted) > MAX_WAITING:
                raise BadInput(
                    f"{waiting} analyses are waiting on this server; try again later",
                    503,
                )
            first = next(iter(rows.values()), None)
            budget = self.budget if first is None else first.budget
            for s in wanted:
                row = AnalysisRow(table.id, s, "pending", budget, SEED, now_ms())
                await self.hub.storage.put_analysis(row, new=s not in rows)
                if self.shared is None:
                    self._enqueue(row)
            self._wake.set()  # shared: this process looks at once, the others at their poll
        return await self.document(table, seat), bool(wanted)

    async def document(self, table: Table, seat: int | None) -> dict[str, Any]:
        """What is known of the analysis of ``seat`` (``None``: every seat):
        ``{table, status, seats:[{seat, status, done, total, ahead, error}],
        analysis, notes}`` (docs/server.md)."""
        seats = self._seats(table, seat)
        # This process's progress is read before the rows: a seat that finishes
        # while they load then shows its last progress, never a stale row's zero.
        local = {
            s: (work.running, work.done, self._queue.index((table.id, s)))
            for s in seats
            if (work := self._work.get((table.id, s))) is not None
        }
        rows = {r.seat: r for r in await self.hub.storage.load_analyses(table.id)}
        totals = _decisions(table)
        order: list[Key] = []
        running: dict[Key, int] = {}
        if self.shared is not None and any(r.status == "pending" for r in rows.values()):
            order, running = await self.shared.states()
        entries, results = [], []
        for s in seats:
            entry: dict[str, Any] = {
                "seat": s,
                "status": "none",
                "done": 0,
                "total": totals[s],
                "ahead": None,
                "error": None,
            }
            row = rows.get(s)
            if s in local and not (row is not None and row.status != "pending"):
                running_here, done, ahead = local[s]
                entry["status"] = "running" if running_here else "pending"
                entry["done"] = done
                entry["ahead"] = ahead
            elif row is not None and row.status == "pending" and (table.id, s) in order:
                # Shared: the row says who works on it and how far they got.
                entry["status"] = "running" if (table.id, s) in running else "pending"
                entry["done"] = running.get((table.id, s), 0)
                entry["ahead"] = order.index((table.id, s))
            elif row is not None:
                entry["status"] = row.status
                if row.status == "done" and row.result is not None:
                    results.append(json.loads(row.result))
                    entry["done"] = totals[s]
                entry["error"] = row.error
            entries.append(entry)
        merged = merge_results(results)
        return {
            "table": table.id,
            "status": _overall([e["status"] for e in entries]),
            "seats": entries,
            "analysis": None if merged is None else merged["analysis"],
            "notes": None if merged is None else merged["notes"],
        }

    def _seats(self, table: Table, seat: int | None) -> list[int]:
        """The seats asked for, after checking that they can be analyzed."""
        if table.status != "finished":
            raise Refused("an analysis is offered once the game is over")
        if not manifest(table.game.name).has("determinize"):
            raise Refused(
                f"{table.game.name} offers no resampling of hidden cards, so it cannot be analyzed"
            )
        n = table.game.num_players
        if seat is None:
            return list(range(n))
        if not 0 <= seat < n:
            raise BadInput(f"there is no seat {seat}: seats are 0 to {n - 1}")
        return [seat]

    # --- the runner -----------------------------------------------------------
    def _enqueue(self, row: AnalysisRow) -> None:
        key = (row.table_id, row.seat)
        if key not in self._work:
            self._work[key] = _Work(row)
            self._queue.append(key)
            self._wake.set()

    async def _run(self) -> None:
        while True:
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            key = self._queue[0]
            work = self._work[key]
            try:
                await self._analyze(work)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.exception("analyzing seat %s of table %s failed", key[1], key[0])
                await self._store(work, "failed", error=_why(exc))
            finally:
                self._queue.popleft()
                del self._work[key]

    async def _run_shared(self, queue: AnalysisQueue) -> None:
        """Take the next pending seat of the deployment, analyze it while
        renewing the claim, store it; when there is none, wait for a request
        here or the next poll."""
        while True:
            try:
                row = await queue.claim()
            except Exception:
                log.exception("looking for an analysis to run failed")
                row = None
            if row is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
                continue
            await self._run_claimed(queue, _Work(row))

    async def _run_claimed(self, queue: AnalysisQueue, work: _Work) -> None:
        row = work.row
        task = asyncio.create_task(self._judge(work))
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=queue.claim_ms / 3000)
                if not task.done() and not await self._renew(queue, work):
                    log.warning("the analysis of table %s was taken over", row.table_id)
                    task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            if task.cancelled():
                return
            exc = task.exception()
            if isinstance(exc, Exception):
                log.error("analyzing seat %s of table %s failed", row.seat, row.table_id)
                await queue.finish(row, "failed", error=_why(exc))
            elif exc is None:
                await queue.finish(row, "done", result=task.result())
        except asyncio.CancelledError:
            raise
        except Exception:
            # It stays pending: once the claim runs out a process tries again.
            log.exception("storing the analysis of table %s failed", row.table_id)
        finally:
            task.cancel()

    @staticmethod
    async def _renew(queue: AnalysisQueue, work: _Work) -> bool:
        """Renew the claim; a database hiccup keeps going (the claim may still run)."""
        try:
            return await queue.renew(work.row, work.done)
        except Exception:
            log.exception("renewing the analysis claim of table %s failed", work.row.table_id)
            return True

    async def _analyze(self, work: _Work) -> None:
        await self._store(work, "done", result=await self._judge(work))

    async def _judge(self, work: _Work) -> str:
        """The seat's result as JSON text, judged a decision a job in the pool."""
        row = work.row
        table = await self.hub.get(row.table_id)
        record = json.dumps(table.record())
        total = _decisions(table)[row.seat]
        work.running = True
        limit = asyncio.Semaphore(self.hub.pool.workers)

        async def judge(indices: tuple[int, ...]) -> SeatAnalysis:
            async with limit:
                job = AnalysisJob(record, row.seat, indices, row.budget, row.seed)
                part = await self.hub.pool.run(analyze_part, job)
            work.done += len(indices)
            return part

        # One job a decision (a seat without any still gets its document).
        async with asyncio.TaskGroup() as group:
            jobs = [group.create_task(judge((i,))) for i in range(total)] or [
                group.create_task(judge(()))
            ]
        result = functools.reduce(operator.add, (job.result() for job in jobs))
        return json.dumps(result.to_json())

    async def _store(self, work: _Work, status: str, **values: str) -> None:
        row = work.row
        done = AnalysisRow(
            row.table_id, row.seat, status, row.budget, row.seed, row.requested_ms, **values
        )
        try:
            await self.hub.storage.put_analysis(done, new=False)
        except Exception:
            # It stays pending on disk: the next start tries again.
            log.exception("storing the analysis of table %s failed", row.table_id)


def _decisions(table: Table) -> list[int]:
    """How many decisions each seat made in the game."""
    counts = [0] * table.game.num_players
    for kind, data in table.journal.events:
        if kind == "move":
            counts[data["seat"]] += 1
    return counts


def _overall(statuses: list[str]) -> str:
    """One word for several seats: done when all are, else the liveliest."""
    if all(s == "done" for s in statuses):
        return "done"
    for status in ("running", "pending", "failed"):
        if status in statuses:
            return status
    return "none"


def _why(exc: Exception) -> str:
    if isinstance(exc, ExceptionGroup):
        exc = exc.exceptions[0] if isinstance(exc.exceptions[0], Exception) else exc
    return f"the analysis stopped: {type(exc).__name__}; ask again to retry"
