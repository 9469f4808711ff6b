"""No card reaches a client that its seat may not see (MT-9, MR-5).

Many random games are played through the server with two people, a bot and a
spectator; every message each client received is then checked two ways:

- against the engine's own views: the message's view is exactly
  ``view(seat)`` of the game at that move, and its legal moves and refusals
  are what the engine says for that seat;
- by swapping unseen cards: a state drawn by the game's ``determinize`` from
  the same view (other hands, the deck, the draw pile all different) gives
  the very same message.

For Marshmallow Test, whose cards have names, every card named anywhere in a
message (refusals aside: they cover the whole action space) must also be one
the seat can see.

The people and the spectator chat as they play. A chat message is exactly
its stored lines and nothing else (no state goes into it, so swapping the
unseen cards cannot change it), names no card, and players never get the
spectators' lines.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import cardtable
from cardtable.core.game import State
from cardtable.core.registry import manifest
from cardtable.server.settings import Limits
from cardtable.server.tables.chat import ChatLine
from cardtable.server.tables.journal import Journal
from cardtable.server.tables.messages import chat_message, ended_rounds, game_part
from tests.server.helpers import Conn, play_moves, play_out, running, states_by_seq
from tests.server.live.test_lobby_lifecycle import Clock

pytestmark = pytest.mark.timeout(600, method="thread")

MT_CARD = re.compile(r'"([RYGBP](?:1[0-2]|[1-9]))"')
GAMES = 12  # random games per game name
# Longer games than elsewhere: more rounds, more deals, a reshuffle now and then.
OPTIONS = {"marshmallow-test": {"target": 6}, "myrummy-111": {"rounds": 3, "turn_limit": 40}}


def visible_cards(view: dict[str, Any]) -> set[str]:
    return set(MT_CARD.findall(json.dumps(view)))


SAYINGS = [{"phrase": "thinking"}, {"phrase": "sorry"}, {"text": "nice one <3"}]


def check_chat(said: list[ChatLine], conns: list[Conn]) -> int:
    """Check every chat message against the lines stored; the lines checked."""
    by_n = {line.n: line for line in said}
    checked = 0
    for conn in conns:
        for message in conn.messages:
            if message["type"] != "chat":
                continue
            lines = [by_n[line["n"]] for line in message["lines"]]
            assert json.loads(chat_message(lines, message["history"])) == message
            assert not MT_CARD.findall(json.dumps(message))
            if conn.seat is not None:
                assert all(line.channel == "players" for line in lines)
            checked += len(lines)
    return checked


def chatter(rng: random.Random, watcher: Conn) -> Any:
    """A ``talk`` for :func:`play_out`: now and then the mover or the spectator says something."""

    def talk(mover: Conn, state: dict[str, Any]) -> None:
        if rng.random() < 0.15:
            speaker = rng.choice([mover, watcher])
            speaker.send({"type": "chat", **rng.choice(SAYINGS)})

    return talk


def check(record: dict[str, Any], conns: list[Conn]) -> int:
    """Check every message; the number of swaps that changed some hidden card."""
    name = record["game"]
    game = cardtable.load(name, **record["options"])
    states = states_by_seq(record)
    determinize = manifest(name).part("determinize")
    rng = random.Random(0)
    swapped = 0
    for conn in conns:
        last_view: dict[str, Any] = {}
        for message in conn.messages:
            if message["type"] == "chat":
                continue  # check_chat
            if message["type"] != "state":
                if name == "marshmallow-test":
                    named = set(MT_CARD.findall(json.dumps(message)))
                    assert named <= visible_cards(last_view) | named_by_client(conn, message)
                continue
            state: State = states[message["seq"]]
            seat = message["seat"]
            assert seat == conn.seat
            part = game_part(game, state, seat)
            assert {key: message[key] for key in part} == part
            assert message["view"] == state.view(seat).to_json()
            last_view = message["view"]
            # The last round's summary is this seat's own view when that round ended.
            ended = ended_rounds(game, Journal().new_events(state))
            assert message["round_end"] == (ended[-1].view(seat).to_json() if ended else None)
            if name == "marshmallow-test":
                shown = dict(message, refused=[], round_end=None)
                assert set(MT_CARD.findall(json.dumps(shown))) <= visible_cards(message["view"])
            if state.finished or state.to_move is None:
                continue
            looker = seat if seat is not None else state.to_move
            twin = determinize(game, state.view(looker), rng)
            assert twin.view(looker) == state.view(looker)
            assert game_part(game, twin, seat) == part
            others = [s for s in range(game.num_players) if s != looker]
            swapped += any(twin.view(s) != state.view(s) for s in others)
    return swapped


def named_by_client(conn: Conn, error: dict[str, Any]) -> set[str]:
    """Cards the client itself named in the move an error answers."""
    i = conn.messages.index(error)
    earlier = [m for m in conn.messages[:i] if m["type"] == "state"]
    refused = earlier[-1]["refused"] if earlier else []
    return {c for r in refused for c in MT_CARD.findall(json.dumps(r))}


@pytest.mark.parametrize("name", ["marshmallow-test", "myrummy-111"])
def test_no_message_carries_a_card_its_seat_may_not_see(db_url: str, name: str) -> None:
    swapped = checked = lines = 0
    with running(db_url) as server:
        for seed in range(GAMES):
            rng = random.Random(seed)
            players = rng.choice([2, 3, 4])
            seats = ["human", "human"] + [rng.choice(["easy", "random"])] * (players - 2)
            rng.shuffle(seats)
            table = server.create(name, seats, options={**OPTIONS[name], "players": players})
            humans = [i for i, s in enumerate(seats) if s == "human"]
            tokens = {i: server.join(table, i) for i in humans}
            with server.connect(table) as watcher:
                conns = {i: server.connect(table, tokens[i]) for i in humans}
                opened = {i: c.__enter__() for i, c in conns.items()}
                try:
                    play_out(watcher, opened, rng, mistakes=0.3, talk=chatter(rng, watcher))
                finally:
                    for c in conns.values():
                        c.__exit__(None, None, None)
            all_conns = [watcher, *opened.values()]
            swapped += check(server.record(table), all_conns)
            lines += check_chat(server.chat(table), all_conns)
            checked += sum(len(c.messages) for c in all_conns)
    assert checked > 50 * GAMES
    assert lines > GAMES  # chat was said and checked
    assert swapped > checked // 4  # the swaps really changed what others hold


@pytest.mark.parametrize("name", ["marshmallow-test", "myrummy-111"])
def test_quick_match_answers_hold_no_card_and_no_other_persons_token(
    db_url: str, name: str
) -> None:
    """The quick-match queue's answers (the counts, each person's own ticket)
    are the same after the unseen cards of a game it seated are swapped, name
    no card, and give each person only their own token."""
    clock = Clock()
    with running(db_url, limits=Limits(clock=clock, joins_per_minute=100)) as server:

        def join(who: str, players: int) -> str:
            body = {"game": name, "players": players, "name": who, "bots": None}
            response = server.client.post("/api/quick", json=body)
            assert response.status_code == 201, response.text
            ticket: str = response.json()["ticket"]
            return ticket

        tickets = {"Ann": join("Ann", 2), "Bea": join("Bea", 2), "Cy": join("Cy", 3)}

        def answers() -> dict[str, Any]:
            out: dict[str, Any] = {"counts": server.client.get("/api/quick").json()}
            for who, ticket in tickets.items():
                out[who] = server.client.get(f"/api/quick/{ticket}").json()
            return out

        before = answers()
        table_id = before["Ann"]["table"]
        table = server.table(table_id)
        tokens = {who: before[who]["token"] for who in ("Ann", "Bea")}
        ann_at, bea_at = (server.connect(table_id, tokens[w]) for w in ("Ann", "Bea"))
        with ann_at as ann, bea_at as bea:
            conns = {ann.seat: ann, bea.seat: bea}
            for _ in range(3):  # a few moves: the game is under way
                mover = conns[table.state.to_move]
                play_moves(mover, 1, random.Random(1), wait_turn=False)
        state = table.state
        game = cardtable.load(name, **table.facts.options)
        twin = manifest(name).part("determinize")(game, state.view(0), random.Random(2))
        assert twin.view(1) != state.view(1)  # Bea's hidden hand really differs
        table.state = twin
        try:
            assert answers() == before
        finally:
            table.state = state
        text = json.dumps(before)
        assert text.count(tokens["Ann"]) == 1 and text.count(tokens["Bea"]) == 1
        assert tokens["Bea"] not in json.dumps(before["Ann"])
        assert "token" not in before["Cy"] and "token" not in json.dumps(before["counts"])
        if name == "marshmallow-test":
            assert MT_CARD.findall(text) == []
        seated = {"ticket", "game", "players", "wait_seconds", "bots", "status", "table"}
        assert set(before["Ann"]) == seated | {"seat", "token", "url"}  # nothing of the game
