"""Load on ``cardtable serve``: many tables of scripted people and bots at once.

    python benchmarks/bench_server.py [--tables 200] [--seconds 60] [--hard 10]
        [--mode pace|burst|both] [--db postgresql://user@127.0.0.1:5432/db]
        [--chat] [--accounts] [--processes N] [--heartbeat before|after|compare]

The server runs as a user runs it (``python -m cardtable serve`` in its own
process, on 127.0.0.1, a fresh SQLite file unless ``--db`` is given). With
``--processes N`` it is N ``cardtable serve --redis`` processes on a fresh
PostgreSQL database and Redis behind haproxy, all started here as the test
suite starts them (``tests/server/topology.py``), and the players connect
through the proxy. Each
table alternates the two games and seats two scripted WebSocket players and
one bot without pacing (``easy``; ``hard`` at ``--hard`` of the tables, whose
searches fill the worker pool the whole run). A finished game goes on as a
rematch.

- ``pace``: each player thinks 0.5–1.5 s before each of its moves (a human
  pace); reports moves/s and the latency from sending a move to receiving its
  acknowledgement (p50/p99), which covers the engine's check, the commit to
  the database and the messages to every seat.
- ``burst``: every player answers at once, for the peak moves/s.

``--chat``: chat at every table, a line every 5 s on average (each player says
one every 8–12 s, text or a quick phrase, within the server's default chat
limit); the report counts the lines every client received. ``--accounts``:
every player signs up first (an account each, before the clock starts), sits
down and connects signed in.

``--heartbeat``: the players ping as the browser's socket does. ``before``
is the page before issue 27 (a ping every 25 s), ``after`` the page now (a
ping after 3 s without a word from the server, so an idle table pings every
3 s); ``compare`` runs each mode with both, ``before`` first, in one run, so
the two lines can be read against each other.

``--cpus-per-process C`` caps each ``cardtable serve`` process (and the
bot workers it starts) at C cores with a CPU cgroup, as a container's limit
would (root only; cgroup v1's ``cpu`` controller or cgroup v2's
``cpu.max``). On a machine whose cores the players, PostgreSQL and Redis
share with the servers, this is how to see whether a second process adds
what a second machine would: each process gets the same CPU, and the
load's own share stays the same.

Bounded: ``--tables`` at most 1000, ``--seconds`` at most 600, 127.0.0.1 only.
Moves/s counts every move applied (people's and bots'); the server's CPU time
(every ``cardtable serve`` process together) comes from /proc.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server import topology  # noqa: E402

GAMES: dict[str, dict[str, Any]] = {
    "marshmallow-test": {},
    "myrummy-111": {},
}


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, move sent -> ack
    moves: int = 0  # every move applied, counted once per table
    errors: list[str] = field(default_factory=list)
    games: int = 0
    chat_lines: int = 0  # chat lines received, by every client
    pongs: int = 0  # answers to the heartbeat's pings
    cpu_before: float = 0.0  # the servers' CPU seconds once every table was set up


# The browser's heartbeat (cardtable/server/web/static/socket.js), before and after issue 27.
OLD_PING_SECONDS = 25.0
QUIET_SECONDS = 3.0
PING = json.dumps({"type": "ping"})

# One client (this script) plays every table: the limits per client would stop it.
UNLIMITED = [
    *("--creates-per-minute", "1000000"),
    *("--waiting-per-client", "1000000"),
    *("--joins-per-minute", "1000000"),
    *("--chat-per-address-per-minute", "1000000"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def http(port: int, path: str, body: dict[str, Any] | None = None, cookie: str = "") -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def sign_up(port: int, name: str) -> str:
    """A new account's session cookie (``ct_session=…``), for requests and sockets."""
    body = json.dumps({"name": name, "password": "bench password"}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/account/signup",
        data=body,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return str(response.headers["Set-Cookie"]).split(";", 1)[0]


def start_server(port: int, db: str, *extra: str) -> subprocess.Popen[bytes]:
    """``cardtable serve`` on ``port`` without the per-client limits (and ``extra`` options)."""
    command = ["serve", "--port", str(port), "--db", db, *UNLIMITED, *extra]
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtable", *command],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
    )
    for _ in range(600):
        try:
            http(port, "/api/games")
            return process
        except OSError:
            if process.poll() is not None:
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)
    raise SystemExit("the server did not answer within 60 s")


