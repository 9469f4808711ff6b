"""Turn-based tables (issue 30, item 1; docs/server.md, "Turn-based tables"),
on an injected clock: a time per move in hours, nobody replaced while away,
and when the person to move runs out of time the table does what its owner
chose (its stand-in plays that one move, or takes the seat to the end). The
deadline lives in the database: it survives a restart and acts once."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli.main import app
from cardtable.server.settings import Limits
from cardtable.server.tables.journal import DROP, STAND_IN, TAKEBACK, Journal, deadline_event
from tests.server.accounts_helpers import account_server
from tests.server.helpers import UNLIMITED, Server, play_out, running
from tests.server.live.test_analysis import BUDGET, wait_done
from tests.server.live.test_lobby_lifecycle import START, Clock, sweep

pytestmark = pytest.mark.timeout(300, method="thread")

MT = "marshmallow-test"
HOUR = 3600.0


def limits(clock: Clock) -> Limits:
    return dataclasses.replace(UNLIMITED, clock=clock)


def info(server: Server, table: str) -> dict[str, Any]:
    response = server.client.get(f"/api/tables/{table}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def two_people(server: Server, **settings: Any) -> tuple[str, list[str]]:
    """A turn-based table of Ann and Bob, both seated (it plays from now)."""
    table = server.create(MT, ["human", "human"], move_hours=1, **settings)
    return table, [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]


def mover(server: Server, table: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """The seat to move and its state message (read by connecting, then leaving)."""
    for token in tokens:
        with server.connect(table, token) as conn:
            state = conn.state
            assert state is not None
            if state["to_move"] == conn.seat:
                return state["to_move"], state
    raise AssertionError("no person is to move")


def test_a_turn_based_table_states_its_hours_and_refuses_what_does_not_fit(
    db_url: str,
) -> None:
    with running(db_url) as server:
        table = server.create(MT, ["human", "easy"], move_hours=24)
        facts = info(server, table)
        assert (facts["move_hours"], facts["on_timeout"]) == (24, "stand-in")
        real_time = info(server, server.create(MT, ["human", "easy"]))
        assert (real_time["move_hours"], real_time["on_timeout"]) == (None, None)
        for body, where in (
            ({"move_hours": 5}, "move_hours"),
            ({"on_timeout": "drop"}, "on_timeout"),
            ({"move_hours": 1, "turn_seconds": 60}, "turn_seconds"),
            ({"move_hours": 1, "on_timeout": "resign"}, "on_timeout"),
        ):
            request = {"game": MT, "seats": [{"kind": "human"}, {"kind": "human"}], **body}
            refused = server.client.post("/api/tables", json=request)
            assert refused.status_code == 400, (body, refused.text)
            assert f"request.{where}" in refused.json()["error"], refused.text


def test_no_reader_sees_the_table_playing_before_its_first_turn_has_begun(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last seat taken makes the table play and starts the first turn's
    time. Whatever reads the table while that is stored (the heartbeat that
    publishes the lobby line, which "My games" reads on other processes)
    sees both or neither: never a person to move without a deadline."""
    with running(db_url) as server:
        table = server.create(MT, ["human", "human"], move_hours=1)
        server.join(table, 0, "Ann")
        storage = server.hub.storage
        store = storage.set_table
        seen: list[tuple[str, int | None]] = []

        async def watched(table_id: str, **values: Any) -> None:
            facts = server.table(table_id).facts
            seen.append((facts.status, facts.turn_started_ms))
            await store(table_id, **values)

        monkeypatch.setattr(storage, "set_table", watched)
        server.join(table, 1, "Bob")
        assert seen, "the first turn's start was not stored"
        assert all(status != "playing" or started is not None for status, started in seen), seen
        facts = server.table(table).facts
        assert facts.status == "playing" and facts.turn_started_ms is not None


