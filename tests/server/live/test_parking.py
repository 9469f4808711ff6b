"""Turn-based games at rest (issue 30, item 1; cardtable/server/live/parking.py):
a turn-based game nobody has open leaves memory after ``park_seconds`` and
costs only its rows; it comes back, as it was, when someone opens it or an
hour before its deadline, when that deadline then acts as at any table. My
games reads a parked game's line without bringing it back, a restart leaves
it on disk, and its "an hour left" notice still goes out. On an injected
clock, with the sweeps run by the test."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest
from sqlalchemy import select

from cardtable.server.db.schema import notices, parked
from cardtable.server.live.hub import Hub
from cardtable.server.live.parking import WAKE_BEFORE_MS
from cardtable.server.settings import Limits
from tests.server.accounts.smtp_helpers import smtp_server
from tests.server.accounts.test_notices import FROM, count, two_accounts
from tests.server.accounts_helpers import account_server
from tests.server.helpers import UNLIMITED, Server, running
from tests.server.live.test_lobby_lifecycle import START, Clock, sweep
from tests.server.live.test_turn_based import info, mover, play_some

pytestmark = pytest.mark.timeout(300, method="thread")

MT = "marshmallow-test"
HOUR = 3600.0
PARK_SECONDS = 300.0


def limits(clock: Clock, park_seconds: float = 0.0) -> Limits:
    return dataclasses.replace(UNLIMITED, clock=clock, park_seconds=park_seconds)


def hub_of(server: Server) -> Hub:
    hub: Hub = server.client.app.state.hub  # type: ignore[attr-defined]
    return hub


def in_memory(server: Server, table: str) -> bool:
    return table in hub_of(server).tables


def to_move(server: Server, table: str) -> int | None:
    seat: int | None = hub_of(server).tables[table].state.to_move
    return seat


def parked_rows(server: Server) -> dict[str, int]:
    """table id -> due_ms, as ``ct_parked`` holds them."""

    async def read() -> dict[str, int]:
        async with hub_of(server).storage.engine.connect() as conn:
            rows = (await conn.execute(select(parked.c.table_id, parked.c.due_ms))).all()
        return {r.table_id: r.due_ms for r in rows}

    rows: dict[str, int] = server.client.portal.call(read)  # type: ignore[union-attr]
    return rows


def two_people(server: Server, hours: int = 12) -> tuple[str, list[str]]:
    table = server.create(MT, ["human", "human"], move_hours=hours)
    return table, [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]


def test_a_game_nobody_has_open_rests_on_disk_and_comes_back_as_it_was(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=limits(clock)) as server:
        table, tokens = two_people(server)
        play_some(server, table, tokens, 3, seed=1)
        seat, state = mover(server, table, tokens)
        assert in_memory(server, table)
        sweep(server)
        assert not in_memory(server, table)
        deadline_ms = int((START + 12 * HOUR) * 1000)
        assert parked_rows(server) == {table: deadline_ms - WAKE_BEFORE_MS}
        facts = info(server, table)  # its page is opened: back in memory, as it was
        assert (facts["seq"], facts["status"]) == (state["seq"], "playing")
        assert in_memory(server, table) and parked_rows(server) == {}
        sweep(server)  # nobody connected: it rests again
        assert not in_memory(server, table)
        with server.connect(table, tokens[seat]) as conn:  # opened: back, as it was
            back = conn.state
            assert back is not None
            assert in_memory(server, table) and parked_rows(server) == {}
            for key in ("seq", "to_move", "legal", "view", "scores"):
                assert back[key] == state[key], key
            assert back["timer"]["deadline_ms"] == state["timer"]["deadline_ms"]
            conn.move(back["legal"][0])
            conn.until(lambda m: m["type"] == "ack")
        assert info(server, table)["seq"] == state["seq"] + 1


def test_a_game_rests_only_when_idle_long_enough_and_nobody_is_there(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=limits(clock, PARK_SECONDS)) as server:
        table, tokens = two_people(server)
        seat, _ = mover(server, table, tokens)
        sweep(server)  # first seen with nobody there
        clock.now += PARK_SECONDS - 1
        sweep(server)
        assert in_memory(server, table)
        with server.connect(table, tokens[1 - seat]):  # someone looks in
            clock.now += 2 * PARK_SECONDS
            sweep(server)
            assert in_memory(server, table)
        sweep(server)  # they left: the idle time counts from now
        clock.now += PARK_SECONDS
        sweep(server)
        assert not in_memory(server, table)


def test_a_game_whose_deadline_is_within_the_hour_stays_in_memory(db_url: str) -> None:
    """An hour a move: the deadline is always within the hour that its
    "an hour left" notice needs, so the table never rests."""
    clock = Clock()
    with running(db_url, limits=limits(clock)) as server:
        table, _ = two_people(server, hours=1)
        sweep(server)
        assert in_memory(server, table) and parked_rows(server) == {}


def test_a_bots_turn_is_played_not_parked(db_url: str) -> None:
    """A table where a bot is to move stays in memory until the bot moved
    (here it waits 1.5 s a move), and rests at the person's turn after it."""
    clock = Clock()
    with running(db_url, limits=limits(clock)) as server:
        table = server.create(MT, ["human", "easy"], move_hours=12, bot_delay_ms=1500)
        token = server.join(table, 0, "Ann")
        with server.connect(table, token) as ann:
            state = ann.until_state(lambda m: m["to_move"] == 0)
            ann.move(state["legal"][0])
            ann.until(lambda m: m["type"] == "ack")
        assert to_move(server, table) == 1  # the bot's move comes in 1.5 s
        sweep(server)
        assert in_memory(server, table)
        deadline = time.monotonic() + 30
        while to_move(server, table) != 0:
            assert time.monotonic() < deadline, "the bot never moved"
            time.sleep(0.1)
        sweep(server)
        assert not in_memory(server, table)


