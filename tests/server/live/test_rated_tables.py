"""Rated or friendly tables (Board Game Arena's choice, made when a table is
made): a friendly table is never rated, nor a rated one where one account holds
two seats or where two accounts sat from one address; the open tables filter
on it a page at a time, and a database of before keeps its tables, as
friendly ones."""

from __future__ import annotations

import pytest

from cardtable.server.db.storage import Storage
from cardtable.server.settings import Limits
from tests.server.accounts_helpers import account_server
from tests.server.db.test_ratings import (
    GAME,
    _v0004_database_then_open,
    finish,
    people,
    seated,
    stored,
)
from tests.server.helpers import UNLIMITED, run_coroutine, running
from tests.server.live.test_lobby_lifecycle import Clock, listed

pytestmark = pytest.mark.timeout(300, method="thread")


def test_a_friendly_table_between_two_accounts_is_not_rated(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        ann, bea = people(server, ["Ann", "Bea"])
        options = {"target": 4, "players": 2}
        table = ann.create(GAME, ["human", "human"], options=options, rated=False)
        assert ann.client.get(f"/api/tables/{table}").json()["rated"] is False
        tokens = {0: ann.join(table, 0), 1: bea.join(table, 1)}
        final = finish(server, table, tokens, seed=11)
        assert final["finished"] and final["ratings"] == []
        assert stored(server) == {}
        (mine,) = ann.client.get("/api/me/games").json()["finished"]
        assert mine["id"] == table and mine["rating"] is None
        # A rematch keeps the table's choice.
        again = ann.client.post(f"/api/tables/{table}/rematch", json={"token": tokens[0]})
        assert again.status_code == 200, again.text
        rematch = ann.client.get(f"/api/tables/{again.json()['id']}").json()
        assert rematch["rated"] is False
        # The same two people at a rated table (the default) are rated.
        rated = ann.create(GAME, ["human", "human"], options=options)
        tokens = {0: ann.join(rated, 0), 1: bea.join(rated, 1)}
        assert len(finish(server, rated, tokens, seed=12)["ratings"]) == 2
        assert set(stored(server)) == {"Ann", "Bea"}


def test_two_accounts_seated_from_one_address_end_friendly_and_unrated(any_db: str) -> None:
    # One person with two accounts must not farm a rating (issue 27, item 10).
    with account_server(any_db, limits=UNLIMITED) as server:
        ann = server.browser("192.0.2.7")
        bea = server.browser("192.0.2.7")  # another browser, same address
        ann.sign_up("Ann")
        bea.sign_up("Bea")
        table = ann.create(GAME, ["human", "human"], options={"target": 4, "players": 2})
        assert ann.client.get(f"/api/tables/{table}").json()["rated"] is True
        tokens = {0: ann.join(table, 0), 1: bea.join(table, 1)}
        with server.connect(table):  # a spectator keeps the table in memory
            final = finish(server, table, tokens, seed=11)
            assert final["finished"] and final["ratings"] == []
            assert ann.client.get(f"/api/tables/{table}").json()["rated"] is False
        assert stored(server) == {}
        assert ann.client.get(f"/api/tables/{table}").json()["rated"] is False
        (mine,) = ann.client.get("/api/me/games").json()["finished"]
        assert mine["id"] == table and mine["rating"] is None
    with running(any_db) as server:  # stored so: a restart says friendly too
        assert server.client.get(f"/api/tables/{table}").json()["rated"] is False


def test_open_tables_filter_rated_or_friendly_a_page_at_a_time(any_db: str) -> None:
    clock = Clock()
    limits = Limits(clock=clock, creates_per_minute=1000, waiting_per_client=1000)
    with running(any_db, limits=limits) as server:
        made: list[tuple[str, bool]] = []  # (id, rated), oldest first
        for i in range(80):
            clock.now += 1
            rated = i % 4 != 0
            made.append((server.create(GAME, ["human", "easy"], rated=rated), rated))
        for flag, word in ((True, "true"), (False, "false")):
            want = [t for t, r in reversed(made) if r is flag]
            pages, query = [], f"?rated={word}&limit=25"
            while True:
                page = server.client.get(f"/api/tables{query}").json()
                assert all(t["rated"] is flag for t in page["tables"])
                pages.append([t["id"] for t in page["tables"]])
                if page["next"] is None:
                    break
                query = f"?rated={word}&limit=25&cursor={page['next']}"
            assert [t for p in pages for t in p] == want
        assert len(listed(server, "?rated=false&players=2&game=" + GAME)) == 20
        assert listed(server, "?rated=true&players=3") == []
    with running(any_db, limits=limits) as server:  # a restart keeps each table's choice
        assert len(listed(server, "?rated=false")) == 20


def test_a_table_where_one_account_holds_two_seats_is_not_rated(any_db: str) -> None:
    # Ann in two seats beside Bea: a finished rated table, with two accounts,
    # that no rating may count (Ann would play against herself).
    with account_server(any_db, limits=UNLIMITED) as server:
        ann, bea = people(server, ["Ann", "Bea"])
        table, tokens = seated([ann, ann, bea], ["human", "human", "human"])
        assert ann.client.get(f"/api/tables/{table}").json()["rated"] is True
        final = finish(server, table, tokens, seed=13)
        assert final["finished"] and final["ratings"] == []
        assert stored(server) == {}
        for person, seats in ((ann, [0, 1]), (bea, [2])):
            games = person.client.get("/api/me/games").json()["finished"]
            assert sorted((g["id"], g["seat"], g["rating"]) for g in games) == [
                (table, seat, None) for seat in seats
            ]


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("?rated=1", "rated must be true or false, got '1'"),
        ("?rated=", "rated must be true or false"),
        ("?colour=red", "filters are game, players, rated and status"),
    ],
)
def test_a_bad_rated_filter_is_one_sentence(db_url: str, query: str, words: str) -> None:
    with running(db_url) as server:
        response = server.client.get(f"/api/tables{query}")
        assert response.status_code == 400 and words in response.json()["error"]


def test_a_table_made_rated_must_say_so_with_true_or_false(db_url: str) -> None:
    with running(db_url) as server:
        body = {
            "game": GAME,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "rated": "yes",
        }
        response = server.client.post("/api/tables", json=body)
        assert response.status_code == 400 and "rated" in response.json()["error"]


async def _v0004_table_then_open(url: str) -> tuple[list[str], bool]:
    """The v0004-era database of the ratings test (its table "old1"), upgraded
    to the head; its tables, and whether "old1" came back rated."""
    tables, _, _ = await _v0004_database_then_open(url)
    storage = Storage(url)
    await storage.open()
    try:
        loaded = await storage.load("old1")
        assert loaded is not None
        return tables, loaded.facts.rated
    finally:
        await storage.close()


def test_a_v0004_database_keeps_its_tables_as_friendly_ones(any_db: str) -> None:
    tables, rated = run_coroutine(_v0004_table_then_open(any_db))
    assert tables == ["old1"]
    assert rated is False  # they never said they were rated (issue 27, item 10)