def test_nobody_stands_in_for_an_absent_person_before_their_deadline(db_url: str) -> None:
    """At a real-time table a person away past the grace period (here 50 ms)
    gets a stand-in; at a turn-based one their move waits for them."""
    clock = Clock()
    with running(db_url, limits=limits(clock), grace_seconds=0.05) as server:
        table, tokens = two_people(server)
        seat, state = mover(server, table, tokens)
        assert state["timer"]["deadline_ms"] == int((START + HOUR) * 1000)
        assert state["timer"]["seat"] == seat and state["timer"]["turn_based"] is True
        with server.connect(table, tokens[1 - seat]) as other:  # not deserted: one is here
            time.sleep(0.5)  # ten grace periods for a stand-in that must not come
            clock.now += HOUR - 1
            sweep(server)
            other.send({"type": "ping"})
            other.until(lambda m: m["type"] == "pong")
            facts = info(server, table)
            assert facts["seq"] == state["seq"]  # nobody moved for the absent person
            assert not any(s["bot_playing"] for s in facts["seats"])
            assert other.state is not None  # people come and go: nobody "left"
            assert "left" not in [e["event"] for e in other.state["log"]]


def test_past_the_deadline_the_stand_in_plays_that_one_move_and_the_seat_stays_theirs(
    db_url: str,
) -> None:
    clock = Clock()
    with running(db_url, limits=limits(clock)) as server:
        table, tokens = two_people(server)
        seat, state = mover(server, table, tokens)
        clock.now += HOUR
        sweep(server)
        with server.connect(table, tokens[1 - seat]) as other:
            after = other.until_state(lambda m: m["seq"] > state["seq"])
        assert "timeout" in [e["event"] for e in after["log"] if e["seat"] == seat]
        assert not after["seats"][seat]["bot_playing"]  # one move only
        sweep(server)  # the next turn has its own hour: nothing more happens
        assert info(server, table)["seq"] == after["seq"]
        if after["to_move"] != seat:  # the next deadline counts from the stand-in's move
            assert after["timer"]["deadline_ms"] == int((START + 2 * HOUR) * 1000)


def test_drop_hands_the_seat_to_a_bot_to_the_end_across_a_restart(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=limits(clock)) as server:
        table, tokens = two_people(server, on_timeout="drop")
        seat, _ = mover(server, table, tokens)
        clock.now += HOUR + 1
        sweep(server)
        sweep(server)  # a second sweep drops nobody twice
        facts = info(server, table)
        assert facts["seats"][seat]["bot_playing"]
        with server.connect(table, tokens[seat]) as dropped:
            assert dropped.state is not None
            events = [e["event"] for e in dropped.state["log"] if e["seat"] == seat]
            assert events.count("dropped") == 1
            dropped.send({"type": "back"})
            told = dropped.until(lambda m: m["type"] == "error")
            assert told["key"] == "turn.dropped"  # the page words it in its language
            assert "bot plays this seat to the end" in told["message"]
            assert dropped.state["seats"][seat]["dropped"]  # no "take my seat back"
    with running(any_db, limits=limits(clock)) as server:  # a restart keeps it dropped
        facts = info(server, table)
        assert facts["seats"][seat]["bot_playing"]
        with server.connect(table, tokens[seat]) as dropped:
            after = dropped.state
            assert after is not None and after["seats"][seat]["bot_playing"]


def test_a_deadline_survives_a_restart(any_db: str) -> None:
    """The deadline lives in the database: a restart before it keeps it, and
    after a restart past it the stand-in moves. (Restarted *past* it, the
    server's first sweep may act before anyone reads the old deadline, so
    that is read on a restart before it.)"""
    clock = Clock()
    with running(any_db, limits=limits(clock)) as server:
        table, tokens = two_people(server)
        _, state = mover(server, table, tokens)
    clock.now += HOUR / 2
    with running(any_db, limits=limits(clock)) as server:
        _, again = mover(server, table, tokens)
        assert again["timer"]["deadline_ms"] == state["timer"]["deadline_ms"]
    clock.now += HOUR  # the server was down when the time ran out
    with running(any_db, limits=limits(clock)) as server:
        sweep(server)
        with server.connect(table, tokens[0]) as ann:  # the stand-in's move comes
            ann.until_state(lambda m: m["seq"] > state["seq"])


