"""The HTTP side: games, creating and listing tables, records, replays,
rematches, and each game's drawing module."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import cardtable
from cardtable.core import registry
from tests.server.helpers import Server, play_out, running

pytestmark = pytest.mark.timeout(300, method="thread")


def finished_duel(server: Server, game: str = "marshmallow-test") -> tuple[str, list[str]]:
    table = server.create(game, ["human", "human"], private=True)
    tokens = [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]
    with server.connect(table, tokens[0]) as ann, server.connect(table, tokens[1]) as bob:
        play_out(ann, {0: ann, 1: bob}, random.Random(1))
    return table, tokens


def test_every_registered_game_is_offered_with_its_options_bots_and_levels(db_url: str) -> None:
    with running(db_url) as server:
        games = {g["name"]: g for g in server.client.get("/api/games").json()}
    assert set(games) == set(cardtable.game_names())
    for name, offered in games.items():
        m = registry.manifest(name)
        assert offered["title"] == m.title and offered["players"] == list(m.players)
        assert [o["name"] for o in offered["options"]] == [o.name for o in m.options]
        assert set(cardtable.bots.bot_entries(name)) == {b["name"] for b in offered["bots"]}
        # medium, hard and expert seat a search bot (the game's own, or the
        # generic one where it resamples), easy its heuristic else the search
        # (cardtable.bots).
        searches = m.search_bot is not None or m.has("determinize")
        levels = (
            ["easy", "medium", "hard", "expert"] if searches else ["easy"] * ("heuristic" in m.bots)
        )
        assert [lv["name"] for lv in offered["levels"]] == levels


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": [{"kind": "human"}] * 2}, "request.game"),
        ({"game": "marshmallow-test", "seats": [{"kind": "human"}] * 6}, "players"),
        (
            {"game": "marshmallow-test", "options": {"target": -3}, "seats": [{}, {}]},
            "target",
        ),
        (
            {"game": "marshmallow-test", "options": {"players": 3}, "seats": [{}, {}]},
            "3 players",
        ),
        ({"game": "myrummy-111", "seats": [{}, {"kind": "bot", "bot": "genius"}]}, "seats[1].bot"),
        ({"game": "myrummy-111", "seats": [{}, {}], "turn_seconds": 0}, "turn_seconds"),
        ({"game": "myrummy-111", "seats": [{}, {}], "bot_delay_ms": 10**11}, "bot_delay_ms"),
        ({"game": "myrummy-111", "seats": [{}, {}], "stand_in": "hard"}, "stand_in"),
        ({"game": "myrummy-111", "seats": [{}, {}], "colour": "red"}, "colour"),
        ({"game": "myrummy-111", "seats": [{}, {}], "private": "yes"}, "private"),
        ({"game": "myrummy-111", "seats": "two"}, "seats"),
    ],
)
def test_a_bad_table_is_refused_with_a_sentence_naming_the_fault(
    db_url: str, body: dict[str, Any], words: str
) -> None:
    with running(db_url) as server:
        response = server.client.post("/api/tables", json=body)
        assert response.status_code == 400
        assert words in response.json()["error"]
        assert server.hub.tables == {}


@pytest.mark.parametrize(
    "raw",
    [b"{", b'{"game": 1' + b"0" * 5000 + b"}", b"x" * 20000, b'{"game": 1.5}', b"[]"],
)
def test_bad_request_bodies_are_refused(db_url: str, raw: bytes) -> None:
    with running(db_url) as server:
        kind = {"Content-Type": "application/json"}
        response = server.client.post("/api/tables", content=raw, headers=kind)
        assert response.status_code in (400, 413)
        assert response.json()["error"]


def test_the_lobby_lists_public_tables_only(db_url: str) -> None:
    with running(db_url) as server:
        public = server.create("myrummy-111", ["human", "easy"])
        server.create("myrummy-111", ["human", "easy"], private=True)
        listed = server.client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [public]
        assert listed[0]["status"] == "waiting"
        assert [s["taken"] for s in listed[0]["seats"]] == [False, True]
        server.join(public, 0, "Ann")
        info = server.client.get(f"/api/tables/{public}").json()
        assert info["status"] == "playing" and info["seats"][0]["name"] == "Ann"
        assert "token" not in str(info)
        assert server.client.get("/api/tables/nosuchtable").status_code == 404


def test_record_and_replay_only_once_the_game_is_over(db_url: str) -> None:
    with running(db_url) as server:
        running_table = server.create("marshmallow-test", ["human", "easy"])
        for path in ("record", "replay?step=0"):
            response = server.client.get(f"/api/tables/{running_table}/{path}")
            assert response.status_code == 409 and response.json()["error"]
        table, _ = finished_duel(server)
        record = server.record(table)
        steps = sum(len(r["moves"]) for r in record["rounds"])
        states = cardtable.load_record(record)
        last = server.client.get(f"/api/tables/{table}/replay?step={steps}&seat=all").json()
        assert last["steps"] == steps
        assert last["views"] == [states.view(s).to_json() for s in range(2)]
        first = server.client.get(f"/api/tables/{table}/replay?step=0&seat=1").json()
        assert first["move"] is None
        assert first["view"]["hand"] == record["rounds"][0]["deal"]["hands"][1]
        one = server.client.get(f"/api/tables/{table}/replay?step=1").json()
        assert one["move"] == record["rounds"][0]["moves"][0] and one["view"]["hand"] == []
        for query in (f"step={steps + 1}", "step=-1", "step=1&seat=5", "step=" + "9" * 5000):
            response = server.client.get(f"/api/tables/{table}/replay?{query}")
            assert 400 <= response.status_code < 500 and response.json()["error"]


def test_a_rematch_keeps_seats_names_and_tokens(db_url: str) -> None:
    with running(db_url) as server:
        table, tokens = finished_duel(server)
        refused = server.client.post(f"/api/tables/{table}/rematch", json={"token": "guess"})
        assert refused.status_code == 403
        new = server.client.post(f"/api/tables/{table}/rematch", json={"token": tokens[1]})
        assert new.status_code == 200
        again = server.client.post(f"/api/tables/{table}/rematch", json={"token": tokens[0]})
        assert again.json()["id"] == new.json()["id"] != table
        info = server.client.get(f"/api/tables/{new.json()['id']}").json()
        assert info["status"] == "playing" and info["rematch_of"] == table
        assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"]
        assert info["options"] == server.record(table)["options"]
        with server.connect(new.json()["id"], tokens[1]) as bob:
            assert bob.seat == 1
        with server.connect(table) as watcher:
            assert watcher.state is not None and watcher.state["rematch"] == new.json()["id"]


def test_a_running_game_cannot_be_rematched(db_url: str) -> None:
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "easy"])
        token = server.join(table, 0)
        response = server.client.post(f"/api/tables/{table}/rematch", json={"token": token})
        assert response.status_code == 409


def test_each_game_s_drawing_module_is_served_from_its_package(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "myrummy-111"
    # Point the manifest at a file the package surely has, beside a sibling.
    found = dict(registry.manifests())
    found[name] = dataclasses.replace(found[name], web_client="manifest.py")
    monkeypatch.setattr(registry, "manifests", lambda: found)
    with running(db_url) as server:
        board = server.client.get(f"/games/{name}/board.js")
        assert board.status_code == 200
        assert board.headers["content-type"].startswith("text/javascript")
        assert "MANIFEST" in board.text
        sibling = server.client.get(f"/games/{name}/moves.py")
        assert sibling.status_code == 200 and "class Take" in sibling.text
        for path in (f"/games/{name}/..", f"/games/{name}/nofile.js", "/games/chess/board.js"):
            response = server.client.get(path)
            assert response.status_code == 404 and response.json()["error"]


def test_a_game_without_a_board_of_its_own_is_given_the_generic_board(db_url: str) -> None:
    from tests.fixtures.plugin import NAME, registered

    with registered(), running(db_url) as server:
        games = {g["name"]: g for g in server.client.get("/api/games").json()}
        assert registry.manifest(NAME).web_client is None
        assert games[NAME]["board"] == "/static/generic-board.js"
        for name, game in games.items():
            if registry.manifest(name).web_client is not None:  # a game's own drawing
                assert game["board"] == f"/games/{name}/board.js"
            else:
                assert game["board"] == "/static/generic-board.js"
        generic = server.client.get(games[NAME]["board"])
        assert generic.status_code == 200 and "export function render" in generic.text
        # The game's own board address says where its drawing comes from instead.
        missing = server.client.get(f"/games/{NAME}/board.js")
        assert missing.status_code == 404
        assert "generic board /static/generic-board.js" in missing.json()["error"]


def test_a_plugin_games_levels_are_summarised_as_they_play_there(db_url: str) -> None:
    """The resampling fixture has no heuristic: its easy searches, and the
    lobby says so instead of promising rules of thumb."""
    from tests.bots.plugin import NAME, registered

    with registered(), running(db_url) as server:
        games = {g["name"]: g for g in server.client.get("/api/games").json()}
    summaries = {lv["name"]: lv["summary"] for lv in games[NAME]["levels"]}
    assert summaries == {
        "easy": cardtable.bots.EASY_SEARCH.summary,
        "medium": cardtable.bots.LEVELS["medium"].summary,
        "hard": cardtable.bots.LEVELS["hard"].summary,
        "expert": cardtable.bots.LEVELS["expert"].summary,
    }
    assert summaries["easy"] != cardtable.bots.LEVELS["easy"].summary
    builtin = {lv["name"]: lv["summary"] for lv in games["marshmallow-test"]["levels"]}
    assert builtin["easy"] == cardtable.bots.LEVELS["easy"].summary  # its heuristic


def test_the_lobby_and_every_table_link_open_the_browser_shell(db_url: str) -> None:
    with running(db_url) as server:
        table = server.create("myrummy-111", ["human", "easy"])
        for path in ("/", f"/t/{table}", "/t/a-table-long-gone"):
            page = server.client.get(path)
            assert page.status_code == 200
            assert page.headers["content-type"].startswith("text/html")
            assert "<html" in page.text.lower()


def test_two_guests_of_one_name_get_two_names_at_a_table(db_url: str) -> None:
    """Both left the name empty (the page sends its "Player"), or both typed
    "ann": the second is told apart with a number; a third seat keeps its own."""
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "human", "human"])
        for seat, name in enumerate(("Player", "player", "Cleo")):
            server.join(table, seat, name)
        info = server.client.get(f"/api/tables/{table}").json()
        assert [s["name"] for s in info["seats"]] == ["Player", "player 2", "Cleo"]
