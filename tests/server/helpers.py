"""Driving the server in-process: tables over HTTP, players over WebSockets.

Tests read messages in order from Starlette's test WebSockets; nothing waits
on a clock. A :class:`Conn` keeps every message its client received, so the
secrecy tests can check all of them afterwards.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from starlette.testclient import TestClient, WebSocketTestSession

import cardtable
from cardtable.core.game import State
from cardtable.server.app import create_app
from cardtable.server.live.hub import Hub
from cardtable.server.settings import Limits, Settings
from cardtable.server.tables.chat import ChatLine
from cardtable.server.tables.facts import SeatFacts, TableFacts
from cardtable.server.tables.table import Table

# Small games: every test plays whole games.
QUICK = {
    "marshmallow-test": {"target": 4},
    "myrummy-111": {"rounds": 1, "turn_limit": 30},
}


@dataclass
class Conn:
    """One client: its socket, its seat and everything it was sent."""

    ws: WebSocketTestSession
    seat: int | None
    messages: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] | None = None

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def until(self, want: Any) -> dict[str, Any]:
        """Read until a message for which ``want(message)`` holds; return it."""
        while True:
            message = self.read()
            if want(message):
                return message

    def until_state(self, want: Any) -> dict[str, Any]:
        """The latest state if ``want`` holds for it, else the next that it holds for."""
        if self.state is not None and want(self.state):
            return self.state
        return self.until(lambda m: m["type"] == "state" and want(m))

    def send(self, obj: Any) -> None:
        self.ws.send_json(obj)

    def move(self, move: dict[str, Any], seq: int | None = None) -> None:
        assert self.state is not None
        self.send({"type": "move", "seq": self.state["seq"] if seq is None else seq, "move": move})

    def quiet(self) -> None:
        """Assert that nothing was sent to this client since its last read:
        a ping's pong must be the very next message."""
        self.send({"type": "ping"})
        assert self.read() == {"type": "pong"}


class Server:
    """An in-process server (lifespan included) on a database URL."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    @property
    def hub(self) -> Hub:
        hub: Hub = self.client.app.state.hub  # type: ignore[attr-defined]
        return hub

    def table(self, table_id: str) -> Table:
        """A table held in memory (one that is waiting or playing, or watched)."""
        return self.hub.tables[table_id]

    def record(self, table_id: str) -> dict[str, Any]:
        response = self.client.get(f"/api/tables/{table_id}/record")
        assert response.status_code == 200, response.text
        record: dict[str, Any] = response.json()
        return record

    def chat(self, table_id: str) -> list[ChatLine]:
        """Every chat line the database holds for ``table_id``, in order."""
        load = self.hub.storage.load_chat
        said: list[ChatLine] = self.client.portal.call(load, table_id)  # type: ignore[union-attr]
        return said

    def create(self, game: str, seats: list[str], **settings: Any) -> str:
        """A table; ``seats`` holds "human" or a bot name per seat."""
        options = settings.pop("options") if "options" in settings else QUICK[game]
        body = {
            "game": game,
            "options": options,
            "seats": [
                {"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats
            ],
            "bot_delay_ms": 0,
            **settings,
        }
        response = self.client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        table_id: str = response.json()["id"]
        return table_id

    def join(self, table_id: str, seat: int, name: str | None = None) -> str:
        response = self.client.post(
            f"/api/tables/{table_id}/join", json={"seat": seat, "name": name or f"Player {seat}"}
        )
        assert response.status_code == 200, response.text
        token: str = response.json()["token"]
        return token

    @contextmanager
    def connect(self, table_id: str, token: str | None = None) -> Iterator[Conn]:
        url = f"/ws/{table_id}" + (f"?token={token}" if token else "")
        with self.client.websocket_connect(url) as ws:
            conn = Conn(ws, None)
            first = conn.read()
            assert first["type"] == "state", first
            conn.seat = first["seat"]
            yield conn


# Most tests play many tables from one test client: the limits per client
# (tests/server/guard/test_abuse_limits.py tests them) would stop them.
UNLIMITED = Limits(
    creates_per_minute=10**6,
    waiting_per_client=10**6,
    joins_per_minute=10**6,
    token_attempts_per_minute=10**6,
    signups_per_minute=10**6,
    chat_per_minute=10**6,
    chat_per_address_per_minute=10**6,
)


@contextmanager
def running(db_url: str, **settings: Any) -> Iterator[Server]:
    """A server on ``db_url``; without ``limits`` in ``settings``, :data:`UNLIMITED`."""
    settings.setdefault("limits", UNLIMITED)
    app = create_app(Settings(db_url=db_url, **settings))
    with TestClient(app) as client:
        yield Server(client)


def sqlite_url(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder / 'tables.sqlite3'}"


def play_out(
    observer: Conn,
    players: dict[int, Conn],
    rng: random.Random,
    mistakes: float = 0.0,
    stale_first: bool = False,
    talk: Callable[[Conn, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play random legal moves for the ``players`` (by seat) until the game
    ends; ``observer`` sees every state (a spectator or one of the players).
    With probability ``mistakes`` a refused move is tried first (and must be
    refused). With ``stale_first`` the first move may be answered "stale" (a
    stand-in's move was being stored as its player came back). ``talk`` is
    called with the mover and its state before each move (to chat)."""
    played = -1  # the last seq a move was sent for
    while True:
        state = observer.until_state(
            lambda m, done=played: m["finished"] or (m["to_move"] in players and m["seq"] > done)
        )
        if state["finished"]:
            for conn in players.values():
                conn.until_state(lambda m: m["finished"])
            return state
        seq, seat = state["seq"], state["to_move"]
        mover = players[seat]
        now = mover.until_state(lambda m, q=seq, s=seat: m["seq"] == q and m["to_move"] == s)
        if talk is not None:
            talk(mover, now)
        if now["refused"] and rng.random() < mistakes:
            mover.move(rng.choice(now["refused"])["move"])
            assert mover.until(lambda m: m["type"] in ("ack", "error"))["type"] == "error"
        mover.move(rng.choice(now["legal"]))
        ack = mover.until(lambda m: m["type"] in ("ack", "error"))
        if stale_first and played < 0 and "stale" in ack.get("message", ""):
            played = seq
            continue
        assert ack == {"type": "ack", "seq": seq + 1}, ack
        played = seq