def test_my_games_lists_the_games_waiting_for_me_oldest_deadline_first(db_url: str) -> None:
    """Issue 30, item 2: /api/me/games gives a turn-based game waiting for the
    account its deadline, and lists those games oldest deadline first (not
    newest first, as other games are)."""
    clock = Clock()
    with account_server(db_url, limits=limits(clock)) as server:
        server.sign_up("Ann")
        tables = []
        for _ in range(2):
            table = server.create(MT, ["human", "easy"], move_hours=12)
            token = server.join(table, 0, "Ann")
            with server.connect(table, token) as ann:
                ann.until_state(lambda m: m["to_move"] == 0)  # the bot played up to her
            tables.append(table)
            clock.now += 600  # the second table's turn begins ten minutes later
        games = server.client.get("/api/me/games").json()["in_progress"]
        assert [g["id"] for g in games] == tables  # the older deadline first
        assert all(g["your_turn"] and g["move_hours"] == 12 for g in games)
        assert [g["deadline_ms"] for g in games] == [
            int((START + 600 * i + 12 * HOUR) * 1000) for i in range(2)
        ]


# --- deadline events in the record, and the third choice "end" (issue 30, items 1 and 5) ---


def record_of(server: Server, table: str) -> dict[str, Any]:
    response = server.client.get(f"/api/tables/{table}/record")
    assert response.status_code == 200, response.text
    record: dict[str, Any] = response.json()
    return record


