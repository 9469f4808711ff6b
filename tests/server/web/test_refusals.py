"""Every message the server refuses gets a clear error to its sender only and
changes nothing: not the game, not the seats, not what others are sent."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import Conn, Server, running, sqlite_url

pytestmark = pytest.mark.timeout(300, method="thread")


def snapshot(server: Server, table_id: str) -> Any:
    table = server.table(table_id)
    seats = [(s.facts.name, s.facts.token_hash, s.stand_in) for s in table.seats]
    return table.seq, table.status, json.dumps(table.state.record()), seats, table.timer


Duel = tuple[Server, str, Conn, Conn, Conn]


@contextlib.contextmanager
def seated_duel(db_url: str) -> Iterator[Duel]:
    """Marshmallow Test for two people (seat 0 leads), and a spectator."""
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        tokens = [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]
        with (
            server.connect(table, tokens[0]) as ann,
            server.connect(table, tokens[1]) as bob,
            server.connect(table) as eve,
        ):
            for conn in (ann, bob):  # each has seen everyone arrive
                conn.until_state(lambda m: m["spectators"] == 1)
            yield server, table, ann, bob, eve


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Duel]:
    """One duel for the tests that only send what is refused: each checks that
    its message changed nothing (:func:`refused`), so none depends on another,
    and the module starts one server instead of one a test."""
    with seated_duel(sqlite_url(tmp_path_factory.mktemp("duel"))) as seated:
        yield seated


@pytest.fixture
def fresh_duel(db_url: str) -> Iterator[Duel]:
    """A duel of the test's own, for a test that changes the table or a socket."""
    with seated_duel(db_url) as seated:
        yield seated


def refused(
    duel: tuple[Server, str, Conn, Conn, Conn], who: str, send: Callable[[Conn], None]
) -> dict[str, Any]:
    """Send a bad message; its error, after checking that nothing changed."""
    server, table, *conns = duel
    sender = dict(zip(("ann", "bob", "eve"), conns, strict=True))[who]
    before = snapshot(server, table)
    send(sender)
    error = sender.read()
    assert error["type"] == "error", error
    assert isinstance(error["message"], str) and error["message"]
    assert snapshot(server, table) == before
    for conn in conns:
        conn.quiet()  # nobody else was sent anything
    return error


def test_a_move_out_of_turn_is_refused(duel: Any) -> None:
    bob = duel[3]
    card = bob.state["view"]["hand"][0]
    error = refused(duel, "bob", lambda c: c.move({"play": card}))
    assert "turn" in error["message"]
    # Named for the browser's catalog (no rule: the table refused it, not the rules).
    assert (error["rule"], error["key"], error["params"]) == (
        None,
        "turn",
        {"to_move": 0, "seat": 1},
    )


def test_a_spectator_cannot_move(duel: Any) -> None:
    error = refused(duel, "eve", lambda c: c.move({"play": "R1"}))
    assert "spectators" in error["message"]


def test_a_stale_sequence_number_is_refused(duel: Any) -> None:
    ann = duel[2]
    move = ann.state["legal"][0]
    seq = ann.state["seq"]
    error = refused(duel, "ann", lambda c: c.move(move, seq=seq + 5))
    assert "stale" in error["message"]
    assert (error["key"], error["params"]) == ("stale", {"sent": seq + 5, "now": seq})


def test_a_double_click_plays_once(fresh_duel: Any) -> None:
    server, table, ann, _, _ = fresh_duel
    seq = ann.state["seq"]
    move = ann.state["legal"][0]
    ann.move(move)
    ann.move(move)  # the same message again, before the first is answered
    assert ann.until(lambda m: m["type"] in ("ack", "error")) == {"type": "ack", "seq": seq + 1}
    second = ann.until(lambda m: m["type"] in ("ack", "error"))
    assert second["type"] == "error" and "stale" in second["message"]
    assert server.table(table).seq == seq + 1


