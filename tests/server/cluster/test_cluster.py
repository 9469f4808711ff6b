"""Several ``cardtable serve`` processes on one PostgreSQL, joined by Redis,
behind haproxy (the configuration of ``docs/deployment.md``), all started
here on free ports of 127.0.0.1.

A lease lasts 2 s in these tests (5 s by default) to keep them short. Waits
are bounded polls for a condition; what is asserted is what players were
sent and what the database holds, never how long something took.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

import cardtable
from cardtable.server.db.schema import events, leases
from tests.server import topology
from tests.server.helpers import QUICK, run_coroutine
from tests.server.processes import (
    alive,
    descendants,
    free_port,
    get,
    launch_serve,
    play_acked,
    post,
    wait_gone,
    wait_until_serving,
)

# No shorter timeout than the suite's (pyproject.toml): starting three
# processes alone took past 120 s on a loaded machine, and a timeout ends the
# whole run; the bounded waits below fail first, and say what they waited for.
pytestmark = pytest.mark.usefixtures("needs_haproxy")

LEASE = "2"
WAIT_SECONDS = 30.0  # bounds every poll below
RECONNECT = 1012
LONG = {"target": 200}  # a game that does not end within the moves of a test
AGAINST_A_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]


@dataclass
class Cluster:
    db: str
    ports: list[int]
    processes: list[subprocess.Popen[bytes]]
    proxy: int

    def owner(self, table: str) -> int:
        """The index of the process whose lease on ``table`` runs (polled: a
        table may be on its way)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            rows = run_coroutine(_lease_rows(self.db))
            name = rows.get(table, (None, 0))[0]
            if name is not None:
                pid = int(name.rsplit(":", 2)[1])
                for i, process in enumerate(self.processes):
                    if process.pid == pid:
                        return i
            assert time.monotonic() < deadline, f"nobody holds table {table}"
            time.sleep(0.05)


async def _lease_rows(url: str) -> dict[str, tuple[str | None, int]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(select(leases))).all()
        return {r.table_id: (r.owner, r.epoch) for r in rows}
    finally:
        await engine.dispose()


async def _stored_events(url: str, table: str) -> list[tuple[int, str, Any, int | None]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(events).where(events.c.table_id == table).order_by(events.c.n)
                )
            ).all()
        return [(r.n, r.kind, json.loads(r.data), r.epoch) for r in rows]
    finally:
        await engine.dispose()


@contextmanager
def running_cluster(
    db: str, redis_url: str, n: int = 3, lease: str = LEASE, *options: str
) -> Iterator[Cluster]:
    extra = ("--redis", redis_url, "--lease-seconds", lease, "--bot-workers", "1", *options)
    with (
        topology.serve_processes(db, n, *extra) as (ports, processes),
        topology.haproxy(ports) as proxy,
    ):
        yield Cluster(db, ports, processes, proxy)


@pytest.fixture
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    with running_cluster(postgres_url, redis_url) as running:
        yield running


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    """The test's sockets, closed after it (before its processes stop)."""
    with ExitStack() as sockets:
        yield sockets


def _new_table(
    port: int, game: str, seats: list[dict[str, str]], options: dict[str, Any] | None = None
) -> str:
    options = QUICK[game] if options is None else options
    body = {"game": game, "options": options, "seats": seats, "bot_delay_ms": 0}
    table: str = post(port, "/api/tables", body)["id"]
    return table


def _join(port: int, table: str, seat: int, name: str) -> str:
    token: str = post(port, f"/api/tables/{table}/join", {"seat": seat, "name": name})["token"]
    return token


@contextmanager
def _socket(
    port: int, table: str, token: str | None = None
) -> Iterator[tuple[ClientConnection, dict[str, Any]]]:
    """A socket and the first state it got, tried until one does (the table
    may be moving between processes, or its process gone)."""
    query = f"?token={token}" if token else ""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        with ExitStack() as stack:
            try:
                ws = stack.enter_context(
                    connect(f"ws://127.0.0.1:{port}/ws/{table}{query}", open_timeout=5)
                )
                first = json.loads(ws.recv(timeout=WAIT_SECONDS))
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
                assert time.monotonic() < deadline, f"table {table} is not served again"
                time.sleep(0.1)
                continue
            assert first["type"] == "state", first
            yield ws, first
            return


