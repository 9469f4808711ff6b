"""Scripted people of a tournament, for browser tests: accounts made over
HTTP, and a thread per person that does what the tournament page does (asks
``GET /api/tournaments/{id}`` for their table of the deal in play, then plays
it over a WebSocket with the seat's token) until the tournament is over."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from typing import Any

from websockets.sync.client import connect

PASSWORD = "correct horse"
POLL_S = 0.5  # how often a person between tables asks for the next one
RECV_S = 60.0  # a bound on waiting for a table's next message (bots, other people)
GIVE_UP_S = 240.0  # a bound on one person's whole tournament, never a check of speed
DECLARE_ODDS = 0.25  # MyRummy 111: how often a placement declares, once everyone has had a turn


def api(url: str, path: str, body: dict[str, Any] | None = None, cookie: str = "") -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
    request = urllib.request.Request(url + path, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=RECV_S) as response:
        return json.load(response)


def sign_up(url: str, name: str) -> str:
    """A new account's session cookie (``ct_session=…``)."""
    body = json.dumps({"name": name, "password": PASSWORD}).encode()
    request = urllib.request.Request(
        url + "/api/account/signup", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=RECV_S) as response:
        return str(response.headers["Set-Cookie"]).split(";", 1)[0]


def choose(state: dict[str, Any], rng: random.Random) -> Any:
    """A random legal move. In MyRummy 111 a random placement declares half
    the time, which would end most deals before every seat has played: a
    person here declares only once everyone at the table has had a turn,
    and then at one placement in four."""
    legal: list[dict[str, Any]] = state["legal"]
    view = state["view"]
    declares = [m for m in legal if m.get("declare")]
    if not declares:
        return rng.choice(legal)
    if view["turns_in_round"] >= len(view["hand_sizes"]) and rng.random() < DECLARE_ODDS:
        return rng.choice(declares)
    return rng.choice([m for m in legal if not m.get("declare")])


class ScriptedPerson(threading.Thread):
    """One signed-in person playing every deal of a tournament; a failure
    is kept in ``failure`` for the test to raise."""

    def __init__(self, url: str, tournament: str, name: str, cookie: str, seed: int) -> None:
        super().__init__(name=f"scripted-{name}", daemon=True)
        self.url, self.tournament, self.cookie = url, tournament, cookie
        self.person = name
        self.rng = random.Random(seed)
        self.tables: list[str] = []  # the tables it played, deal by deal
        self.moves = 0
        self.errors: list[str] = []  # error messages the tables sent it
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:  # raised by the test, not lost in the thread
            self.failure = exc

    def _play(self) -> None:
        deadline = time.monotonic() + GIVE_UP_S
        while time.monotonic() < deadline:
            one = api(self.url, f"/api/tournaments/{self.tournament}", cookie=self.cookie)
            if one["status"] != "running":
                return
            seat = one["table"]
            if seat is None or seat["id"] in self.tables:
                time.sleep(POLL_S)  # between deals: the next deal's tables come soon
                continue
            self.tables.append(seat["id"])
            self._play_table(seat["id"], seat["token"])
        raise AssertionError(f"{self.person}: the tournament did not end within {GIVE_UP_S} s")

    def _play_table(self, table: str, token: str) -> None:
        address = self.url.replace("http://", "ws://") + f"/ws/{table}?token={token}"
        sent: set[int] = set()
        with connect(address, additional_headers={"Cookie": self.cookie}, proxy=None) as ws:
            while True:
                message = json.loads(ws.recv(timeout=RECV_S))
                if message["type"] == "error":
                    self.errors.append(str(message.get("message")))
                if message["type"] != "state":
                    continue
                if message["finished"]:
                    return
                seq = message["seq"]
                if message["to_move"] == message["seat"] and seq not in sent:
                    sent.add(seq)
                    move = choose(message, self.rng)
                    ws.send(json.dumps({"type": "move", "seq": seq, "move": move}))
                    self.moves += 1
