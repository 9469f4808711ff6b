"""Whole games through the server: people and bots, reconnecting, records."""

from __future__ import annotations

import random

import pytest

import cardtable
from tests.server.helpers import play_moves, play_out, running

pytestmark = pytest.mark.timeout(300, method="thread")

GAMES = ["marshmallow-test", "myrummy-111"]


@pytest.mark.parametrize("game", GAMES)
def test_two_people_and_a_bot_play_a_whole_game(db_url: str, game: str) -> None:
    with running(db_url) as server:
        table = server.create(game, ["human", "easy", "human"])
        tokens = {0: server.join(table, 0, "Ann"), 2: server.join(table, 2, "Cleo")}
        with (
            server.connect(table) as watcher,
            server.connect(table, tokens[0]) as ann,
            server.connect(table, tokens[2]) as cleo,
        ):
            final = play_out(watcher, {0: ann, 2: cleo}, random.Random(1))
        assert final["status"] == "finished" and final["winners"]
        record = server.client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        outcome = cardtable.replay(record.json())
        assert outcome.error is None
        assert outcome.state is not None and list(outcome.state.scores) == final["scores"]
        assert record.json()["players"] == ["Ann", "bot:easy", "Cleo"]


@pytest.mark.parametrize("game", GAMES)
def test_bots_on_every_seat_play_to_the_end_for_a_spectator(db_url: str, game: str) -> None:
    with running(db_url) as server:
        table = server.create(game, ["easy", "random", "easy"])
        with server.connect(table) as watcher:
            assert watcher.seat is None
            final = watcher.until_state(lambda m: m["finished"])
        assert final["status"] == "finished"
        states = [m for m in watcher.messages if m["type"] == "state"]
        assert all(m["view"]["hand"] in ([], None) for m in states)


@pytest.mark.parametrize("game", GAMES)
def test_a_player_who_reconnects_gets_the_same_seat_and_plays_on(db_url: str, game: str) -> None:
    with running(db_url) as server:
        table = server.create(game, ["human", "easy"])
        token = server.join(table, 0, "Ann")
        rng = random.Random(2)
        with server.connect(table, token) as first:
            before = play_moves(first, 2, rng)
        with server.connect(table, token) as again:
            assert again.seat == 0
            assert again.state is not None
            assert again.state["seq"] == before["seq"]
            assert again.state["view"] == before["view"]
            final = play_out(again, {0: again}, rng)
        assert final["finished"]


def test_a_game_installed_as_a_plugin_plays_through_the_server_unchanged(db_url: str) -> None:
    from tests.fixtures.plugin import NAME, registered

    with registered(), running(db_url) as server:
        offered = {g["name"]: g for g in server.client.get("/api/games").json()}
        assert offered[NAME]["board"] == "/static/generic-board.js"  # it brings no drawing
        table = server.create(NAME, ["human", "lowest"], options={})
        token = server.join(table, 0, "Ann")
        with server.connect(table) as watcher, server.connect(table, token) as ann:
            final = play_out(watcher, {0: ann}, random.Random(4))
        assert final["finished"]
        assert cardtable.replay(server.record(table)).error is None