def _play_out(
    players: dict[int, tuple[ClientConnection, dict[str, Any]]], rng: random.Random
) -> dict[str, Any]:
    """Every player answers its turns until the game is over; the final state.
    Each socket is read in turn without waiting on any one: only the mover
    gets an acknowledgement, so the sockets' streams differ in length. The
    bound is on each step, not on the whole game (which takes what the
    machine's load makes it take): some socket gets a message in time."""
    pending = {seat: [first] for seat, (_, first) in players.items()}
    sent: set[tuple[int, int]] = set()
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        assert time.monotonic() < deadline, "the game stalled: no socket got a message"
        for seat, (ws, _) in players.items():
            try:
                message = pending[seat].pop() if pending[seat] else json.loads(ws.recv(0.02))
            except TimeoutError:
                continue
            deadline = time.monotonic() + WAIT_SECONDS
            assert message["type"] != "error", message
            if message["type"] != "state":
                continue
            if message["finished"]:
                return dict(message)
            if message["to_move"] == seat and (seat, message["seq"]) not in sent:
                move = rng.choice(message["legal"])
                ws.send(json.dumps({"type": "move", "seq": message["seq"], "move": move}))
                sent.add((seat, message["seq"]))


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_two_people_and_a_spectator_play_a_whole_game_through_the_proxy(
    cluster: Cluster, game: str
) -> None:
    table = _new_table(cluster.proxy, game, [{"kind": "human"}, {"kind": "human"}])
    tokens = [_join(cluster.proxy, table, seat, name) for seat, name in enumerate(["Ann", "Bo"])]
    with ExitStack() as stack:
        players = {
            seat: stack.enter_context(_socket(cluster.proxy, table, token))
            for seat, token in enumerate(tokens)
        }
        watcher, _ = stack.enter_context(_socket(cluster.proxy, table))
        final = _play_out(players, random.Random(7))
        while not (seen := json.loads(watcher.recv(timeout=WAIT_SECONDS)))["finished"]:
            assert seen["type"] == "state" and seen["seat"] is None
    assert seen["seq"] == final["seq"] and seen["scores"] == final["scores"]
    record = get(cluster.proxy, f"/api/tables/{table}/record")
    assert cardtable.replay(record).error is None


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_people_on_different_processes_play_a_whole_game_through_relays(
    cluster: Cluster, game: str
) -> None:
    """No proxy: each socket goes to a process of its own. The owner keeps
    the table (a socket of its own is there); the others relay theirs."""
    table = _new_table(cluster.proxy, game, [{"kind": "human"}, {"kind": "human"}])
    tokens = [_join(cluster.proxy, table, seat, name) for seat, name in enumerate(["Ann", "Bo"])]
    owner = cluster.owner(table)
    epoch = run_coroutine(_lease_rows(cluster.db))[table][1]
    others = [port for i, port in enumerate(cluster.ports) if i != owner]
    with ExitStack() as stack:
        ann = stack.enter_context(_socket(cluster.ports[owner], table, tokens[0]))
        bo = stack.enter_context(_socket(others[0], table, tokens[1]))
        watcher, _ = stack.enter_context(_socket(others[1], table))
        final = _play_out({0: ann, 1: bo}, random.Random(13))
        while not (seen := json.loads(watcher.recv(timeout=WAIT_SECONDS)))["finished"]:
            assert seen["type"] == "state" and seen["seat"] is None
    assert seen["seq"] == final["seq"] and seen["scores"] == final["scores"]
    assert ann[1]["seat"] == 0 and bo[1]["seat"] == 1
    assert run_coroutine(_lease_rows(cluster.db))[table][1] == epoch  # it never moved
    record = get(cluster.proxy, f"/api/tables/{table}/record")
    assert cardtable.replay(record).error is None


