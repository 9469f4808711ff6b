"""Turn timers and players who leave: a stand-in bot plays the seat until
the player is back, everyone is shown it, and an empty table waits."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from tests.server.helpers import Server, play_moves, play_out, running

pytestmark = pytest.mark.timeout(300, method="thread")


def test_when_the_timer_runs_out_a_bot_plays_the_seat_until_the_player_is_back(
    db_url: str,
) -> None:
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "easy"], turn_seconds=1)
        token = server.join(table, 0, "Ann")
        with server.connect(table) as watcher, server.connect(table, token) as ann:
            due = ann.until_state(lambda m: m["to_move"] == 0)
            assert due["timer"]["seat"] == 0
            assert due["timer"]["deadline_ms"] > due["timer"]["server_ms"]
            # Ann does nothing: everyone sees the stand-in take her seat, then play it.
            shown = watcher.until_state(lambda m: m["seats"][0]["bot_playing"])
            assert shown["log"][-1]["event"] == "timeout"
            assert shown["log"][-1]["seat"] == 0
            ann.until_state(lambda m: m["seq"] > due["seq"] and m["seats"][0]["bot_playing"])
            ann.send({"type": "back"})
            back = ann.until_state(lambda m: not m["seats"][0]["bot_playing"])
            assert back["log"][-1]["event"] == "back"
            watcher.until_state(lambda m: not m["seats"][0]["bot_playing"])


def test_a_player_who_leaves_is_played_by_a_bot_while_others_wait(db_url: str) -> None:
    rng = random.Random(3)
    with running(db_url, grace_seconds=0.1) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        tokens = [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]
        with server.connect(table, tokens[1]) as bob:
            with server.connect(table, tokens[0]) as ann:
                play_moves(ann, 1, rng, wait_turn=False)
            left = bob.until_state(lambda m: m["seats"][0]["bot_playing"])
            assert not left["seats"][0]["connected"]
            assert [e["event"] for e in left["log"][-2:]] == ["left", "stand_in"]
            # Bob plays on; the stand-in answers for Ann.
            for _ in range(12):
                play_moves(bob, 1, rng, wait_turn=False)
                rounds = server.table(table).state.record()["rounds"]
                moves = [m for r in rounds for m in r["moves"]]
                if any(m["seat"] == 0 for m in moves[left["seq"] :]):
                    break
            else:
                raise AssertionError("the stand-in never played Ann's seat")
            with server.connect(table, tokens[0]) as ann:
                assert ann.state is not None and not ann.state["seats"][0]["bot_playing"]
                bob.until_state(lambda m: m["seats"][0]["connected"])
                final = play_out(bob, {0: ann, 1: bob}, rng, stale_first=True)
        assert final["finished"]


def test_a_table_everyone_has_left_waits_for_them_bots_included(db_url: str) -> None:
    rng = random.Random(4)
    with running(db_url, grace_seconds=0.05) as server:
        table = server.create("marshmallow-test", ["human", "easy"], bot_delay_ms=300)
        token = server.join(table, 0, "Ann")
        with server.connect(table, token) as ann:
            state = ann.until_state(lambda m: m["to_move"] == 0)
            ann.move(rng.choice(state["legal"]))
            assert ann.until(lambda m: m["type"] == "ack")["seq"] == state["seq"] + 1
        # The bot would answer after 300 ms; with nobody there, it must not.
        time.sleep(0.6)
        assert server.table(table).seq == state["seq"] + 1
        with server.connect(table, token) as ann:
            assert ann.state is not None and not ann.state["seats"][0]["bot_playing"]
            moved = ann.until_state(lambda m: m["seq"] == state["seq"] + 2)
            assert moved["seats"][0]["connected"]


def test_turn_timers_run_again_after_a_restart(db_url: str) -> None:
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "easy"], turn_seconds=1)
        token = server.join(table, 0, "Ann")
    with running(db_url) as server, server.connect(table, token) as ann:
        due = ann.until_state(lambda m: m["timer"] is not None)
        assert due["timer"]["seat"] == 0 and due["to_move"] == 0
        taken = ann.until_state(lambda m: m["seats"][0]["bot_playing"])
        assert taken["log"][-1]["event"] == "timeout"


def test_leaving_while_a_bots_move_is_being_stored_loses_nothing(
    db_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(8)
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "easy"])
        token = server.join(table, 0, "Ann")
        storage = server.hub.storage
        commit = storage._commit

        async def slow(*args: Any) -> None:
            await asyncio.sleep(0.2)  # a slow disk: the bot's commit is in flight when Ann goes
            await commit(*args)

        monkeypatch.setattr(storage, "_commit", slow)
        with server.connect(table, token) as ann:
            play_moves(ann, 1, rng, wait_turn=False)
        with server.connect(table, token) as ann:
            play_moves(ann, 3, rng)
        live = server.table(table)
        assert server_events(server, table) == live.journal.events
    # The bot's move was adopted once stored, not stored again (a duplicate).
    assert not [r for r in caplog.records if "storing a move failed" in r.getMessage()]


def server_events(server: Server, table: str) -> list[Any]:
    """The table's events as the database holds them."""

    async def load() -> list[Any]:
        row = await server.hub.storage.load(table)
        assert row is not None
        return row.events

    return server.client.portal.call(load)  # type: ignore[union-attr]
