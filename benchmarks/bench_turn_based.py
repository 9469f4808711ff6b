"""Turn-based tables at scale in one server process (issue 30): memory, opening a
table, and deadlines falling due.

    python benchmarks/bench_turn_based.py [--tables 10000] [--accounts 2000]
        [--game marshmallow-test] [--opens 200] [--db postgresql://user@127.0.0.1:5432/db]

Three processes, one after the other, over one database (a fresh SQLite file
unless ``--db`` names an empty PostgreSQL database):

1. **Prepare** (not timed as a figure): ``--accounts`` accounts and
   ``--tables`` two-person turn-based tables (24 hours a move, a stand-in for
   a late move), each seating two different accounts, every game started and
   played a few moves in, as a server that ran for a while leaves them.
2. **Warm** (the peer): a new process starts the server on that database
   as the release before parking did: every unfinished table comes back at
   start and stays in memory. Measured: its resident memory (VmRSS) before
   the server starts and with every table held. Then the clock moves on by
   ``park_seconds`` and one sweep parks every table (nobody opened one), as
   a server that ran a while leaves them.
3. **Cold**: a new process starts the server exactly as ``cardtable serve``
   does, with a clock the benchmark moves. Measured:

   - the tables held at start (none: they rest) and the resident memory
     then, beside the peer's;
   - opening a parked table as a person does (the socket's first ``state``,
     the table rebuilt from its record) for ``--opens`` tables drawn at
     random, p50 and p99;
   - all the deadlines falling due at once: the clock moves 24 hours on and
     one sweep wakes every parked table and acts on it; the tables handled
     per second until each table's stand-in move is stored.

   Then the database is read: every table must hold exactly one more move
   than before (no deadline missed, none acted on twice).

Bounded: ``--tables`` at most 20,000; everything on 127.0.0.1 and in-process.
Two processes on PostgreSQL, with a ``kill -9`` while the deadlines fall
due: ``benchmarks/bench_turn_based_cluster.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MOVE_HOURS = 24
START_S = 1_000_000.0  # the injected clock's first reading
MAX_TABLES = 20_000


def resident_mib() -> float:
    """This process's resident memory (VmRSS), in MiB."""
    for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


class Clock:
    def __init__(self, start_s: float = START_S) -> None:
        self.now = start_s

    def __call__(self) -> float:
        return self.now


# --- 1. prepare -------------------------------------------------------------


async def prepare(
    db_url: str,
    game_name: str,
    n_tables: int,
    n_accounts: int,
    seed: int,
    start_s: float = START_S,
    park: bool = False,
) -> None:
    """Accounts and started turn-based tables, a few moves in (see the
    module), their turns begun at ``start_s``; with ``park``, each left at
    rest as a server parks it (cardtable/server/live/parking.py)."""
    from cardtable.core.registry import load
    from cardtable.server.accounts.accounts import Accounts
    from cardtable.server.accounts.passwords import Passwords
    from cardtable.server.db.storage import Storage
    from cardtable.server.live.bots import BotPool
    from cardtable.server.live.hub import Hub
    from cardtable.server.settings import Limits, Settings
    from cardtable.server.tables.facts import SeatFacts
    from cardtable.server.tables.lobby import NewTable
    from cardtable.server.tables.table import new_token

    rng = random.Random(seed)
    from cardtable.server.live.parking import due_back_ms
    from cardtable.server.tables.listing import entry

    clock = Clock(start_s)
    settings = Settings(db_url=db_url, limits=Limits(clock=clock))
    storage = Storage(db_url, None, settings.lease_seconds)
    await storage.open()
    accounts = Accounts(storage.engine, b"bench-secret" * 3, Passwords(fast=True))
    people = [
        (await accounts.sign_up(f"tb{i}", "correct horse", "127.0.0.1"))[0]
        for i in range(n_accounts)
    ]
    hub = Hub(storage, settings, BotPool(1))
    game = load(game_name, players=2)
    for n in range(n_tables):
        pair = rng.sample(people, 2)
        seats = []
        for seat, person in enumerate(pair):
            _, digest = new_token()
            seats.append(SeatFacts(seat, "human", name=person.name, token_hash=digest))
        new = NewTable(game, seats, False, None, 0, "easy", True, MOVE_HOURS, "stand-in")
        table = await hub.create(new)
        for seat, person in enumerate(pair):
            await accounts.link_seats(person, [(table.id, seat)], "127.0.0.1")
        await play_a_little(hub, table, rng, start_s)
        now_ms = int(start_s * 1000)
        if park and (due := due_back_ms(table, now_ms)) is not None:
            await storage.park(table.id, due, entry(table), now_ms)
        hub.tables.pop(table.id)  # this process keeps nothing: the server loads them
        if (n + 1) % 1000 == 0:
            print(f"  prepared {n + 1} tables", file=sys.stderr)
    await storage.close()