def play_moves(
    conn: Conn, count: int, rng: random.Random, wait_turn: bool = True
) -> dict[str, Any]:
    """Play ``count`` random moves for ``conn``'s seat; the state after them
    at which that seat is next to move or the game is over (without
    ``wait_turn``: the state right after the last move)."""
    seat, done = conn.seat, -1
    for _ in range(count):
        state = conn.until_state(lambda m, d=done: m["to_move"] == seat and m["seq"] > d)
        conn.move(rng.choice(state["legal"]))
        ack = conn.until(lambda m: m["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "seq": state["seq"] + 1}, ack
        done = state["seq"]
    return conn.until_state(
        lambda m, d=done: m["seq"] > d and (m["to_move"] == seat or m["finished"] or not wait_turn)
    )


def states_by_seq(record: dict[str, Any]) -> list[State]:
    """The game after 0, 1, 2… moves (each with the deal that follows it, as
    the server deals at once), from a record."""
    game = cardtable.load(record["game"], **record["options"])
    state = game.new_state()
    out: list[State] = []
    for round_ in record["rounds"]:
        state.deal(game.deal_from_json(round_["deal"], "deal"))
        for data in round_["moves"]:
            out.append(state.clone())
            seat, move, chance = game.move_from_json(data, "move")
            state.apply_as(seat, move, **chance)
    out.append(state.clone())
    return out


T = TypeVar("T")


def run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: in a whole-suite run the browser
    tests' Playwright (its sync API) keeps an event loop running in the main
    thread, where ``asyncio.run`` refuses to start another."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def bots_table_facts(table_id: str) -> TableFacts:
    """A stored table's facts: Marshmallow Test in play between two random bots."""
    return TableFacts(
        id=table_id,
        game="marshmallow-test",
        options={"players": 2},
        private=False,
        turn_seconds=None,
        bot_delay_ms=0,
        stand_in="random",
        status="playing",
        created_ms=1,
        seats=[SeatFacts(0, "bot", "random"), SeatFacts(1, "bot", "random")],
    )
