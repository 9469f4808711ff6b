"""The analysis queue across ``cardtable serve --redis`` processes on one
PostgreSQL: a seat asked of one process is analyzed by another when the
first is stopped or killed, and the asking side reads the result as before
(``GET …/analysis``). Waits are bounded polls; nothing is timed."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from cardtable.server.db.schema import analyses
from tests.server import topology
from tests.server.helpers import run_coroutine
from tests.server.processes import get, post

# Bounds every poll below; only a hang should reach it. A bot game and an
# analysis are fixed work: on a two-core machine shared with other runs (load
# 15-29) the first game alone outlasted a 60 s bound, where an idle machine
# takes seconds. The suite's 300 s per test bounds the whole.
WAIT_SECONDS = 200.0
# Between two looks: each look makes a server rebuild the table and send the
# analysis so far, work that competes with the analysis itself.
POLL_SECONDS = 0.25
# A game to one point: 7 to 29 decisions a seat (random deals, 300 games),
# where the usual four points took up to 63; each is fixed work at the
# budget below. (A CI run on 2026-12-07 waited 150 s in vain for two seats
# of such a game, the servers' logs unseen: a failure now carries them.)
OPTIONS = {"target": 1}
# A lease (and so an analysis claim) of 2 s; a budget that makes a seat take
# a few seconds with one worker, so a process is still at it when stopped.
EXTRA = ("--lease-seconds", "2", "--bot-workers", "1", "--analysis-budget", "0.2")


@contextmanager
def _process(db: str, redis_url: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    with topology.serve_processes(db, 1, "--redis", redis_url, *EXTRA, logs_to_files=True) as (
        ports,
        processes,
    ):
        yield ports[0], processes[0]


def _finished_table(port: int) -> str:
    body = {
        "game": "marshmallow-test",
        "options": OPTIONS,
        "seats": [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "random"}],
        "bot_delay_ms": 0,
    }
    table: str = post(port, "/api/tables", body)["id"]
    _poll(lambda: get(port, f"/api/tables/{table}")["status"] == "finished", "the game to end")
    return table


def _poll(condition: Any, what: Any) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(POLL_SECONDS)


def _holders(db: str) -> dict[int, str | None]:
    async def read() -> dict[int, str | None]:
        engine = create_async_engine(db)
        try:
            async with engine.connect() as conn:
                rows = (await conn.execute(select(analyses.c.seat, analyses.c.claimed_by))).all()
            return {r.seat: r.claimed_by for r in rows}
        finally:
            await engine.dispose()

    result: dict[int, str | None] = run_coroutine(read())
    return result


def _pid_of(holder: str | None) -> int | None:
    return None if holder is None else int(holder.rsplit(":", 2)[1])


def _done(port: int, table: str, query: str = "") -> dict[str, Any]:
    """Poll ``port``'s analysis of ``table`` (``query``: of one seat) until it is done."""
    seen: list[dict[str, Any]] = []

    def finished() -> bool:
        seen.append(get(port, f"/api/tables/{table}/analysis{query}"))
        assert seen[-1]["status"] != "failed", seen[-1]
        return bool(seen[-1]["status"] == "done")

    class Last:  # the message names the last answer seen
        def __str__(self) -> str:
            return f"the analysis; the last answer: {seen[-1] if seen else None}"

    _poll(finished, Last())
    return seen[-1]


def test_a_seat_whose_process_was_killed_is_analyzed_by_another(
    postgres_url: str, redis_url: str
) -> None:
    with _process(postgres_url, redis_url) as (port_a, process_a):
        table = _finished_table(port_a)
        asked = post(port_a, f"/api/tables/{table}/analysis", {"seat": 0})
        assert asked["status"] in ("pending", "running")
        _poll(lambda: _pid_of(_holders(postgres_url).get(0)) == process_a.pid, "A's claim")
        process_a.kill()  # kill -9, mid-analysis
        process_a.wait()
        with _process(postgres_url, redis_url) as (port_b, _):
            done = _done(port_b, table, "?seat=0")
            assert _holders(postgres_url) == {0: None}
    total = done["seats"][0]["total"]
    assert total > 0 and len(done["analysis"]["decisions"]) == total


def test_a_seat_asked_of_a_stopped_process_is_analyzed_by_another_and_once(
    postgres_url: str, redis_url: str
) -> None:
    with (
        _process(postgres_url, redis_url) as (port_a, process_a),
        _process(postgres_url, redis_url) as (port_b, _),
    ):
        table = _finished_table(port_a)
        post(port_a, f"/api/tables/{table}/analysis", {})  # both seats, asked of A
        os.kill(process_a.pid, signal.SIGSTOP)  # A is stalled (busy), mid-claim or not
        try:
            done = _done(port_b, table)
        finally:
            os.kill(process_a.pid, signal.SIGCONT)
        # A wakes holding a claim that ran out: it may neither renew nor store,
        # so the rows stay as B stored them and nobody works on them again.
        before = get(port_b, f"/api/tables/{table}/analysis")
        time.sleep(1.0)  # let A's renewal run once (what is asserted is the rows, not the time)
        after = get(port_a, f"/api/tables/{table}/analysis")
        assert _holders(postgres_url) == {0: None, 1: None}
    assert [s["status"] for s in done["seats"]] == ["done", "done"]
    assert after == before == done
