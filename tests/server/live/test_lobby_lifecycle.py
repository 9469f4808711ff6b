"""A lobby that stays clean (issue 17, item 5), on an injected clock: waiting
tables expire, deserted games are paused and hidden and at last finished by
stand-ins, and the open tables come newest first, filtered, a page at a time."""

from __future__ import annotations

from typing import Any

from cardtable.server.live.lifecycle import Lifecycle
from cardtable.server.settings import Limits
from tests.server.helpers import Server, running

START = 1_000_000.0  # seconds: the injected clock's first reading
MINUTE, HOUR = 60.0, 3600.0


class Clock:
    """A clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def sweep(server: Server) -> None:
    lifecycle: Lifecycle = server.client.app.state.lifecycle  # type: ignore[attr-defined]
    server.client.portal.call(lifecycle.sweep)  # type: ignore[union-attr]


def listed(server: Server, query: str = "") -> list[str]:
    response = server.client.get(f"/api/tables{query}")
    assert response.status_code == 200, response.text
    return [t["id"] for t in response.json()["tables"]]


def deserted(server: Server) -> tuple[str, str]:
    """A playing table (Ann and a bot) that Ann has just left; its id and her token."""
    table = server.create("marshmallow-test", ["human", "easy"])
    token = server.join(table, 0, "Ann")
    with server.connect(table, token):
        assert listed(server) == [table]  # playing, its person here: it moves
    sweep(server)  # the table is seen deserted from now on
    return table, token


def test_a_waiting_table_nobody_joins_expires_after_30_minutes(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=Limits(clock=clock)) as server:
        table = server.create("marshmallow-test", ["human", "easy"])
        clock.now += 30 * MINUTE - 1
        sweep(server)
        assert listed(server) == [table]
        clock.now += 1
        sweep(server)
        assert listed(server) == []
        assert table not in server.hub.tables  # nobody looks at it: out of memory
        assert server.client.get(f"/api/tables/{table}").json()["status"] == "expired"
        refused = server.client.post(f"/api/tables/{table}/join", json={"seat": 0, "name": "A"})
        assert refused.status_code == 409
        assert "expired" in refused.json()["error"]
    with running(any_db, limits=Limits(clock=clock)) as server:  # a restart leaves it gone
        assert listed(server) == [] and table not in server.hub.tables


def test_a_waiting_table_does_not_expire_while_its_first_player_waits_there(
    db_url: str,
) -> None:
    clock = Clock()
    with running(db_url, limits=Limits(clock=clock)) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        token = server.join(table, 0, "Ann")
        with server.connect(table, token):
            clock.now += 2 * HOUR
            sweep(server)
            assert listed(server) == [table]
        sweep(server)  # Ann left: nothing keeps it now
        assert listed(server) == []
        assert server.client.get(f"/api/tables/{table}").json()["status"] == "expired"


def test_a_deserted_game_is_paused_hidden_then_finished_by_stand_ins(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=Limits(clock=clock)) as server:
        table, _ = deserted(server)
        assert listed(server) == []  # paused: hidden from the lobby
        seq = server.table(table).seq
        clock.now += 24 * HOUR - 1
        sweep(server)
        assert listed(server) == [] and server.table(table).seq == seq  # it did not move
        assert server.client.get(f"/api/tables/{table}").json()["finished_by_stand_ins"] is False
        clock.now += 1
        sweep(server)
        assert server.client.get(f"/api/tables/{table}").json()["finished_by_stand_ins"] is True
        with server.connect(table) as watcher:  # a spectator sees the stand-ins play it out
            final = watcher.until_state(lambda m: m["finished"])
        assert final["seq"] > seq
        info: dict[str, Any] = server.client.get(f"/api/tables/{table}").json()
        assert info["status"] == "finished" and info["finished_by_stand_ins"] is True
    with running(any_db, limits=Limits(clock=clock)) as server:  # stored so
        assert server.client.get(f"/api/tables/{table}").json()["finished_by_stand_ins"] is True


def test_someone_coming_back_keeps_the_game_theirs(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=Limits(clock=clock)) as server:
        table, token = deserted(server)
        clock.now += 23 * HOUR
        with server.connect(table, token):
            sweep(server)  # back: the desertion count ends
            assert listed(server) == [table]
        clock.now += 2 * HOUR
        sweep(server)  # deserted again, but only just
        assert server.table(table).facts.abandoned_ms is None


def test_open_tables_page_newest_first_with_filters(any_db: str) -> None:
    clock = Clock()
    limits = Limits(clock=clock, creates_per_minute=1000, waiting_per_client=1000)
    with running(any_db, limits=limits) as server:
        made: list[tuple[str, str]] = []  # (id, game), oldest first
        for i in range(120):
            clock.now += 1
            game = "marshmallow-test" if i % 3 else "myrummy-111"
            made.append((server.create(game, ["human", "easy", "easy"]), game))
        server.create("marshmallow-test", ["human", "easy"], private=True)
        newest_first = [t for t, _ in reversed(made)]
        pages, query = [], ""
        while True:
            page = server.client.get(f"/api/tables{query}").json()
            assert len(page["tables"]) <= 50
            pages.append([t["id"] for t in page["tables"]])
            if page["next"] is None:
                break
            query = f"?cursor={page['next']}"
        assert [len(p) for p in pages] == [50, 50, 20]
        assert [t for p in pages for t in p] == newest_first
        mr = [t for t, g in reversed(made) if g == "myrummy-111"]
        assert listed(server, "?game=myrummy-111&limit=50") == mr
        assert listed(server, "?players=3&game=myrummy-111") == mr
        assert listed(server, "?players=2") == []  # the private 2-seat table is not listed
        small = server.client.get("/api/tables?limit=7").json()
        assert [t["id"] for t in small["tables"]] == newest_first[:7]
        after = server.client.get(f"/api/tables?limit=7&cursor={small['next']}").json()
        assert [t["id"] for t in after["tables"]] == newest_first[7:14]
        for bad, words in [
            ("?limit=51", "limit must be a whole number from 1 to 50"),
            ("?players=x", "players must be a whole number"),
            ("?game=chess", "game must be one of"),
            ("?cursor=zz", "cursor must be the 'next' value"),
            ("?rated=1", "rated must be true or false"),
            ("?status=over", "status must be waiting or playing"),
            ("?colour=red", "filters are game, players, rated and status"),
        ]:
            response = server.client.get(f"/api/tables{bad}")
            assert response.status_code == 400 and words in response.json()["error"], bad
