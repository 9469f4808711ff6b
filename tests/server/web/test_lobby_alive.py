"""The lobby that is alive (issue 29, item 1): games in play listed with
their round and scores to watch, the tables waiting for people apart, private
tables never, a finished game gone; and how many people are online."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.server.helpers import Server, play_out, running

pytestmark = pytest.mark.timeout(300, method="thread")


def listed(server: Server, query: str = "") -> list[dict[str, Any]]:
    response = server.client.get(f"/api/tables?{query}")
    assert response.status_code == 200, response.text
    tables: list[dict[str, Any]] = response.json()["tables"]
    return tables


def online(server: Server) -> int:
    count: int = server.client.get("/api/online").json()["online"]
    return count


def test_games_in_play_are_listed_apart_with_round_and_scores_private_ones_never(
    db_url: str,
) -> None:
    with running(db_url) as server:
        waiting = server.create("myrummy-111", ["human", "human"])
        playing = server.create("marshmallow-test", ["human", "easy"])
        hidden = server.create("marshmallow-test", ["human", "easy"], private=True)
        tokens = {table: server.join(table, 0, "Ann") for table in (playing, hidden)}
        with server.connect(playing, tokens[playing]), server.connect(hidden, tokens[hidden]):
            in_play = listed(server, "status=playing")
            assert [t["id"] for t in in_play] == [playing]  # never the private one
            line = in_play[0]
            state = server.table(playing).state
            assert line["play"] == {
                "round": state.round_number,
                "scores": list(state.scores),
                "to_move": state.to_move,
                "deadline_ms": None,  # a real-time table (a turn-based one's: tests/server/cluster)
            }
            assert [s["name"] for s in line["seats"]][:1] == ["Ann"]
            assert [t["id"] for t in listed(server, "status=waiting")] == [waiting]
            assert "play" not in listed(server, "status=waiting")[0]
            assert {t["id"] for t in listed(server)} == {waiting, playing}
            # The table's own page says the same line (a person's own table, private or not).
            own = server.client.get(f"/api/tables/{hidden}").json()
            assert own["play"]["to_move"] == server.table(hidden).state.to_move


def test_a_finished_game_drops_out_of_the_games_in_play(db_url: str) -> None:
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        tokens = [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]
        with server.connect(table, tokens[0]) as ann, server.connect(table, tokens[1]) as bob:
            assert [t["id"] for t in listed(server, "status=playing")] == [table]
            play_out(ann, {0: ann, 1: bob}, random.Random(7))
            assert listed(server, "status=playing") == []
            assert listed(server) == []


def test_online_counts_every_socket_at_a_table_seated_or_watching(db_url: str) -> None:
    with running(db_url) as server:
        assert online(server) == 0
        public = server.create("marshmallow-test", ["human", "easy"])
        private = server.create("marshmallow-test", ["human", "easy"], private=True)
        token = server.join(public, 0, "Ann")
        with server.connect(public, token):
            assert online(server) == 1
            with server.connect(public), server.connect(private):  # two who watch
                assert online(server) == 3
            assert online(server) == 1


@pytest.mark.parametrize("query", ["status=finished", "status=", "state=playing"])
def test_a_bad_status_filter_is_refused_with_a_sentence(db_url: str, query: str) -> None:
    with running(db_url) as server:
        response = server.client.get(f"/api/tables?{query}")
        assert response.status_code == 400
        assert "status" in response.json()["error"]


def test_a_persons_own_live_tables_are_found_by_their_ids_private_ones_too(db_url: str) -> None:
    with running(db_url) as server:
        mine = server.create("marshmallow-test", ["human", "easy"], private=True)
        done = server.create("marshmallow-test", ["human", "human"], private=True)
        tokens = [server.join(done, 0, "Ann"), server.join(done, 1, "Bob")]
        with server.connect(done, tokens[0]) as ann, server.connect(done, tokens[1]) as bob:
            play_out(ann, {0: ann, 1: bob}, random.Random(3))
        server.join(mine, 0, "Ann")
        answer = server.client.get(f"/api/live-tables?ids={mine},{done},nosuchtable")
        assert answer.status_code == 200
        tables = answer.json()["tables"]
        assert [t["id"] for t in tables] == [mine]  # the finished one is gone, no error for none
        assert tables[0]["play"]["to_move"] == server.table(mine).state.to_move
        for bad in ("", "a b", ",".join(["x"] * 51)):
            refused = server.client.get(f"/api/live-tables?ids={bad}")
            assert refused.status_code == 400 and "ids" in refused.json()["error"]
