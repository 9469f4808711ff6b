"""Any JSON, lone surrogates included, to every route and every client
message type: a 4xx or an error message with a sentence, never a 5xx, no
traceback in the log, nothing changed by a refusal, and the socket kept.

The routes come from the Starlette app itself and the field names from the
schemas (every :class:`~cardtable.server.requests.Closed` struct), so a new
route or a new field is covered without touching this file.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest
from httpx2 import Response
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import inspect
from starlette.routing import Route
from starlette.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.requests import ClientMessage, Closed
from cardtable.server.settings import Settings
from tests.server.helpers import UNLIMITED, Conn, Server, sqlite_url

NAME, PASSWORD, GAME = "Prop", "correct horse", "marshmallow-test"
# A refusal of what a request says: nothing may have changed.
REFUSED = {400, 404, 409, 413, 415, 422}
# Examples per route or message type: the whole file runs in well under a minute.
BOUNDED = settings(
    max_examples=12,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _structs(cls: type[Closed]) -> Iterator[type[Closed]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _structs(sub)


SCHEMAS = sorted(_structs(Closed), key=lambda s: s.__name__)
FIELDS = sorted({f.encode_name for s in SCHEMAS for f in msgspec.structs.fields(s)})

# Text with a lone surrogate half the time (st.text leaves them out).
SURROGATE = st.characters(categories=["Cs"])
TEXT = st.text(max_size=8) | st.tuples(st.text(max_size=4), SURROGATE).map("".join)
SCALARS = st.none() | st.booleans() | st.integers(-(10**15), 10**15) | st.floats() | TEXT
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | TEXT, inner, max_size=4)
    ),
    max_leaves=8,
)


def _spoilt(text: str) -> st.SearchStrategy[str]:
    """``text`` itself, or with a lone surrogate after it."""
    return st.just(text) | SURROGATE.map(lambda c: text + c)


def _like(kind: inspect.Type) -> st.SearchStrategy[Any]:
    """Values nearly of ``kind``: the right shape, any text in it perhaps
    holding a lone surrogate, and now and then any JSON at all."""
    if isinstance(kind, inspect.Metadata):
        return _like(kind.type)
    shaped: st.SearchStrategy[Any] = JSON
    if isinstance(kind, inspect.StrType):
        shaped = TEXT
    elif isinstance(kind, inspect.LiteralType):
        shaped = st.sampled_from(kind.values).flatmap(lambda v: _spoilt(str(v)))
    elif isinstance(kind, inspect.IntType):
        shaped = st.integers(kind.ge or 0, kind.le or 100)
    elif isinstance(kind, inspect.ListType):
        shaped = st.lists(_like(kind.item_type), max_size=3)
    elif isinstance(kind, inspect.UnionType):
        shaped = st.one_of([_like(member) for member in kind.types])
    elif isinstance(kind, inspect.StructType):
        fields = {f.encode_name: _like(f.type) for f in kind.fields}
        shaped = st.fixed_dictionaries({}, optional=fields)
        if kind.tag_field is not None:
            tag = st.fixed_dictionaries({kind.tag_field: _spoilt(str(kind.tag))})
            shaped = st.tuples(tag, shaped).map(lambda pair: {**pair[0], **pair[1]})
    return shaped if shaped is JSON else shaped | JSON


PING = {"type": "ping"}
BODIES = st.one_of([_like(inspect.type_info(schema)) for schema in SCHEMAS])


def _send_json(client: TestClient, method: str, path: str, body: Any) -> Response:
    text = json.dumps(body)  # ensure_ascii: a lone surrogate goes as \\udxxx
    return client.request(
        method, path, content=text.encode(), headers={"content-type": "application/json"}
    )


class World:
    """The server with something in it: an account signed in, a table being played."""

    def __init__(self, server: Server, db_file: Path) -> None:
        self.server = server
        self.db_file = db_file
        self.client = server.client
        self.sign_in(signup=True)
        self.table = server.create(GAME, ["human", "human"])
        self.tokens = [server.join(self.table, seat) for seat in (0, 1)]
        puzzle = self.client.get(f"/api/puzzles/{GAME}/next").json()["id"]
        # What each path parameter is, so that a request gets as far as its body.
        self.values = {
            "table_id": self.table,
            "game": GAME,
            "name": NAME,
            "step": "1",
            "puzzle": puzzle,
        }

    def sign_in(self, signup: bool = False) -> None:
        path = "/api/account/signup" if signup else "/api/account/signin"
        response = self.client.post(path, json={"name": NAME, "password": PASSWORD})
        assert response.status_code in (200, 201), response.text

    def keep_signed_in(self) -> None:
        """A body may have signed the browser out (sign-out reads none)."""
        if self.client.get("/api/account").json()["account"] is None:
            self.sign_in()

    def path(self, route: Route) -> str:
        """The route's path with a value for each parameter that reaches its handler."""
        params = {name: self.values.get(name, "0") for name in route.param_convertors}
        return route.url_path_for(route.name, **params)

    def snapshot(self) -> Any:
        """Everything the database holds, and each table held in memory."""
        with sqlite3.connect(self.db_file) as db:
            stored = list(db.iterdump())
        held = {
            table_id: (t.status, t.seq, [s.facts.name for s in t.seats], len(t.chat))
            for table_id, t in self.server.hub.tables.items()
        }
        return stored, held


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    app = create_app(Settings(db_url=sqlite_url(tmp_path), fast_passwords=True, limits=UNLIMITED))
    with TestClient(app, base_url="https://testserver", raise_server_exceptions=False) as client:
        yield World(Server(client), tmp_path / "tables.sqlite3")


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def _routes(world: World) -> list[tuple[str, Route]]:
    found = [
        (method, route)
        for route in world.client.app.routes  # type: ignore[attr-defined]
        if isinstance(route, Route)
        for method in sorted(route.methods or ())
        if method != "HEAD"
    ]
    assert len(found) > 40  # the app's routes, not a list of this file
    return found


