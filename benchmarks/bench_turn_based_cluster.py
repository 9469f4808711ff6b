"""Turn-based tables at rest over two ``cardtable serve`` processes, and a
``kill -9`` while their deadlines fall due (issue 30).

    python benchmarks/bench_turn_based_cluster.py [--tables 2000] [--accounts 400]
        [--opens 100] [--lease-seconds 2]

Starts its own PostgreSQL and Redis on 127.0.0.1 (the test suite's helpers,
``tests/server/pg.py`` and ``tests/server/topology.py``), then:

1. **Prepare**: ``--accounts`` accounts and ``--tables`` two-person
   turn-based tables (24 hours a move, a stand-in for a late move), a few
   moves in, each at rest (``ct_parked``) as a server that ran a while
   leaves them (``benchmarks/bench_turn_based.py``'s preparation).
2. **Serve**: two processes with ``--redis`` and ``--park-minutes 0``, on the
   real clock. Measured: each one's resident memory with every table at rest
   (none is claimed: the claim sweeps pass parked tables over), and opening
   ``--opens`` of them cold through either process (a socket's first
   ``state``), p50 and p99; they rest again at the next sweep.
3. **Every deadline due at once**: the database is changed as a day passing
   would (each turn began 25 hours ago, each parked table due), and each
   process's next lobby sweep wakes and acts on the due tables. Once a
   quarter of them are woken, the first process is killed with SIGKILL: its
   share moves to the other (the parked ones by name; those it had woken
   once their leases run out). Measured: the tables handled per
   second from the change to the last stand-in move stored.

Then the database is read: every table must hold exactly one more move than
before (no deadline missed, none acted on twice), whichever process or
takeover stored it.

Bounded: ``--tables`` at most 5,000, 127.0.0.1 only, each wait bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_turn_based import MOVE_HOURS, p50_p99, prepare  # noqa: E402

from cardtable.server.db.schema import events, parked, tables  # noqa: E402
from tests.server import topology  # noqa: E402
from tests.server.pg import binaries, fresh_database, postgres  # noqa: E402

MAX_TABLES = 5_000
HOUR_MS = 3_600_000
SWEEP_SECONDS = 30.0  # cardtable/server/live/lifecycle.py
LIMIT_SECONDS = 900.0  # the whole wave, kill and takeovers included


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def run(work: Any) -> Any:
    return asyncio.run(work)


async def moves_per_table(db: str) -> dict[str, int]:
    engine = create_async_engine(db)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(events.c.table_id, func.count())
                .where(events.c.kind == "move")
                .group_by(events.c.table_id)
            )
            return {r[0]: int(r[1]) for r in rows}
    finally:
        await engine.dispose()


async def count_rows(db: str, table: Any, **where: Any) -> int:
    engine = create_async_engine(db)
    try:
        async with engine.connect() as conn:
            query = select(func.count()).select_from(table)
            for column, value in where.items():
                query = query.where(table.c[column] == value)
            return int((await conn.scalar(query)) or 0)
    finally:
        await engine.dispose()


async def deadlines_stored(db: str) -> int:
    return await count_rows(db, events, kind="deadline")


async def a_day_passes(db: str) -> None:
    """Each turn began 25 hours ago; each parked table is due back now."""
    began = int(time.time() * 1000) - (MOVE_HOURS + 1) * HOUR_MS
    engine = create_async_engine(db)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                update(tables).where(tables.c.status == "playing").values(turn_started_ms=began)
            )
            await conn.execute(update(parked).values(due_ms=0))
    finally:
        await engine.dispose()


def open_cold(ports: list[int], ids: list[str]) -> dict[str, float]:
    """Each table opened by a spectator's socket at one of ``ports`` in
    turn, until its first state; p50 and p99 in milliseconds."""
    times = []
    for n, table_id in enumerate(ids):
        began = time.perf_counter()
        with connect(f"ws://127.0.0.1:{ports[n % len(ports)]}/ws/{table_id}") as ws:
            first = json.loads(ws.recv(timeout=30))
            times.append((time.perf_counter() - began) * 1000)
        if first.get("type") != "state":
            raise SystemExit(f"table {table_id} answered {first!r} instead of its state")
    return p50_p99(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=2_000)
    parser.add_argument("--accounts", type=int, default=400)
    parser.add_argument("--opens", type=int, default=100)
    parser.add_argument("--lease-seconds", default="2")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 2 <= args.tables <= MAX_TABLES or not 2 <= args.accounts <= args.tables * 2:
        parser.error(f"--tables 2 to {MAX_TABLES}, --accounts 2 to twice the tables")
    if not 1 <= args.opens <= args.tables:
        parser.error("--opens 1 to --tables")
    bin_dir = binaries()
    if bin_dir is None or topology.redis_binary() is None:
        raise SystemExit("PostgreSQL or redis-server is missing: scripts/install-test-deps.sh")
    with postgres(bin_dir) as server, topology.redis() as (_, redis_url):
        db = fresh_database(bin_dir, server)
        began = time.perf_counter()
        run(prepare(db, "marshmallow-test", args.tables, args.accounts, args.seed,
                    start_s=time.time(), park=True))  # fmt: skip
        prepared_s = time.perf_counter() - began
        at_rest = run(count_rows(db, parked))
        extra = ("--redis", redis_url, "--park-minutes", "0", "--lease-seconds", args.lease_seconds)
        with topology.serve_processes(db, 2, *extra, logs_to_files=True) as (ports, processes):
            time.sleep(3 * float(args.lease_seconds))  # several claim sweeps of each
            idle = [round(resident_mib(p.pid), 1) for p in processes]
            still = run(count_rows(db, parked))
            ids = sorted(run(moves_per_table(db)))
            opened = open_cold(ports, random.Random(args.seed).sample(ids, args.opens))
            # The opened tables rest again at their process's next sweep: only
            # then may the database be changed under them.
            limit = time.perf_counter() + 2 * SWEEP_SECONDS + 30
            while run(count_rows(db, parked)) < len(ids):
                if time.perf_counter() > limit:
                    raise SystemExit("the opened tables did not rest again")
                time.sleep(1.0)
            before = run(moves_per_table(db))
            run(a_day_passes(db))
            changed = time.perf_counter()
            limit = changed + LIMIT_SECONDS
            # The kill falls while the tables are being woken: a quarter back
            # in memory, none or few acted on yet.
            while run(count_rows(db, parked)) > len(before) * 3 // 4:
                if time.perf_counter() > limit:
                    raise SystemExit("no table was woken")
                time.sleep(0.1)
            processes[0].send_signal(signal.SIGKILL)
            processes[0].wait()
            killed_after = run(deadlines_stored(db))
            woken_at_kill = len(before) - run(count_rows(db, parked))
            while True:
                after = run(moves_per_table(db))
                if all(after.get(t, 0) > n for t, n in before.items()):
                    break
                if time.perf_counter() > limit:
                    break
                time.sleep(1.0)
            wave_s = time.perf_counter() - changed
            time.sleep(SWEEP_SECONDS + 5)  # one more sweep of the survivor: nothing twice
            after = run(moves_per_table(db))
            deadlines = run(deadlines_stored(db))
    missed = [t for t in before if after.get(t, 0) == before[t]]
    twice = [t for t in before if after.get(t, 0) > before[t] + 1]
    print(f"{args.tables} turn-based tables of marshmallow-test over {args.accounts} accounts,")
    print(f"  two processes on PostgreSQL, leases of {args.lease_seconds} s")
    print(f"  prepared in {prepared_s:.0f} s, {at_rest} at rest")
    print(
        f"  at rest, none open: resident {idle[0]} and {idle[1]} MiB;"
        f" {still} still at rest after the claim sweeps"
    )
    print(
        f"  open a parked table cold through either process: p50 {opened['p50']} ms,"
        f" p99 {opened['p99']} ms over {args.opens} tables"
    )
    print(
        f"  every deadline due at once, the first process killed (SIGKILL) with"
        f" {woken_at_kill} tables woken and {killed_after} acted on:"
        f" {wave_s:.1f} s for {len(before)} tables, {len(before) / wave_s:.1f} a second"
    )
    print(
        f"  deadline events stored: {deadlines}; deadlines missed: {len(missed)};"
        f" acted on twice: {len(twice)}"
    )
    return 1 if missed or twice or deadlines != len(before) else 0


if __name__ == "__main__":
    sys.exit(main())
