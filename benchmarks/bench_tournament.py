"""Duplicate tournaments of people at a human pace (issue 31): how soon the
standings show a deal that is over, and what a tournament costs the server
per move beside ordinary tables.

    python benchmarks/bench_tournament.py [--deals 8] [--pace-ms 300] [--poll-ms 3000]
        [--games marshmallow-test,myrummy-111]

The server runs as a user runs it (``python -m cardtable serve`` in its own
process on 127.0.0.1, a fresh SQLite file in a temporary folder). 64 people
sign up (an account each, before anything is measured). For each game,
one after the other:

1. **A tournament**: a duplicate tournament of ``--deals`` deals, Marshmallow
   Test at 16 tables of 4, MyRummy 111 at 32 tables of 2 (no bots: 64 people
   fill every seat). Every person enters (one after the other, and counted),
   the first one (its creator) starts it; each person then does what the
   tournament page does, deal after deal: ``GET /api/tournaments/{id}``
   until it names their table on that deal (``table: {id, seat, token,
   deal}``; asked at once, then every ``--poll-ms``: 3 s, as a finished
   deal's table page asks, static/tournaments-table.js), connects to it with
   the seat's token and plays random legal moves, thinking 0.5 to 1.5 times
   ``--pace-ms`` before each. (A MyRummy 111 deal may end by a declaration
   before a seat's first turn: that person finds the next deal's table.)
2. **Ordinary tables** of the same game: the same 64 people at tables of the
   same size (``POST /api/tables``: private, unrated, the tournament's
   60-second turn timer), at the same pace, each table playing ``--deals``
   rounds (the game's deals; fewer where the game ends first, as a random
   Marshmallow Test game does after about four), then left.

Measured:

- **standings latency**: for each deal, from the moment its last table is
  over (the acknowledgement of that table's last move, or the state saying
  it is over if that reaches a player first) to the first answer of
  ``GET /api/tournaments/{id}`` with ``deals_over`` counting that deal. A
  watcher asks every ``--probe-ms`` once the people know every table of the
  deal is over, so the figure is at most that much (and one request) late.
  With 8 deals, p99 is the slowest deal.
- **server CPU per move**: the server process's user + system CPU time
  (/proc) over a phase, from the start (``POST …/start``; the tables'
  first connection) to its end, divided by the moves made in it: the
  tournament's (making each deal's tables, the director's sweep, scoring,
  the people's polling and the watcher's included) against the ordinary
  tables', and their ratio; with how many ``GET /api/tournaments/{id}``
  the tournament's phase answered and, once it is over, the CPU time of one
  (signed in, as a person's poll).

Bounded: ``--deals`` 1 to 24, ``--pace-ms`` at most 5000; each wait for a
message or a table gives up after ``GIVE_UP_S``, each phase after
``PHASE_S``. The server is stopped at the end, also after a failure. Stand-ins
never act (``--grace-seconds`` a day): the ordinary tables, left after their
rounds, stay quiet while the next phase is measured. The default (8 deals,
both games, 300 ms) took 4.5 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from bench_server import cpu_seconds, free_port, http, sign_up, start_server
from websockets.asyncio.client import ClientConnection, connect

PEOPLE = 64
# Each game's players a table (64 people: 16 tables of 4, 32 of 2) and the
# view's round counter (an ordinary table plays --deals rounds of it).
GAMES = {"marshmallow-test": (4, "round_number"), "myrummy-111": (2, "round")}
TURN_SECONDS = 60  # a tournament table's turn timer (tournaments/rules.py): ordinary ones match
GIVE_UP_S = 120.0  # a message, a table or a deal's standings owed that long: the run fails
PHASE_S = 900.0  # one phase (a tournament, or its ordinary tables), at most
MAX_DEALS = 24
MAX_PACE_MS = 5000

T = TypeVar("T")


@dataclass
class Person:
    name: str
    cookie: str  # ct_session=…: the account, on every request and socket
    rng: random.Random


@dataclass
class Played:
    """What the people saw of one phase's tables."""

    moves: dict[str, int] = field(default_factory=dict)  # table id -> moves made there
    ends: dict[str, float] = field(default_factory=dict)  # table id -> when it was over
    errors: list[str] = field(default_factory=list)

    def over(self, table: str, seq: int, at: float) -> None:
        self.moves[table] = seq
        self.ends[table] = min(at, self.ends.get(table, at))