async def play_a_little(hub: Any, table: Any, rng: random.Random, start_s: float) -> None:
    """A few legal moves (2 to 8), stored as the table stores a move (with
    when the next turn began)."""
    for _ in range(rng.randint(2, 8)):
        seat = table.state.to_move
        if seat is None or table.state.finished:
            return
        after, new = table.prepare(seat, rng.choice(list(table.state.legal_moves())))
        started = int(start_s * 1000)
        await hub.storage.append(table.id, table.journal.stored, new, None, None, started)
        table.adopt(after, new)


# --- 2. serve ---------------------------------------------------------------


def serve_warm(db_url: str) -> dict[str, Any]:
    """The release before parking, as the peer: every unfinished table comes
    back at start and stays in memory. Then one sweep parks them all (nobody
    has them open), as a server that ran a while leaves them."""
    from starlette.testclient import TestClient

    from cardtable.server.app import create_app
    from cardtable.server.settings import Limits, Settings

    clock = Clock()
    before = resident_mib()
    limits = Limits(clock=clock)
    app = create_app(Settings(db_url=db_url, limits=limits, fast_passwords=True))
    with TestClient(app) as client:
        hub = app.state.hub
        held = len(hub.tables)
        loaded = resident_mib()
        portal = client.portal
        assert portal is not None  # inside the client's block
        clock.now += limits.park_seconds  # nobody opened one since the start's sweep
        portal.call(app.state.lifecycle.sweep)
        left = len(hub.tables)
    return {
        "held": held,
        "left_after_sweep": left,
        "rss_before_mib": round(before, 1),
        "rss_loaded_mib": round(loaded, 1),
    }


def serve_cold(db_url: str, opens: int, seed: int) -> dict[str, Any]:
    """A new process on the parked tables: memory with none open, opening
    one cold, and every deadline falling due at once (see the module)."""
    from starlette.testclient import TestClient

    from cardtable.server.app import create_app
    from cardtable.server.settings import Limits, Settings

    clock = Clock()
    before = resident_mib()
    app = create_app(Settings(db_url=db_url, limits=Limits(clock=clock), fast_passwords=True))
    began = time.perf_counter()
    ids = sorted(moves_per_table(db_url))
    with TestClient(app) as client:
        started_s = time.perf_counter() - began
        hub = app.state.hub
        held = len(hub.tables)
        idle = resident_mib()
        opened = opens_timed(client, random.Random(seed).sample(ids, min(opens, len(ids))))
        moves = moves_per_table(db_url)
        clock.now += MOVE_HOURS * 3600
        swept = time.perf_counter()
        portal = client.portal
        assert portal is not None  # inside the client's block
        portal.call(app.state.lifecycle.sweep)
        portal.call(wait_for_moves, hub, db_url, moves)
        sweep_s = time.perf_counter() - swept
    return {
        "tables": len(ids),
        "held_at_start": held,
        "rss_before_mib": round(before, 1),
        "rss_idle_mib": round(idle, 1),
        "start_s": round(started_s, 2),
        "open_ms": opened,
        "deadlines_per_s": round(len(ids) / sweep_s, 1),
        "sweep_s": round(sweep_s, 2),
    }


def opens_timed(client: Any, ids: list[str]) -> dict[str, float]:
    """Open each table as a spectator's socket does, until its first state;
    p50 and p99 in milliseconds."""
    times = []
    for table_id in ids:
        began = time.perf_counter()
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            first = ws.receive_json()
            times.append((time.perf_counter() - began) * 1000)
            if first.get("type") != "state":
                raise SystemExit(f"table {table_id} answered {first!r} instead of its state")
    return p50_p99(times)


def p50_p99(times: list[float]) -> dict[str, float]:
    """The median and 99th percentile of ``times``, rounded to 0.01."""
    ordered = sorted(times)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
    }