@contextmanager
def servers(db: str | None, processes: int, folder: str) -> Iterator[tuple[int, list[int], str]]:
    """The server(s) under load; yield (the port players use, the pids whose
    CPU is counted, the database's kind)."""
    if processes == 0:
        url = db or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        port = free_port()
        server = start_server(port, url)
        try:
            yield port, [server.pid], url.split("://")[0]
        finally:
            server.terminate()  # the graceful stop: its bot workers exit with it
            server.wait(timeout=60)
        return
    with topology.started(processes, *UNLIMITED) as running:
        kind = f"postgresql + redis, {processes} processes behind haproxy"
        yield running.proxy, [p.pid for p in running.processes], kind


CGROUP_V1 = Path("/sys/fs/cgroup/cpu")
CGROUP_V2 = Path("/sys/fs/cgroup")
PERIOD_US = 100_000


@contextmanager
def cpu_capped(pids: list[int], cpus: float | None) -> Iterator[None]:
    """Each of ``pids`` (whole processes, and the children they start later)
    in a CPU cgroup of its own capped at ``cpus`` cores; removed afterwards."""
    if cpus is None:
        yield
        return
    controllers = CGROUP_V2 / "cgroup.controllers"
    v2 = controllers.exists() and "cpu" in controllers.read_text().split()
    root = CGROUP_V2 if v2 else CGROUP_V1
    quota = int(cpus * PERIOD_US)
    groups = []
    try:
        for pid in pids:
            group = root / f"cardtable-bench-{os.getpid()}-{pid}"
            group.mkdir()
            groups.append(group)
            if v2:
                (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            else:
                (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (group / "cpu.cfs_quota_us").write_text(str(quota))
            (group / "cgroup.procs").write_text(str(pid))
    except OSError as exc:
        for group in groups:
            group.rmdir()
        raise SystemExit(
            f"--cpus-per-process: cannot make a CPU cgroup under {root} ({exc.strerror});"
            " it needs root and the cpu controller"
        ) from None
    try:
        yield
    finally:
        for group in groups:
            # Its processes have exited (or go back to the parent group first).
            for member in (group / "cgroup.procs").read_text().split():
                (root / "cgroup.procs").write_text(member)
            group.rmdir()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (the bot workers not included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:13]) / os.sysconf("SC_CLK_TCK")


async def make_table(
    port: int, game: str, bot: str, names: list[str] | None
) -> tuple[str, list[str], list[str]]:
    """A table, its two people's tokens and (with ``names``: accounts) their cookies."""
    body = {
        "game": game,
        "options": GAMES[game],
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": bot}],
        "bot_delay_ms": 0,
    }
    table = (await asyncio.to_thread(http, port, "/api/tables", body))["id"]
    cookies = [await asyncio.to_thread(sign_up, port, n) for n in names] if names else ["", ""]
    tokens = [
        (
            await asyncio.to_thread(
                http, port, f"/api/tables/{table}/join", {"seat": s, "name": f"p{s}"}, cookies[s]
            )
        )["token"]
        for s in (0, 1)
    ]
    return table, tokens, cookies


class Player:
    """One scripted person: random legal moves after a think time."""

    def __init__(
        self,
        port: int,
        token: str,
        think: tuple[float, float],
        seed: int,
        chat: bool = False,
        cookie: str = "",
        heartbeat: str = "none",
    ) -> None:
        self.port, self.token, self.think = port, token, think
        self.rng = random.Random(seed)
        self.chat, self.cookie, self.heartbeat = chat, cookie, heartbeat
        self.heard = time.monotonic()  # when the server last said anything

    async def _chatter(self, ws: ClientConnection) -> None:
        """A chat line every 8–12 s, free text or a quick phrase, until cancelled."""
        while True:
            await asyncio.sleep(self.rng.uniform(8.0, 12.0))
            line = self.rng.choice([{"text": "nice move, well thought"}, {"phrase": "gg"}])
            await ws.send(json.dumps({"type": "chat", **line}))

    async def _pinger(self, ws: ClientConnection) -> None:
        """The browser's heartbeat (``--heartbeat``), until cancelled."""
        while True:
            if self.heartbeat == "before":
                await asyncio.sleep(OLD_PING_SECONDS)
            else:
                quiet = time.monotonic() - self.heard
                if quiet < QUIET_SECONDS:
                    await asyncio.sleep(QUIET_SECONDS - quiet)
                    continue
                self.heard = time.monotonic()  # the page waits for the pong before pinging again
            await ws.send(PING)

    async def play(self, table: str, tally: Tally, counts_moves: bool, until: float) -> None:
        while time.monotonic() < until:
            table = await self._one_game(table, tally, counts_moves, until)

    async def _one_game(self, table: str, tally: Tally, counts_moves: bool, until: float) -> str:
        url = f"ws://127.0.0.1:{self.port}/ws/{table}?token={self.token}"
        headers = {"Cookie": self.cookie} if self.cookie else None
        # A capped server answers 400 handshakes at once slowly: wait for it.
        async with connect(url, max_size=2**20, additional_headers=headers, open_timeout=60) as ws:
            helpers = [asyncio.create_task(self._chatter(ws))] if self.chat else []
            if self.heartbeat != "none":
                helpers.append(asyncio.create_task(self._pinger(ws)))
            try:
                return await self._play(ws, table, tally, counts_moves, until)
            finally:
                for helper in helpers:
                    helper.cancel()

    async def _play(
        self, ws: ClientConnection, table: str, tally: Tally, counts_moves: bool, until: float
    ) -> str:
        sent_at: dict[int, float] = {}
        played: set[int] = set()
        first_seq: int | None = None
        last_seq = 0
        while (left := until - time.monotonic()) > 0:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), left))
            except TimeoutError:
                break
            self.heard = time.monotonic()
            kind = message["type"]
            if kind == "pong":
                tally.pongs += 1
                continue
            if kind == "chat":
                tally.chat_lines += len(message["lines"])
                continue
            if kind == "ack":
                started = sent_at.pop(message["seq"] - 1, None)
                if started is not None:
                    tally.latencies.append(time.monotonic() - started)
                continue
            if kind == "error":
                tally.errors.append(message["message"])
                continue
            seq = message["seq"]
            first_seq = seq if first_seq is None else first_seq
            last_seq = seq
            if message["finished"]:
                return await self._next_table(ws, table, message, tally, counts_moves)
            if message["to_move"] == message["seat"] and seq not in played:
                played.add(seq)
                await asyncio.sleep(self.rng.uniform(*self.think))
                sent_at[seq] = time.monotonic()
                move = self.rng.choice(message["legal"])
                await ws.send(json.dumps({"type": "move", "seq": seq, "move": move}))
        if counts_moves and first_seq is not None:
            tally.moves += last_seq - first_seq
        return table

    async def _next_table(
        self, ws: ClientConnection, table: str, final: dict[str, Any], tally: Tally, counts: bool
    ) -> str:
        if counts:
            tally.moves += final["seq"]
            tally.games += 1
        rematch = final.get("rematch")
        if rematch is None:
            answer = await asyncio.to_thread(
                http, self.port, f"/api/tables/{table}/rematch", {"token": self.token}
            )
            rematch = answer["id"]
        return str(rematch)


