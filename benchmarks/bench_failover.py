"""Failover of several ``cardtable serve`` processes: ``kill -9`` of the one
that owns the most tables, and how long until each of its tables
acknowledges a move again.

    python benchmarks/bench_failover.py [--tables 60] [--processes 3] [--lease-seconds 5]

Starts its own PostgreSQL, Redis and haproxy on 127.0.0.1 (the test suite's
helpers, ``tests/server/pg.py`` and ``tests/server/topology.py``) and
``--processes`` servers with ``--redis``. Each table seats one scripted
person against an ``easy`` bot; the person plays through the proxy with a
think time of 0.2–0.6 s and reconnects after any close as the browser does
(a pause doubling from 250 ms up to 5 s, each drawn between half and all of
it). After a warm-up the owner of the most tables is killed; for each of its
tables the time from the kill to the first acknowledgement after it is the
table's failover time (p50, p99, max). At the end every acknowledged move is
looked up in the database.

Bounded: ``--tables`` at most 500, 127.0.0.1 only; a run takes about a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtable.server.db.schema import events, leases  # noqa: E402
from tests.server import topology  # noqa: E402
from tests.server.processes import post  # noqa: E402

UNLIMITED = [
    *("--creates-per-minute", "1000000"),
    *("--waiting-per-client", "1000000"),
    *("--joins-per-minute", "1000000"),
]
WARM_UP_SECONDS = 8.0
AFTER_SECONDS = 25.0  # how long the players go on after the kill


class Person:
    """One scripted person at one table, reconnecting like the browser."""

    def __init__(self, proxy: int, table: str, token: str, seed: int) -> None:
        self.url = f"ws://127.0.0.1:{proxy}/ws/{table}?token={token}"
        self.table = table
        self.rng = random.Random(seed)
        self.acks: list[float] = []  # monotonic times of acknowledgements
        self.acked: dict[int, dict[str, Any]] = {}  # seq before the move -> the move

    async def play(self, until: float) -> None:
        pause = 0.25
        while time.monotonic() < until:
            try:
                async with connect(self.url, open_timeout=10) as ws:
                    pause = 0.25
                    await self._turns(ws, until)
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
                pass  # reconnect, as the browser does
            await asyncio.sleep(pause * (0.5 + self.rng.random() / 2))
            pause = min(pause * 2, 5.0)

    async def _turns(self, ws: Any, until: float) -> None:
        sent: dict[int, dict[str, Any]] = {}
        while time.monotonic() < until:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "ack":
                seq = message["seq"] - 1
                if seq in sent:
                    self.acked[seq] = sent[seq]
                    self.acks.append(time.monotonic())
            elif message["type"] == "state" and message["to_move"] == 0:
                if message["finished"] or message["seq"] in sent:
                    continue
                await asyncio.sleep(self.rng.uniform(0.2, 0.6))
                move = self.rng.choice(message["legal"])
                sent[message["seq"]] = move
                await ws.send(json.dumps({"type": "move", "seq": message["seq"], "move": move}))


async def _rows(url: str) -> tuple[dict[str, str | None], dict[str, list[Any]]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            owners = {r.table_id: r.owner for r in (await conn.execute(select(leases))).all()}
            moves: dict[str, list[Any]] = {}
            query = select(events).where(events.c.kind == "move").order_by(events.c.n)
            for r in (await conn.execute(query)).all():
                moves.setdefault(r.table_id, []).append(json.loads(r.data))
        return owners, moves
    finally:
        await engine.dispose()


def _pid(owner: str | None) -> int | None:
    return None if owner is None else int(owner.rsplit(":", 2)[1])


async def run(args: argparse.Namespace) -> None:
    extra = ("--lease-seconds", str(args.lease_seconds), "--bot-workers", "1", *UNLIMITED)
    with topology.started(args.processes, *extra) as running:
        db, processes, proxy = running.db, running.processes, running.proxy
        people = []
        for i in range(args.tables):
            body = {
                "game": "marshmallow-test",
                "options": {"target": 300},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                "bot_delay_ms": 0,
            }
            table = (await asyncio.to_thread(post, proxy, "/api/tables", body))["id"]
            join = {"seat": 0, "name": f"p{i}"}
            token = await asyncio.to_thread(post, proxy, f"/api/tables/{table}/join", join)
            people.append(Person(proxy, table, token["token"], seed=i))
        until = time.monotonic() + WARM_UP_SECONDS + AFTER_SECONDS
        playing = [asyncio.create_task(p.play(until)) for p in people]
        await asyncio.sleep(WARM_UP_SECONDS)

        owners, _ = await _rows(db)
        by_pid: dict[int, list[str]] = {}
        for table, owner in owners.items():
            if (pid := _pid(owner)) is not None:
                by_pid.setdefault(pid, []).append(table)
        victim_pid = max(by_pid, key=lambda pid: len(by_pid[pid]))
        victim = next(p for p in processes if p.pid == victim_pid)
        moved = set(by_pid[victim_pid])
        killed_at = time.monotonic()
        victim.send_signal(signal.SIGKILL)
        await asyncio.gather(*playing)

        owners, stored = await _rows(db)
        waits = []
        for person in people:
            if person.table in moved:
                after = [t for t in person.acks if t > killed_at]
                waits.append(after[0] - killed_at if after else float("inf"))
        lost = [
            (p.table, seq)
            for p in people
            for seq, move in p.acked.items()
            if seq >= len(stored.get(p.table, [])) or stored[p.table][seq] != {"seat": 0, **move}
        ]
        stale = [t for t, o in owners.items() if _pid(o) == victim_pid]
        waits.sort()
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
        print(
            f"{args.processes} processes, {args.tables} tables, lease {args.lease_seconds:g} s:"
            f" killed the owner of {len(moved)} tables"
        )
        print(
            f"failover (kill -9 to the table's first ack after it): p50"
            f" {statistics.median(waits):.2f} s, p99 {p99:.2f} s, max {waits[-1]:.2f} s"
        )
        acks = sum(len(p.acked) for p in people)
        print(f"acknowledged moves {acks}, missing from the database {len(lost)}")
        print(f"tables still leased to the killed process: {len(stale)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--lease-seconds", type=float, default=5.0)
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 2 <= args.processes <= 8:
        raise SystemExit("--tables 1 to 500, --processes 2 to 8")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