class Requests:
    """Blocking HTTP calls (``bench_server.http``) in threads of their own,
    enough for every person to wait on one at once."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.pool = ThreadPoolExecutor(max_workers=PEOPLE + 8)

    async def __call__(
        self, path: str, body: dict[str, Any] | None = None, cookie: str = ""
    ) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, partial(http, self.port, path, body, cookie))


async def bounded(what: str, seconds: float, job: Awaitable[T]) -> T:
    try:
        return await asyncio.wait_for(job, seconds)
    except TimeoutError:
        raise SystemExit(f"{what}: nothing after {seconds:.0f} s") from None


async def play_table(
    port: int, table: str, token: str, person: Person, pace_s: float,
    played: Played, stop: Callable[[dict[str, Any]], bool],
) -> None:  # fmt: skip
    """Play ``table``'s seat with random legal moves until ``stop(state)``
    (a finished state stops it in any case); record when it was over."""
    url = f"ws://127.0.0.1:{port}/ws/{table}?token={token}"
    headers = {"Cookie": person.cookie}
    acked: dict[int, float] = {}  # seq after a move of this person -> when its ack came
    played_at: set[int] = set()
    async with connect(url, additional_headers=headers, open_timeout=GIVE_UP_S) as ws:
        while True:
            message = json.loads(await bounded(f"table {table}", GIVE_UP_S, ws.recv()))
            now = time.monotonic()
            if message["type"] == "ack":
                acked[message["seq"]] = now
                continue
            if message["type"] == "error":
                played.errors.append(str(message.get("message")))
                continue
            if message["type"] != "state":
                continue
            seq = message["seq"]
            if message["finished"] or stop(message):
                # The last move's acknowledgement if it was this person's, else now.
                played.over(table, seq, acked.get(seq, now))
                return
            if message["to_move"] == message["seat"] and seq not in played_at:
                played_at.add(seq)
                await move(ws, seq, person.rng.choice(message["legal"]), person, pace_s)


async def move(ws: ClientConnection, seq: int, chosen: Any, person: Person, pace_s: float) -> None:
    """``chosen`` after thinking 0.5 to 1.5 times the pace."""
    await asyncio.sleep(person.rng.uniform(0.5, 1.5) * pace_s)
    await ws.send(json.dumps({"type": "move", "seq": seq, "move": chosen}))


# --- the tournament -------------------------------------------------------------


@dataclass
class Tournament:
    id: str
    deals: int
    tables: int
    played: list[Played]  # per deal
    all_over: list[asyncio.Event]  # per deal: every table is over
    latencies: list[float] = field(default_factory=list)  # seconds, per deal
    poll_cpu: float = 0.0  # the server's CPU seconds per GET /api/tournaments/{id}, at the end
    asked: int = 0  # GET /api/tournaments/{id} in the phase, the people's and the watcher's


async def make_tournament(
    call: Requests, people: list[Person], game: str, players: int, deals: int
) -> Tournament:
    body = {
        "name": f"Bench {game}",
        "game": game,
        "players": players,
        "deals": deals,
        "form": "duplicate",
        "start_in_minutes": 60,  # its creator starts it
        "access": "open",
        "rated": False,
        "bot": "easy",
        "move_hours": None,
    }
    made = await call("/api/tournaments", body, people[0].cookie)
    # One after the other, and counted: entries sent at the same moment were
    # lost (TournamentStore.enter numbers an entry max(id) + 1, a clash is dropped).
    for p in people:
        await call(f"/api/tournaments/{made['id']}/enter", {}, p.cookie)
    entered = (await call(f"/api/tournaments/{made['id']}"))["entrants"]
    if entered != len(people):
        raise SystemExit(f"{entered} of {len(people)} people are entered")
    return Tournament(
        made["id"],
        deals,
        len(people) // players,
        [Played() for _ in range(deals)],
        [asyncio.Event() for _ in range(deals)],
    )


async def enter_deals(
    call: Requests, t: Tournament, person: Person, pace_s: float, poll_s: float
) -> None:
    """One person's tournament: each deal's table, as the tournament page gives it."""
    for deal in range(t.deals):
        seat = await bounded(f"{person.name}'s table on deal {deal}", GIVE_UP_S,
                             my_table(call, t, person, deal, poll_s))  # fmt: skip
        if seat is None:
            continue  # the others at the table ended the deal before this person came
        played = t.played[deal]
        await play_table(call.port, seat["id"], seat["token"], person, pace_s, played,
                         lambda _: False)  # fmt: skip
        if len(played.ends) == t.tables:
            t.all_over[deal].set()


async def my_table(
    call: Requests, t: Tournament, person: Person, deal: int, poll_s: float
) -> dict[str, Any] | None:
    """The person's seat on ``deal``, or None if the tournament has moved past
    it: a MyRummy 111 deal may end before a seat's first turn (a declaration)."""
    while True:
        one = await call(f"/api/tournaments/{t.id}", None, person.cookie)
        t.asked += 1
        seat = one["table"]
        if seat is not None and seat["deal"] == deal:
            return dict(seat)
        if one["status"] == "finished" or (one["deal"] is not None and one["deal"] > deal):
            return None
        if one["status"] != "running":
            raise SystemExit(f"the tournament is {one['status']} before deal {deal}")
        await asyncio.sleep(poll_s)