def _frames_until(
    ws: ClientConnection, last: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    """The frames of ``ws`` up to the first for which ``last`` holds, that one included."""
    frames = [json.loads(ws.recv(timeout=WAIT_SECONDS))]
    while not last(frames[-1]):
        frames.append(json.loads(ws.recv(timeout=WAIT_SECONDS)))
    return frames


def test_a_relayed_socket_gets_exactly_the_frames_of_a_socket_at_the_owner(
    cluster: Cluster,
) -> None:
    """The same seat twice: once at the owner, once relayed. Every frame is
    the owner's, built from that seat's view (the secrecy tests check that
    builder), so the relay adds, drops, reorders and changes nothing."""
    rng = random.Random(14)
    table = _new_table(cluster.proxy, "marshmallow-test", AGAINST_A_BOT, LONG)
    token = _join(cluster.proxy, table, 0, "Ann")
    owner = cluster.owner(table)
    elsewhere = cluster.ports[(owner + 1) % len(cluster.ports)]
    with (
        _socket(cluster.ports[owner], table, token) as (here, first),
        _socket(elsewhere, table, token) as (relayed, _),
    ):
        acked = play_acked(here, 0, 4, rng, first)

        # A pong ends the same frames on both sockets only if the table is
        # still: the two pings reach the owner at different moments (the
        # relayed one through Redis), and a bot's move made between them
        # lands before one pong and after the other (that made this test
        # fail about 1 run in 3 with every frame relayed). After the last
        # ack the bot owes its answer; once seat 0 is to move again (no
        # turn timer) nothing more is sent until it moves. So: read both up
        # to that state; a ping's pong must then be the very next frame.
        def seat_0_to_move(frame: dict[str, Any]) -> bool:
            return bool(
                frame["type"] == "state" and frame["to_move"] == 0 and frame["seq"] > max(acked)
            )

        seen: dict[str, list[dict[str, Any]]] = {}
        for name, ws in (("here", here), ("relayed", relayed)):
            seen[name] = _frames_until(ws, seat_0_to_move)
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=WAIT_SECONDS)) == {"type": "pong"}
    states = {name: [f for f in frames if f["type"] == "state"] for name, frames in seen.items()}
    after_the_last_ack = states["here"]
    assert after_the_last_ack  # the state with that move in it, at least
    # The same states in the same order (the relayed socket got earlier ones too)…
    assert states["relayed"][-len(after_the_last_ack) :] == after_the_last_ack
    seqs = [f["seq"] for f in states["relayed"]]
    assert seqs == list(range(seqs[0], seqs[-1] + 1))  # …one per move, none missing…
    assert all(f["seat"] == 0 for f in states["relayed"])  # …and only that seat's
    assert {f["type"] for f in seen["relayed"]} == {"state"}  # acks go to the mover alone


def test_a_socket_on_another_process_still_plays(cluster: Cluster) -> None:
    rng = random.Random(8)
    table = _new_table(cluster.proxy, "marshmallow-test", AGAINST_A_BOT, LONG)
    token = _join(cluster.proxy, table, 0, "Ann")
    acked: dict[int, dict[str, Any]] = {}
    for i, port in enumerate([*cluster.ports, *cluster.ports]):  # each process, not the proxy
        with _socket(port, table, token) as (ws, first):
            acked |= play_acked(ws, 0, 1, rng, first)
        assert cluster.owner(table) == i % len(cluster.ports)  # the table came to the socket
    moves = [e[2] for e in run_coroutine(_stored_events(cluster.db, table)) if e[1] == "move"]
    for seq, move in acked.items():
        assert moves[seq] == {"seat": 0, **move}


def _owner_socket_with_moves(
    cluster: Cluster, rng: random.Random, stack: ExitStack
) -> tuple[str, str, int, dict[int, dict[str, Any]], ClientConnection]:
    """A table against a bot, 3 moves played on a socket to its owner (open
    until ``stack`` closes)."""
    table = _new_table(cluster.proxy, "marshmallow-test", AGAINST_A_BOT, LONG)
    token = _join(cluster.proxy, table, 0, "Ann")
    owner = cluster.owner(table)
    ws, first = stack.enter_context(_socket(cluster.ports[owner], table, token))
    acked = play_acked(ws, 0, 3, rng, first)
    return table, token, owner, acked, ws


def _assert_stored(cluster: Cluster, table: str, acked: dict[int, dict[str, Any]]) -> None:
    stored = run_coroutine(_stored_events(cluster.db, table))
    assert [e[0] for e in stored] == list(range(len(stored)))  # no event twice, none missing
    epochs = [e[3] or 0 for e in stored]
    assert epochs == sorted(epochs)  # each owner wrote after the one before, never between
    moves = [e[2] for e in stored if e[1] == "move"]
    for seq, move in acked.items():
        assert moves[seq] == {"seat": 0, **move}


def test_kill_9_of_an_owner_moves_its_table_and_loses_no_acknowledged_move(
    cluster: Cluster, stack: ExitStack
) -> None:
    rng = random.Random(9)
    table, token, owner, acked, ws = _owner_socket_with_moves(cluster, rng, stack)
    killed = cluster.processes[owner]
    killed.send_signal(signal.SIGKILL)  # at once after the last acknowledgement
    started = time.monotonic()
    killed.wait()
    ws.close()
    with _socket(cluster.proxy, table, token) as (again, first):
        assert first["seq"] >= max(acked) + 1
        acked |= play_acked(again, 0, 2, rng, first)
        print(
            f"failover: kill -9 to the first acknowledged move {time.monotonic() - started:.2f} s"
        )
    assert cluster.owner(table) != owner
    _assert_stored(cluster, table, acked)