def test_a_parked_game_wakes_an_hour_before_its_deadline_which_then_acts(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=limits(clock)) as server:
        table, tokens = two_people(server)
        seat, state = mover(server, table, tokens)
        sweep(server)
        assert not in_memory(server, table)
        clock.now += 11 * HOUR - 1
        sweep(server)
        assert not in_memory(server, table)  # not due yet
        clock.now += 1
        sweep(server)
        assert in_memory(server, table)  # due: back for its last hour
        assert info(server, table)["seq"] == state["seq"]
        clock.now += HOUR
        sweep(server)  # the deadline: the stand-in plays the one move
        with server.connect(table, tokens[1 - seat]) as other:
            after = other.until_state(lambda m: m["seq"] > state["seq"])
        assert "timeout" in [e["event"] for e in after["log"] if e["seat"] == seat]
        sweep(server)  # the other person's turn, twelve hours: it rests again
        assert not in_memory(server, table)


def test_a_restart_leaves_a_parked_game_on_disk_until_it_is_opened(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=limits(clock)) as server:
        table, tokens = two_people(server)
        _, state = mover(server, table, tokens)
        sweep(server)
    with running(any_db, limits=limits(clock)) as server:
        assert not in_memory(server, table)
        assert table in parked_rows(server)
        _, again = mover(server, table, tokens)
        assert again["seq"] == state["seq"] and in_memory(server, table)


def test_my_games_shows_a_parked_game_without_bringing_it_back(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, limits=limits(clock)) as server:
        server.sign_up("Ann")
        table = server.create(MT, ["human", "easy"], move_hours=24)
        token = server.join(table, 0, "Ann")
        with server.connect(table, token) as ann:
            ann.until_state(lambda m: m["to_move"] == 0)
        warm = server.client.get("/api/me/games").json()["in_progress"]
        sweep(server)
        assert not in_memory(server, table)
        cold = server.client.get("/api/me/games").json()["in_progress"]
        assert cold == warm
        assert cold[0]["your_turn"] and cold[0]["deadline_ms"] is not None
        lobby = server.client.get(f"/api/live-tables?ids={table}").json()["tables"]
        assert [line["id"] for line in lobby] == [table]  # "Your tables" in the lobby
        assert not in_memory(server, table)


def test_the_hour_left_notice_of_a_parked_game_goes_out(db_url: str) -> None:
    clock = Clock()
    with (
        smtp_server() as inbox,
        account_server(db_url, limits=limits(clock), smtp_url=inbox.url, mail_from=FROM) as server,
    ):
        ann, bea = two_accounts(server, inbox)
        table, _ = _game(ann, bea)
        sweep(server)
        assert not in_memory(server, table)
        assert count(server, notices, kind="deadline_soon") == 0
        clock.now += 23 * HOUR
        sweep(server)
        assert in_memory(server, table)
        _settle(server)
        assert count(server, notices, kind="deadline_soon") == 1


def _game(ann: Any, bea: Any) -> tuple[str, list[str]]:
    table = ann.create(MT, ["human", "human"], move_hours=24)
    return table, [ann.join(table, 0, "Ann"), bea.join(table, 1, "Bea")]


def _settle(server: Any) -> None:
    server.client.portal.call(server.client.app.state.notices.settle)