async def watch_standings(call: Requests, t: Tournament, probe_s: float) -> None:
    """For each deal: from its last table's end to the standings counting it."""
    for deal in range(t.deals):
        await bounded(f"deal {deal}", PHASE_S, t.all_over[deal].wait())
        played = t.played[deal]
        if len(played.ends) != t.tables:
            raise SystemExit(f"deal {deal}: {len(played.ends)} tables over, not {t.tables}")
        last_end = max(played.ends.values())
        deadline = time.monotonic() + GIVE_UP_S
        while (await call(f"/api/tournaments/{t.id}"))["deals_over"] <= deal:
            t.asked += 1
            if time.monotonic() > deadline:
                raise SystemExit(f"deal {deal} is not in the standings after {GIVE_UP_S:.0f} s")
            await asyncio.sleep(probe_s)
        t.asked += 1
        t.latencies.append(time.monotonic() - last_end)


async def tournament_phase(
    call: Requests, pid: int, people: list[Person], game: str, args: argparse.Namespace
) -> tuple[Tournament, float, float]:
    """The tournament played; (it, server CPU seconds, wall seconds)."""
    players = GAMES[game][0]
    t = await make_tournament(call, people, game, players, args.deals)
    cpu, began = cpu_seconds(pid), time.monotonic()
    await call(f"/api/tournaments/{t.id}/start", {}, people[0].cookie)
    jobs = [enter_deals(call, t, p, args.pace_ms / 1000, args.poll_ms / 1000) for p in people]
    await bounded(f"the {game} tournament", PHASE_S, asyncio.gather(
        watch_standings(call, t, args.probe_ms / 1000), *jobs))  # fmt: skip
    wall = time.monotonic() - began
    used = cpu_seconds(pid) - cpu
    final = await call(f"/api/tournaments/{t.id}")
    if final["status"] != "finished" or final["deals_over"] != args.deals:
        raise SystemExit(f"the tournament ended {final['status']} at {final['deals_over']} deals")
    # What one person's look at the tournament costs, every deal's tables in it.
    cpu = cpu_seconds(pid)
    for p in people:
        await call(f"/api/tournaments/{t.id}", None, p.cookie)
    t.poll_cpu = (cpu_seconds(pid) - cpu) / len(people)
    return t, used, wall


# --- ordinary tables ------------------------------------------------------------


async def ordinary_phase(
    call: Requests, pid: int, people: list[Person], game: str, args: argparse.Namespace
) -> tuple[Played, float, float]:
    """The same people at ordinary tables for --deals rounds; (what they
    played, server CPU seconds, wall seconds)."""
    players, round_key = GAMES[game]
    groups = [people[i : i + players] for i in range(0, len(people), players)]
    body = {
        "game": game,
        "options": {"players": players},
        "seats": [{"kind": "human"}] * players,
        "private": True,
        "rated": False,
        "turn_seconds": TURN_SECONDS,
    }
    seated = []
    for group in groups:
        table = (await call("/api/tables", body, group[0].cookie))["id"]
        for s, p in enumerate(group):
            joined = await call(f"/api/tables/{table}/join", {"seat": s, "name": p.name}, p.cookie)
            seated.append((table, joined["token"], p))
    played = Played()
    deals: int = args.deals

    def past_the_deals(state: dict[str, Any]) -> bool:
        return int(state["view"][round_key]) > deals

    cpu, began = cpu_seconds(pid), time.monotonic()
    pace_s = args.pace_ms / 1000
    jobs = [
        play_table(call.port, tb, tk, p, pace_s, played, past_the_deals) for tb, tk, p in seated
    ]
    await bounded(f"the ordinary {game} tables", PHASE_S, asyncio.gather(*jobs))
    return played, cpu_seconds(pid) - cpu, time.monotonic() - began