def test_kill_9_of_each_process_in_turn_under_play_loses_nothing(
    postgres_url: str, redis_url: str
) -> None:
    """Several tables in play; each process in turn is killed (and started
    again on its port): every table is served again (the socket's bounded
    poll), every acknowledged move is stored once, no table stays leased to
    a dead process, and the epochs never go back (no table owned twice)."""
    rng = random.Random(18)
    extra = ("--redis", redis_url, "--lease-seconds", LEASE, "--bot-workers", "1")
    with running_cluster(postgres_url, redis_url) as cluster:
        tables = [
            _new_table(cluster.proxy, "marshmallow-test", AGAINST_A_BOT, LONG) for _ in "abcd"
        ]
        tokens = [_join(cluster.proxy, table, 0, "Ann") for table in tables]
        acked: dict[str, dict[int, dict[str, Any]]] = {table: {} for table in tables}

        def play_each() -> None:
            for table, token in zip(tables, tokens, strict=True):
                with _socket(cluster.proxy, table, token) as (ws, first):
                    assert first["seq"] >= max(acked[table], default=-1) + 1
                    acked[table] |= play_acked(ws, 0, 2, rng, first)

        play_each()
        for i, port in enumerate(cluster.ports):
            dead = cluster.processes[i]
            dead.send_signal(signal.SIGKILL)
            dead.wait()
            play_each()  # every table served again, by whichever process holds it now
            held = run_coroutine(_lease_rows(cluster.db))
            assert all(f":{dead.pid}:" not in (held[t][0] or "") for t in tables)
            cluster.processes[i] = launch_serve(port, cluster.db, *extra)
            wait_until_serving(port, cluster.processes[i])
        for table in tables:
            _assert_stored(cluster, table, acked[table])
            assert len(acked[table]) == 2 * (1 + len(cluster.ports))


def test_sigterm_hands_tables_over_at_once_and_leaves_no_process(
    postgres_url: str, redis_url: str, stack: ExitStack
) -> None:
    rng = random.Random(10)
    # A lease of a minute: a table that moves in this test was released, not run out.
    with running_cluster(postgres_url, redis_url, n=2, lease="60") as cluster:
        table, token, owner, acked, ws = _owner_socket_with_moves(cluster, rng, stack)
        stopping = cluster.processes[owner]
        children = descendants(stopping.pid)
        stopping.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=WAIT_SECONDS)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == RECONNECT
        assert stopping.wait(timeout=WAIT_SECONDS) == 0
        assert wait_gone(children, WAIT_SECONDS) == set()
        holder = run_coroutine(_lease_rows(cluster.db))[table][0]
        assert holder is None or f":{stopping.pid}:" not in holder  # released at the stop
        with _socket(cluster.proxy, table, token) as (again, first):
            assert first["seq"] >= max(acked) + 1
            acked |= play_acked(again, 0, 2, rng, first)
        assert cluster.owner(table) != owner
        _assert_stored(cluster, table, acked)


def test_an_owner_paused_past_its_lease_can_never_write_again(
    cluster: Cluster, stack: ExitStack
) -> None:
    rng = random.Random(11)
    table, token, owner, acked, ws = _owner_socket_with_moves(cluster, rng, stack)
    paused = cluster.processes[owner]
    paused.send_signal(signal.SIGSTOP)
    try:
        other = (owner + 1) % len(cluster.ports)
        with _socket(cluster.ports[other], table, token) as (there, first):  # once expired
            acked |= play_acked(there, 0, 2, rng, first)
    finally:
        paused.send_signal(signal.SIGCONT)
    # The paused process wakes up believing it serves the table: its heartbeat
    # or its next write finds the lease gone, and it sends its socket away.
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = json.loads(ws.recv(timeout=WAIT_SECONDS))
            if message["type"] == "state" and message["to_move"] == 0:
                move = rng.choice(message["legal"])
                ws.send(json.dumps({"type": "move", "seq": message["seq"], "move": move}))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == RECONNECT
    assert cluster.owner(table) != owner and alive(paused.pid)
    _assert_stored(cluster, table, acked)


def test_redis_restarting_mid_game_loses_nothing(postgres_url: str, stack: ExitStack) -> None:
    rng = random.Random(12)
    port = free_port()
    first_redis = ExitStack()
    _, redis_url = first_redis.enter_context(topology.redis(port))
    with first_redis, running_cluster(postgres_url, redis_url, n=2) as cluster:
        table, token, owner, acked, _ = _owner_socket_with_moves(cluster, rng, stack)
        first_redis.close()  # Redis goes away mid-game…
        stack.enter_context(topology.redis(port))  # …and comes back empty, at the same address
        other = (owner + 1) % 2
        # A socket on the other process, over the new Redis: the owner keeps
        # the table (its own socket is still open) and the other relays.
        with _socket(cluster.ports[other], table, token) as (there, first):
            acked |= play_acked(there, 0, 2, rng, first)
        assert cluster.owner(table) == owner
        assert all(p.poll() is None for p in cluster.processes)
        _assert_stored(cluster, table, acked)