def _refused_in_words(world: World, method: str, path: str) -> None:
    # A GET reads no body: a few examples show that one sent anyway harms nothing.
    @settings(BOUNDED, max_examples=3 if method == "GET" else BOUNDED.max_examples)
    @given(body=BODIES)
    def check(body: Any) -> None:
        before = world.snapshot()
        response = _send_json(world.client, method, path, body)
        status = response.status_code
        assert status < 500, (method, path, body)
        if status >= 400 and response.headers["content-type"].startswith("text/html"):
            # A page a person opens from a mail (an unknown link): it says so in words.
            assert "<p>" in response.text and "Traceback" not in response.text, (method, path)
        elif status >= 400:
            assert response.json()["error"], (method, path, body)  # a sentence
        if status in REFUSED:
            assert world.snapshot() == before, (method, path, body, status)
        if path.startswith("/api/account/"):
            world.keep_signed_in()

    check()


def test_any_json_to_any_route_is_refused_in_words(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    for method, route in _routes(world):
        _refused_in_words(world, method, world.path(route))
    _no_traceback(caplog)


@pytest.mark.parametrize("body", [{"seats": [{"kind": "human\ud800"}]}, {"game": "\udfff"}])
def test_a_lone_surrogate_in_a_new_table_is_a_400(world: World, body: Any) -> None:
    response = _send_json(world.client, "POST", "/api/tables", body)
    assert response.status_code == 400
    assert "lone surrogate" in response.json()["error"]


def test_a_lone_surrogate_in_a_name_is_a_400_at_sign_in(world: World) -> None:
    body = {"name": "Prop\ud800", "password": PASSWORD}
    response = _send_json(world.client, "POST", "/api/account/signin", body)
    assert response.status_code == 400
    assert response.json()["error"].startswith("request.name holds a lone surrogate")


def _answered(world: World, conn: Conn, kind: Any) -> None:
    @BOUNDED
    @given(message=_like(inspect.type_info(kind)))
    def check(message: Any) -> None:
        before = world.snapshot()
        conn.ws.send_text(json.dumps(message))
        conn.send(PING)
        said = []
        for _ in range(1 + (message == PING)):  # a ping drawn as the message: its own pong
            while (reply := conn.read())["type"] != "pong":
                said.append(reply)
        errors = [m["message"] for m in said if m["type"] == "error"]
        if errors:
            assert all(errors), said  # a sentence each
            assert world.snapshot() == before, (message, said)

    check()


def test_any_message_of_any_type_is_answered_and_the_socket_kept(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    with world.server.connect(world.table, world.tokens[0]) as conn:
        for kind in get_args(ClientMessage):
            _answered(world, conn, kind)
        conn.quiet()  # still open, still answering, nothing left unread
    _no_traceback(caplog)


def test_a_lone_surrogate_in_a_message_type_is_an_error_message(world: World) -> None:
    with world.server.connect(world.table, world.tokens[0]) as conn:
        conn.ws.send_text('{"type": "move\\ud800", "seq": 0}')
        reply = conn.until(lambda m: m["type"] == "error")
        assert reply["message"].startswith("message.type holds a lone surrogate")
        conn.quiet()