def test_an_illegal_move_gets_the_engines_reason_and_rule(duel: Any) -> None:
    ann = duel[2]
    bad = next(r for r in ann.state["refused"] if r["rule"])
    error = refused(duel, "ann", lambda c: c.move(bad["move"]))
    assert error["rule"] == bad["rule"]
    assert bad["reason"] in error["message"]
    # The refusal's name and facts cross the wire for the browser to word.
    assert bad["key"] and bad["key"].startswith(bad["rule"] + ".")
    assert (error["key"], error["params"]) == (bad["key"], bad["params"])


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        '{"type": "move", "seq": 0, "move": {"play": "R1"}, "pad": "' + "x" * 5000 + '"}',
        '{"type": "move", "seq": ' + "7" * 5000 + ', "move": {"play": "R1"}}',
        '{"type": "move", "seq": 0.5, "move": {"play": "R1"}}',
        '{"type": "move", "seq": NaN, "move": {"play": "R1"}}',
        '{"type": "move", "type": "move", "seq": 0}',
        "[" * 2000 + "]" * 2000,  # nested deeper than the parser goes, within 4 KiB
        '"move"',
        '{"type": "dance"}',
        '{"type": "move", "seq": 0, "move": "R1"}',
        '{"type": "move", "seq": 0, "move": {"play": "R13"}}',
        '{"type": "move", "seq": 0, "move": {"seat": 1, "play": "R1"}}',
        '{"type": "move", "seq": 0, "move": {"play": "R1"}, "token": "x"}',
        '{"type": "move", "seq": true, "move": {"play": "R1"}}',
        '{"type": "back"}',
    ],
    ids=lambda text: text[:40],
)
def test_malformed_messages_are_refused(duel: Any, text: str) -> None:
    refused(duel, "ann", lambda c: c.ws.send_text(text))


def test_a_binary_frame_is_refused(duel: Any) -> None:
    refused(duel, "ann", lambda c: c.ws.send_bytes(b'{"type": "ping"}'))


def test_a_wrong_token_or_table_gets_an_error_and_the_socket_closes(fresh_duel: Any) -> None:
    server, table, *conns = fresh_duel
    before = snapshot(server, table)
    for url, code in ((f"/ws/{table}?token=not-a-token", 4403), ("/ws/nosuchtable", 4404)):
        with server.client.websocket_connect(url) as ws:
            error = ws.receive_json()
            assert error["type"] == "error" and error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == code
    assert snapshot(server, table) == before
    for conn in conns:
        conn.quiet()


def test_joining_a_taken_bot_or_missing_seat_is_refused(fresh_duel: Any) -> None:
    server, table, *conns = fresh_duel
    before = snapshot(server, table)
    for body in ({"seat": 0, "name": "Mallory"}, {"seat": 7, "name": "M"}, {"seat": 0}):
        response = server.client.post(f"/api/tables/{table}/join", json=body)
        assert 400 <= response.status_code < 500
        assert response.json()["error"]
    assert snapshot(server, table) == before
    for conn in conns:
        conn.quiet()


def test_chance_outcomes_come_from_the_server_only(db_url: str) -> None:
    with running(db_url) as server:
        table = server.create("myrummy-111", ["human", "human"])
        tokens = [server.join(table, 0), server.join(table, 1)]
        with server.connect(table, tokens[0]) as first, server.connect(table, tokens[1]):
            state = first.until_state(lambda m: m["to_move"] == 0)
            seq = server.table(table).seq
            first.move({"take": 0, "refresh": True, "reshuffle": list(range(2, 10))})
            error = first.until(lambda m: m["type"] in ("error", "ack"))
            assert error["type"] == "error"
            assert server.table(table).seq == seq == state["seq"]


def test_a_move_the_database_refuses_is_not_acknowledged_and_changes_nothing(
    fresh_duel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, table, ann, _, _ = fresh_duel
    storage = server.hub.storage
    commit = storage._commit

    async def broken(*args: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(storage, "_commit", broken)
    error = refused(fresh_duel, "ann", lambda c: c.move(ann.state["legal"][0]))
    assert error is not None and "could not store" in error["message"]
    monkeypatch.setattr(storage, "_commit", commit)
    seq = server.table(table).seq
    ann.move(ann.state["legal"][0])
    assert ann.until(lambda m: m["type"] in ("ack", "error")) == {"type": "ack", "seq": seq + 1}