def _listed_everywhere(
    cluster: Cluster, query: str, done: Callable[[list[dict[str, Any]]], bool]
) -> dict[int, list[dict[str, Any]]]:
    """``GET /api/tables?QUERY`` of each process, polled until ``done`` holds
    for every answer (an owner writes its lines at each heartbeat)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        pages = {
            i: get(port, f"/api/tables?{query}")["tables"] for i, port in enumerate(cluster.ports)
        }
        if all(done(tables) for tables in pages.values()):
            return pages
        assert time.monotonic() < deadline, f"not every process lists it: {pages}"
        time.sleep(0.1)


def test_every_process_lists_every_open_table_with_its_owners_counts(
    cluster: Cluster, stack: ExitStack
) -> None:
    two = [{"kind": "human"}, {"kind": "human"}]
    waiting = _new_table(cluster.ports[0], "marshmallow-test", two)
    hidden = post(
        cluster.ports[0],
        "/api/tables",
        {"game": "marshmallow-test", "seats": two, "private": True},
    )["id"]
    playing = _new_table(cluster.ports[1], "myrummy-111", AGAINST_A_BOT, QUICK["myrummy-111"])
    token = _join(cluster.ports[1], playing, 0, "Ann")
    stack.enter_context(_socket(cluster.ports[1], playing, token))
    stack.enter_context(_socket(cluster.ports[1], playing))  # a spectator at its owner

    def both_shown(tables: list[dict[str, Any]]) -> bool:
        by_id = {t["id"]: t for t in tables}
        return waiting in by_id and by_id.get(playing, {}).get("spectators") == 1

    pages = _listed_everywhere(cluster, "", both_shown)
    for tables in pages.values():
        by_id = {t["id"]: t for t in tables}
        assert hidden not in by_id
        assert by_id[waiting]["status"] == "waiting" and by_id[waiting]["url"] == f"/t/{waiting}"
        assert by_id[playing]["status"] == "playing" and by_id[playing]["seats"][0]["connected"]
        ids = [t["id"] for t in tables]
        assert ids.index(playing) < ids.index(waiting)  # newest first
    rummy = _listed_everywhere(cluster, "game=myrummy-111&players=2", bool)
    assert all([t["id"] for t in tables] == [playing] for tables in rummy.values())
    friendly = post(
        cluster.ports[2],
        "/api/tables",
        {"game": "marshmallow-test", "seats": two, "rated": False},
    )["id"]
    only_friendly = _listed_everywhere(cluster, "rated=false", bool)
    assert all([t["id"] for t in tables] == [friendly] for tables in only_friendly.values())


def test_pages_of_the_shared_lobby_show_each_table_once(cluster: Cluster) -> None:
    two = [{"kind": "human"}, {"kind": "human"}]
    made = {_new_table(cluster.ports[i % 3], "marshmallow-test", two) for i in range(5)}
    _listed_everywhere(cluster, "", lambda tables: made <= {t["id"] for t in tables})
    for port in cluster.ports:
        seen: list[str] = []
        cursor = ""
        for _ in range(10):
            answer = get(port, f"/api/tables?limit=2{cursor}")
            seen += [t["id"] for t in answer["tables"]]
            if answer["next"] is None:
                break
            cursor = f"&cursor={answer['next']}"
        assert sorted(seen) == sorted(made)  # every table once, on pages of two


def test_a_rematch_asked_after_the_finished_tables_lease_went_is_made(
    cluster: Cluster,
) -> None:
    table = _new_table(cluster.proxy, "marshmallow-test", AGAINST_A_BOT)
    token = _join(cluster.proxy, table, 0, "Ann")
    with _socket(cluster.proxy, table, token) as ann:
        final = _play_out({0: ann}, random.Random(15))
    assert final["finished"]
    deadline = time.monotonic() + WAIT_SECONDS
    while run_coroutine(_lease_rows(cluster.db))[table][0] is not None:
        assert time.monotonic() < deadline, "the finished table's lease was never released"
        time.sleep(0.1)
    rematch = post(cluster.proxy, f"/api/tables/{table}/rematch", {"token": token})["id"]
    assert get(cluster.proxy, f"/api/tables/{table}")["rematch"] == rematch
    assert get(cluster.proxy, f"/api/tables/{rematch}")["status"] == "playing"