async def run(
    port: int,
    tables: int,
    hard: int,
    think: tuple[float, float],
    seconds: float,
    chat: bool,
    accounts: str | None,
    pids: list[int],
    heartbeat: str = "none",
) -> Tally:
    """``accounts``: a prefix for the players' account names (None: guests)."""
    tally = Tally()
    setups = []
    for i in range(tables):
        game = list(GAMES)[i % len(GAMES)]
        names = [f"{accounts}{i}-{s}" for s in (0, 1)] if accounts else None
        setups.append(make_table(port, game, "hard" if i < hard else "easy", names))
    made = await asyncio.gather(*setups)
    # The set-up (sign-ups hash passwords) is not part of the load measured.
    tally.cpu_before = sum(map(cpu_seconds, pids))
    until = time.monotonic() + seconds
    players = []
    for i, (table, tokens, cookies) in enumerate(made):
        for seat, token in enumerate(tokens):
            player = Player(port, token, think, i * 2 + seat, chat, cookies[seat], heartbeat)
            players.append(player.play(table, tally, counts_moves=seat == 0, until=until))
    results = await asyncio.gather(*players, return_exceptions=True)
    tally.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    return tally


def report(mode: str, tally: Tally, seconds: float, cpu: float, players_cpu: float) -> None:
    lat = sorted(tally.latencies)
    if not lat:
        print(f"{mode}: no move was acknowledged; errors: {tally.errors[:3]}")
        return
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    print(
        f"{mode:5} {tally.moves / seconds:8.1f} moves/s  {len(lat) / seconds:7.1f} people's moves/s"
        f"  ack p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {lat[-1] * 1000:6.0f} ms"
        f"  games {tally.games}  chat {tally.chat_lines / seconds:.0f} lines/s received"
        f"  pongs {tally.pongs / seconds:.0f}/s"
        f"  CPU: server {cpu / seconds:.0%},"
        f" players {players_cpu / seconds:.0%}  errors {len(tally.errors)}"
    )
    for message in sorted(set(tally.errors))[:3]:
        print(f"      error: {message}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hard", type=int, default=10, help="tables whose bot is 'hard'")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--mode", choices=("pace", "burst", "both"), default="both")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--chat", action="store_true", help="a chat line per table every ~5 s")
    parser.add_argument("--accounts", action="store_true", help="every player signed in")
    parser.add_argument(
        "--heartbeat",
        choices=("none", "before", "after", "compare"),
        default="none",
        help="players ping as the page did before issue 27 (every 25 s), as it does after"
        " (after 3 s of quiet), or both in turn (compare)",
    )
    parser.add_argument(
        "--cpus-per-process",
        type=float,
        help="cap each server process at this many cores (a CPU cgroup; root only)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="N processes on PostgreSQL + Redis behind haproxy (default 0: one, on --db)",
    )
    args = parser.parse_args()
    if args.mode != "pace" and args.heartbeat == "compare":
        parser.error("--heartbeat compare measures the human pace: give --mode pace")
    if not 1 <= args.tables <= 1000 or not 1 <= args.seconds <= 600:
        parser.error("--tables 1…1000 and --seconds 1…600")
    if not 0 <= args.processes <= 8 or (args.processes and args.db):
        parser.error("--processes 0…8 (0: one process on --db), and not with --db")
    if args.cpus_per_process is not None and not 0.05 <= args.cpus_per_process <= 64:
        parser.error("--cpus-per-process 0.05…64")
    with (
        tempfile.TemporaryDirectory() as folder,
        servers(args.db, args.processes, folder) as (port, pids, kind),
        cpu_capped(pids, args.cpus_per_process),
    ):
        modes = ("pace", "burst") if args.mode == "both" else (args.mode,)
        print(
            f"{args.tables} tables ({args.hard} with a hard bot), {args.seconds:.0f} s a mode,"
            f" database {kind}, {os.cpu_count()} cores"
            + (", chat on" if args.chat else "")
            + (", players signed in" if args.accounts else "")
            + (
                f", each server process capped at {args.cpus_per_process:g} cores"
                if args.cpus_per_process
                else ""
            )
        )
        beats = ("before", "after") if args.heartbeat == "compare" else (args.heartbeat,)
        for mode in modes:
            for beat in beats:
                think = (0.5, 1.5) if mode == "pace" else (0.0, 0.0)
                own = time.process_time()
                # Each run signs up accounts of its own (names are unique).
                accounts = f"{mode}-{beat}-" if args.accounts else None
                tally = asyncio.run(
                    run(port, args.tables, args.hard, think, args.seconds, args.chat, accounts,
                        pids, beat)
                )  # fmt: skip
                cpu = sum(map(cpu_seconds, pids)) - tally.cpu_before
                label = mode if beat == "none" else f"{mode} ({beat})"
                report(label, tally, args.seconds, cpu, time.process_time() - own)


if __name__ == "__main__":
    main()
