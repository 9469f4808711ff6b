"""Quick match: the time from "Play now" to a seated game, for people arriving together.

    python benchmarks/bench_quick_match.py [--people 100] [--players 2] [--pairs 20]
        [--db postgresql://user@127.0.0.1:5432/db]

The server runs as a user runs it (``python -m cardtable serve`` in its own
process, 127.0.0.1, a fresh SQLite file unless ``--db`` is given). Each
person does what the lobby page does: ``POST /api/quick`` (people only, no
bots), then long-polls ``GET /api/quick/{ticket}?wait=20`` until the answer
is ``seated``; the time counted is from sending the join to holding the
seat's token. Two figures:

- ``together``: ``--people`` people press Play now at the same moment (one
  thread each), ``--players`` to a table: the server makes people/players
  tables at once;
- ``pairs``: one group of ``--players`` at a time, ``--pairs`` times: the time
  without a crowd.

Every table is checked to hold exactly its group, each person in a seat of
their own. Bounded: ``--people`` at most 1000, ``--pairs`` at most 200, each
person gives up after 60 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench_server import free_port, http, start_server

GAME = "marshmallow-test"
GIVE_UP_S = 60.0


def play_now(port: int, name: str, players: int, start: threading.Barrier) -> tuple[float, Any]:
    """One person: join at the barrier, poll until seated; (seconds, their seat)."""
    start.wait()
    began = time.perf_counter()
    body = {"game": GAME, "players": players, "name": name, "bots": None}
    answer = http(port, "/api/quick", body)
    while answer["status"] != "seated":
        if time.perf_counter() - began > GIVE_UP_S:
            raise SystemExit(f"{name} was not seated within {GIVE_UP_S:.0f} s")
        answer = http(port, f"/api/quick/{answer['ticket']}?wait=20")
    return time.perf_counter() - began, (answer["table"], answer["seat"], answer["token"])


def arrive_together(port: int, people: int, players: int, tag: str) -> list[float]:
    """``people`` people press Play now at once; their times, after checking the tables."""
    start = threading.Barrier(people)
    with ThreadPoolExecutor(max_workers=people) as pool:
        futures = [pool.submit(play_now, port, f"{tag}{i}", players, start) for i in range(people)]
        results = [f.result() for f in futures]
    seats = [seat for _, seat in results]
    per_table = Counter(table for table, _, _ in seats)
    assert set(per_table.values()) == {players}, per_table
    assert len({(table, seat) for table, seat, _ in seats}) == people  # a seat each
    assert len({token for _, _, token in seats}) == people
    return [seconds for seconds, _ in results]


def line(label: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return (
        f"{label}: {len(ms)} people, p50 {statistics.median(ms):.0f} ms,"
        f" p90 {p90:.0f} ms, max {ms[-1]:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=100)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5))
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    if not 1 <= args.people <= 1000 or args.people % args.players or not 1 <= args.pairs <= 200:
        parser.error("--people 1…1000, a multiple of --players; --pairs 1…200")
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        port = free_port()
        server = start_server(port, db, "--quick-per-client", str(args.people))
        try:
            print(
                f"quick match, {GAME}, {args.players} players a table, database"
                f" {db.split('://')[0]}, {os.cpu_count()} cores"
            )
            one_group = [
                t
                for i in range(args.pairs)
                for t in arrive_together(port, args.players, args.players, f"g{i}-")
            ]
            print(line(f"pairs ({args.pairs} groups, one at a time)", one_group))
            crowd = arrive_together(port, args.people, args.players, "p")
            print(line(f"together ({args.people // args.players} tables at once)", crowd))
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