# --- the run --------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(port: int, pid: int, args: argparse.Namespace) -> list[str]:
    """Both phases of each game; the report's lines."""
    call = Requests(port)
    names = [f"bench{i}" for i in range(PEOPLE)]
    loop = asyncio.get_running_loop()
    cookies = await asyncio.gather(
        *(loop.run_in_executor(call.pool, sign_up, port, n) for n in names)
    )
    people = [
        Person(n, c, random.Random(args.seed * 1000 + i))
        for i, (n, c) in enumerate(zip(names, cookies, strict=True))
    ]
    lines = [
        f"duplicate tournaments of {PEOPLE} people, {args.deals} deals, think time"
        f" {args.pace_ms} ms x0.5-1.5, next table asked every {args.poll_ms} ms, standings"
        f" every {args.probe_ms} ms, SQLite, {os.cpu_count()} cores",
        f"{'game':17} {'phase':10} {'tables':>6} {'moves':>6} {'wall s':>7} {'CPU s':>6}"
        f" {'CPU ms/move':>11} {'errors':>6}  standings after a deal (p50 / p99 / max)",
    ]
    try:
        for game in args.games:
            t, t_cpu, t_wall = await tournament_phase(call, pid, people, game, args)
            o, o_cpu, o_wall = await ordinary_phase(call, pid, people, game, args)
            tables = f"{t.tables}×{GAMES[game][0]}"
            t_moves = sum(sum(p.moves.values()) for p in t.played)
            o_moves = sum(o.moves.values())
            ms = [x * 1000 for x in t.latencies]
            standings = (
                f"{statistics.median(ms):.0f} / {percentile(ms, 0.99):.0f} / {max(ms):.0f} ms"
            )
            t_errors = sum(len(p.errors) for p in t.played)
            lines += [
                f"{game:17} {'tournament':10} {tables:>6} {t_moves:>6} {t_wall:>7.1f}"
                f" {t_cpu:>6.1f} {1000 * t_cpu / t_moves:>11.2f} {t_errors:>6}  {standings}",
                f"{game:17} {'ordinary':10} {tables:>6} {o_moves:>6} {o_wall:>7.1f}"
                f" {o_cpu:>6.1f} {1000 * o_cpu / o_moves:>11.2f} {len(o.errors):>6}",
                f"{'':17} CPU per move, tournament / ordinary: "
                f"{(t_cpu / t_moves) / (o_cpu / o_moves):.2f};"
                f" GET /api/tournaments/{{id}}: {t.asked} in the tournament,"
                f" {1000 * t.poll_cpu:.1f} ms CPU each at its end",
            ]
    finally:
        call.pool.shutdown()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--pace-ms", type=int, default=300, help="a person's mean think time")
    parser.add_argument(
        "--poll-ms", type=int, default=3000, help="how often a person asks for their next table"
    )
    parser.add_argument(
        "--probe-ms", type=int, default=20, help="how often the standings are asked after a deal"
    )
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    args.games = args.games.split(",")
    if not set(args.games) <= set(GAMES):
        parser.error(f"--games: some of {', '.join(GAMES)}")
    if not 1 <= args.deals <= MAX_DEALS or not 0 <= args.pace_ms <= MAX_PACE_MS:
        parser.error(f"--deals 1…{MAX_DEALS}, --pace-ms 0…{MAX_PACE_MS}")
    if not 10 <= args.poll_ms <= 10_000 or not 5 <= args.probe_ms <= 1000:
        parser.error("--poll-ms 10…10000, --probe-ms 5…1000")
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        port = free_port()
        server = start_server(
            port, db, "--signups-per-minute", str(10 * PEOPLE), "--grace-seconds", "86400"
        )
        try:
            lines = asyncio.run(run(port, server.pid, args))
        finally:
            server.terminate()  # the graceful stop: its bot workers exit with it
            try:
                server.wait(timeout=60)
            except Exception:
                server.kill()
                server.wait()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