async def wait_for_moves(
    hub: Any, db_url: str, before: dict[str, int], limit_s: float = 600.0
) -> None:
    """Until every table has a move more than ``before`` stored (its
    stand-in's move), read from the database as the check after it is."""
    until = time.monotonic() + limit_s
    while True:
        await hub.storage.flush()
        now = await asyncio.to_thread(moves_per_table, db_url)
        if all(now.get(t, 0) > n for t, n in before.items()):
            return
        if time.monotonic() > until:
            raise SystemExit("deadlines not all handled within the limit")
        await asyncio.sleep(0.5)


def moves_per_table(db_url: str) -> dict[str, int]:
    """Stored moves per table (the journal's "move" events)."""
    from sqlalchemy import create_engine, func, select

    from cardtable.server.db.schema import events

    sync_url = db_url.replace("+aiosqlite", "").replace("+asyncpg", "+psycopg")
    engine = create_engine(sync_url)
    query = (
        select(events.c.table_id, func.count())
        .where(events.c.kind == "move")
        .group_by(events.c.table_id)
    )
    with engine.connect() as conn:
        return {row[0]: int(row[1]) for row in conn.execute(query)}


def in_child(stage: str, args: argparse.Namespace, db_url: str) -> dict[str, Any]:
    """Run ``stage`` in a fresh interpreter (memory measured from a clean start)."""
    command = [sys.executable, __file__, "--stage", stage, "--db", db_url]
    command += ["--tables", str(args.tables), "--accounts", str(args.accounts)]
    command += ["--game", args.game, "--opens", str(args.opens), "--seed", str(args.seed)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{stage} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--accounts", type=int, default=2_000)
    parser.add_argument("--game", default="marshmallow-test")
    parser.add_argument("--opens", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="an empty database (default: a new SQLite file)")
    parser.add_argument("--stage", choices=("prepare", "warm", "cold"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 2 <= args.tables <= MAX_TABLES or not 2 <= args.accounts <= args.tables * 2:
        parser.error(f"--tables 2 to {MAX_TABLES}, --accounts 2 to twice the tables")
    if args.stage == "prepare":
        asyncio.run(prepare(args.db, args.game, args.tables, args.accounts, args.seed))
        print(json.dumps({"prepared": args.tables}))
        return 0
    if args.stage == "warm":
        print(json.dumps(serve_warm(args.db)))
        return 0
    if args.stage == "cold":
        print(json.dumps(serve_cold(args.db, args.opens, args.seed)))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        db_url = args.db or f"sqlite+aiosqlite:///{Path(folder) / 'turn-based.sqlite3'}"
        began = time.perf_counter()
        in_child("prepare", args, db_url)
        prepared_s = time.perf_counter() - began
        before = moves_per_table(db_url)
        warm = in_child("warm", args, db_url)
        cold = in_child("cold", args, db_url)
        after = moves_per_table(db_url)
    missed = [t for t in before if after.get(t, 0) == before[t]]
    twice = [t for t in before if after.get(t, 0) > before[t] + 1]
    print(f"{args.tables} turn-based tables of {args.game} over {args.accounts} accounts")
    print(f"  prepared in {prepared_s:.0f} s ({os.cpu_count()} cores)")
    held = warm["rss_loaded_mib"] - warm["rss_before_mib"]
    print(
        f"  peer, every table held in memory: {warm['held']} tables,"
        f" resident {warm['rss_loaded_mib']} MiB (+{held:.1f} MiB over the bare process);"
        f" one sweep parked all but {warm['left_after_sweep']}"
    )
    rested = cold["rss_idle_mib"] - cold["rss_before_mib"]
    print(
        f"  parked, none open: {cold['held_at_start']} tables in memory after a start of"
        f" {cold['start_s']} s; resident {cold['rss_idle_mib']} MiB (+{rested:.1f} MiB);"
        f" ratio of the tables' memory to the peer's: {rested / held:.3f}"
    )
    opened = cold["open_ms"]
    print(
        f"  open a parked table cold (first state): p50 {opened['p50']} ms,"
        f" p99 {opened['p99']} ms over {min(args.opens, args.tables)} tables"
    )
    print(
        f"  all deadlines due at once (parked tables woken, then acted on):"
        f" {cold['sweep_s']} s for {cold['tables']} tables, {cold['deadlines_per_s']} a second"
    )
    print(f"  deadlines missed: {len(missed)}; acted on twice: {len(twice)}")
    return 1 if missed or twice else 0


if __name__ == "__main__":
    sys.exit(main())
