"""Take-backs over the socket (issue 29, item 5; docs/server.md, "Take-backs"):
one person asks, every other person must accept (bots at once), a decline or
a move by the next seat ends the request, and a rated table refuses it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardtable
from cardtable.server.tables import takeback
from tests.server.helpers import Conn, Server, play_out, running

pytestmark = pytest.mark.timeout(300, method="thread")

MT = "marshmallow-test"


@contextmanager
def two_people(server: Server, rated: bool = False) -> Iterator[tuple[str, Conn, Conn]]:
    table = server.create(MT, ["human", "human"], rated=rated)
    tokens = [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]
    with server.connect(table, tokens[0]) as ann, server.connect(table, tokens[1]) as bob:
        yield table, ann, bob


def ann_plays(ann: Conn) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann plays her first legal card: the state before, and the state after."""
    before = ann.until_state(lambda m: m["to_move"] == 0)
    ann.move(before["legal"][0])
    after = ann.until_state(lambda m: m["seq"] == before["seq"] + 1)
    return before, after


def events(state: dict[str, Any]) -> list[str]:
    return [e["event"] for e in state["log"] if e["event"].startswith("takeback.")]


def test_bob_accepts_and_anns_card_is_back_in_her_hand(db_url: str) -> None:
    with running(db_url) as server, two_people(server) as (table, ann, bob):
        before, after = ann_plays(ann)
        assert after["may_take_back"] is True
        assert len(after["view"]["hand"]) == len(before["view"]["hand"]) - 1
        ann.send({"type": "takeback"})
        asked = bob.until_state(lambda m: m["takeback"] is not None)
        assert asked["takeback"]["seat"] == 0 and asked["takeback"]["waiting"] == [1]
        assert asked["may_take_back"] is False  # Bob did not make the last move
        bob.send({"type": "takeback-answer", "accept": True})
        back = ann.until_state(lambda m: m["seq"] == after["seq"] + 1)
        assert back["view"] == before["view"]
        assert back["to_move"] == 0 and back["takeback"] is None
        assert events(back) == ["takeback.asked", "takeback.done"]
        # The game plays on to its end; the record holds only the moves that stand.
        final = play_out(ann, {0: ann, 1: bob}, random.Random(3))
        record = server.record(table)
        outcome = cardtable.replay(record)
        assert outcome.error is None and outcome.state is not None
        assert list(outcome.state.scores) == final["scores"]
        moves = sum(len(r["moves"]) for r in record["rounds"])
        assert final["seq"] == moves + 2  # the taken-back move and the take-back


def test_bob_declines_and_the_move_stands(db_url: str) -> None:
    with running(db_url) as server, two_people(server) as (_, ann, bob):
        _, after = ann_plays(ann)
        ann.send({"type": "takeback"})
        bob.until_state(lambda m: m["takeback"] is not None)
        bob.send({"type": "takeback-answer", "accept": False})
        declined = ann.until_state(lambda m: "takeback.declined" in events(m))
        assert declined["seq"] == after["seq"] and declined["view"] == after["view"]
        assert declined["takeback"] is None and declined["to_move"] == 1
        # A declined request may be asked again.
        assert declined["may_take_back"] is True


def test_a_move_by_the_next_seat_ends_the_request(db_url: str) -> None:
    with running(db_url) as server, two_people(server) as (_, ann, bob):
        ann_plays(ann)
        ann.send({"type": "takeback"})
        asked = bob.until_state(lambda m: m["takeback"] is not None)
        bob.move(asked["legal"][0])
        ended = ann.until_state(lambda m: m["seq"] == asked["seq"] + 1)
        assert ended["takeback"] is None
        assert events(ended) == ["takeback.asked", "takeback.lapsed"]
        ann.send({"type": "takeback"})
        refused = ann.until(lambda m: m["type"] == "error")
        assert refused["key"] == "takeback.moved"


def test_only_those_asked_may_answer(db_url: str) -> None:
    with running(db_url) as server, two_people(server) as (table, ann, bob):
        ann_plays(ann)
        bob.send({"type": "takeback-answer", "accept": True})
        assert bob.until(lambda m: m["type"] == "error")["key"] == "takeback.none"
        ann.send({"type": "takeback"})
        ann.until_state(lambda m: m["takeback"] is not None)
        ann.send({"type": "takeback-answer", "accept": True})
        assert ann.until(lambda m: m["type"] == "error")["key"] == "takeback.notYours"
        with server.connect(table) as watcher:
            watcher.send({"type": "takeback"})
            assert watcher.until(lambda m: m["type"] == "error")["key"] == "takeback.spectator"


def test_a_rated_table_refuses_in_words(db_url: str) -> None:
    with running(db_url) as server, two_people(server, rated=True) as (_, ann, bob):
        _, after = ann_plays(ann)
        assert after["may_take_back"] is False
        bob.until_state(lambda m: m["seq"] == after["seq"])
        ann.send({"type": "takeback"})
        refused = ann.until(lambda m: m["type"] == "error")
        assert refused["key"] == "takeback.rated" and refused["message"]
        bob.quiet()  # nobody else is told


def test_a_bot_accepts_at_once(db_url: str) -> None:
    with running(db_url) as server:
        # The bot waits 10 s before it moves: time for Ann to ask.
        table = server.create(MT, ["human", "easy"], rated=False, bot_delay_ms=10_000)
        token = server.join(table, 0, "Ann")
        with server.connect(table, token) as ann:
            before, after = ann_plays(ann)
            ann.send({"type": "takeback"})
            back = ann.until_state(lambda m: m["seq"] == after["seq"] + 1)
            assert back["view"] == before["view"] and back["to_move"] == 0
            assert events(back) == ["takeback.asked", "takeback.done"]


@pytest.mark.timeout(90, method="thread")  # a lapse of one second, not of minutes
def test_a_request_nobody_answers_lapses_and_the_move_stands(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table without a turn timer gives the others a minute (here one second)
    to answer; silence is a decline: the request ends as lapsed, the move
    stands, and the asker may ask again."""
    monkeypatch.setattr(takeback, "DEFAULT_SECONDS", 1)
    with running(db_url) as server, two_people(server) as (_, ann, bob):
        _, after = ann_plays(ann)
        ann.send({"type": "takeback"})
        asked = bob.until_state(lambda m: m["takeback"] is not None)
        assert asked["takeback"]["deadline_ms"] - asked["takeback"]["server_ms"] <= 1000
        lapsed = ann.until_state(lambda m: "takeback.lapsed" in events(m))
        assert lapsed["seq"] == after["seq"] and lapsed["view"] == after["view"]
        assert lapsed["takeback"] is None and lapsed["to_move"] == 1
        assert events(lapsed) == ["takeback.asked", "takeback.lapsed"]
        assert lapsed["may_take_back"] is True