def replays(tmp_path: Path, record: dict[str, Any]) -> dict[str, Any]:
    """``cardtable replay RECORD --json`` in-process: it must exit 0."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 0, result.output
    replayed: dict[str, Any] = json.loads(result.stdout)
    return replayed


def play_some(server: Server, table: str, tokens: list[str], moves: int, seed: int) -> None:
    """``moves`` random legal moves by whoever is to move (no deadline passes)."""
    rng = random.Random(seed)
    for _ in range(moves):
        seat, state = mover(server, table, tokens)
        with server.connect(table, tokens[seat]) as conn:
            conn.move(rng.choice(state["legal"]))
            conn.until(lambda m: m["type"] == "ack")


def finish_with(server: Server, table: str, tokens: dict[int, str], seed: int) -> None:
    """The people at ``tokens`` (by seat) play the game out with random moves."""
    with contextlib.ExitStack() as stack:
        conns = {seat: stack.enter_context(server.connect(table, t)) for seat, t in tokens.items()}
        play_out(next(iter(conns.values())), conns, random.Random(seed))


@pytest.mark.parametrize("on_timeout", ["stand-in", "drop", "end"])
def test_each_deadline_is_an_event_of_the_record_read_back_after_restarts(
    db_url: str, tmp_path: Path, on_timeout: str
) -> None:
    """Issue 30, item 5: a turn-based game's record is ``cardtable-record/1``
    with its deadline events under the top-level ``deadlines`` (the format
    allows any extra top-level key); each is stored in the journal with what
    it caused, so a table restored from storage has it; the record replays."""
    clock = Clock()
    with running(db_url, limits=limits(clock)) as server:
        table, tokens = two_people(server, on_timeout=on_timeout)
        play_some(server, table, tokens, 3, seed=1)
        seat, state = mover(server, table, tokens)
        deadline_ms = state["timer"]["deadline_ms"]
        clock.now = deadline_ms / 1000 + 5  # the sweep comes five seconds late
        sweep(server)
        if on_timeout == "stand-in":  # its move is stored with the deadline event
            with server.connect(table, tokens[1 - seat]) as other:
                other.until_state(lambda m: m["seq"] > state["seq"])
    with running(db_url, limits=limits(clock)) as server:  # restored from storage
        if on_timeout != "end":
            people = {s: tokens[s] for s in range(2) if not (on_timeout == "drop" and s == seat)}
            finish_with(server, table, people, seed=2)
        assert info(server, table)["status"] == "finished"
    with running(db_url, limits=limits(clock), analysis_budget=BUDGET) as server:
        record = record_of(server, table)
        asked = server.client.post(f"/api/tables/{table}/analysis", json={})
        assert asked.status_code == 202, asked.text
        judged = wait_done(server, table)  # the analysis reads this record too
        assert judged["status"] == "done", judged
        assert len(judged["analysis"]["decisions"]) == sum(
            len(r["moves"]) for r in record["rounds"]
        )
    assert record["format"] == "cardtable-record/1"
    assert (record["move_hours"], record["on_timeout"]) == (1, on_timeout)
    [event] = record["deadlines"]
    assert event == {
        "round": event["round"],
        "move": event["move"],
        "seat": seat,
        "action": on_timeout,
        "at_ms": deadline_ms + 5000,
        "deadline_ms": deadline_ms,
    }
    moves = record["rounds"][event["round"] - 1]["moves"]
    made = sum(len(r["moves"]) for r in record["rounds"][: event["round"] - 1])
    assert made + event["move"] == state["seq"] + 1  # the move that was due
    if on_timeout == "end":  # the game stopped there: no move after it
        assert len(moves) == event["move"] - 1 and len(record["rounds"]) == event["round"]
        assert set(record["result"]) == {"scores", "round_scores"}
    else:  # the stand-in made that very move for the late seat
        assert moves[event["move"] - 1]["seat"] == seat
        assert record["result"]["finished"] is True
    replayed = replays(tmp_path, record)
    assert replayed["finished"] is (on_timeout != "end")
    assert replayed["scores"] == record["result"]["scores"]


def test_a_game_that_ends_on_time_ranks_the_late_person_last(db_url: str) -> None:
    """Issue 30, item 1: "or the game ends with that person last". Ann and Bea
    are level (no points yet): without the rule they would share first place."""
    clock = Clock()
    with account_server(db_url, limits=limits(clock)) as server:
        ann, bea = server, server.browser()
        ann.sign_up("Ann")
        bea.sign_up("Bea")
        table = ann.create(MT, ["human", "human"], move_hours=1, on_timeout="end")
        tokens = [ann.join(table, 0, "Ann"), bea.join(table, 1, "Bea")]
        seat, state = mover(server, table, tokens)
        assert state["scores"] == [0, 0]
        clock.now += HOUR
        sweep(server)
        sweep(server)  # the game ends once
        assert info(server, table)["status"] == "finished"
        with server.connect(table, tokens[1 - seat]) as other:
            ended = other.state
        assert ended is not None
        assert ended["finished"] and ended["winners"] == [1 - seat]
        assert ended["to_move"] is None and ended["legal"] == []  # nobody moves any more
        assert ended["ended"] == {"seat": seat, "reason": "timeout", "at_ms": int(clock.now * 1000)}
        assert [e["event"] for e in ended["log"] if e["seat"] == seat].count("ended") == 1
        ranks = {r["seat"]: r["rank"] for r in ended["ratings"]}
        assert ranks == {seat: 2, 1 - seat: 1}
        moves = server.client.get(f"/api/tables/{table}/replay?step=0")
        assert moves.status_code == 200, moves.text  # the replay of an ended game works
    with account_server(db_url, limits=limits(clock)) as server:  # as the end screen reads it
        with server.connect(table) as watcher:
            again = watcher.state
        assert again is not None and again["ended"] == ended["ended"]
        assert again["ratings"] == ended["ratings"]


def test_a_stand_ins_move_taken_back_takes_its_deadline_event_along() -> None:
    """A friendly table may take a move back (docs/server.md, "Take-backs"):
    a stand-in's move taken back no longer stands, so the deadline event
    naming it goes too (read back from storage alike); a drop stays."""
    game = cardtable.load(MT, players=2)
    state = game.new_game(random.Random(1))
    journal = Journal()
    stored = journal.new_events(state)
    seat = state.to_move
    assert seat is not None
    late = deadline_event(journal, seat, STAND_IN, 7_000, 5_000)
    moved = journal.applied(state.apply(state.legal_moves()[0]), state)
    journal.commit([late, *moved])
    assert journal.deadlines == [late[1]] and late[1]["move"] == 1
    dropped = deadline_event(journal, 1 - seat, DROP, 9_000, 8_000)
    undo = (TAKEBACK, {"seat": seat})
    journal.commit([dropped, undo])
    assert journal.deadlines == [dropped[1]]
    assert Journal([*stored, late, *moved, dropped, undo]).deadlines == [dropped[1]]
