"""Requests from other sites are refused (issue 17, item 6): a state-changing
request must be JSON, and a request or WebSocket handshake that names an
``Origin`` must name this server's own (or ``--public-url``'s)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from cardtable.server.guard.origin import MAX_HEADERS, origin_of, own_origin, refusal
from cardtable.server.settings import Limits
from tests.server.helpers import running

BODY: dict[str, Any] = {
    "game": "marshmallow-test",
    "options": {"target": 4},
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
}
EVIL = "http://evil.example"
OWN = "http://testserver"  # the test client's Host


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        ({"Content-Type": "text/plain", "Origin": EVIL}, 403, "'http://evil.example' are refused"),
        ({"Content-Type": "application/json", "Origin": EVIL}, 403, "are refused"),
        ({"Content-Type": "text/plain"}, 415, "Content-Type: application/json"),
        ({"Content-Type": "application/x-www-form-urlencoded", "Origin": OWN}, 415, "JSON"),
        ({"Content-Type": "application/json", "Origin": "null"}, 403, "are refused"),
    ],
)
def test_a_create_from_another_site_or_not_json_is_refused(
    db_url: str, headers: dict[str, str], status: int, words: str
) -> None:
    with running(db_url) as server:
        response = server.client.post("/api/tables", content=json.dumps(BODY), headers=headers)
        assert response.status_code == status, response.text
        assert words in response.json()["error"]
        assert server.hub.tables == {}


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": OWN},
        {"Origin": "HTTP://TESTSERVER:80"},  # the same origin, spelled otherwise
        {},  # a program, not a page: no Origin
    ],
)
def test_json_from_this_site_or_from_a_program_is_accepted(
    db_url: str, headers: dict[str, str]
) -> None:
    with running(db_url) as server:
        assert server.client.post("/api/tables", json=BODY, headers=headers).status_code == 201


def test_a_websocket_from_another_site_is_refused(db_url: str) -> None:
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "easy"])
        with pytest.raises(WebSocketDisconnect) as refused:
            server.client.websocket_connect(f"/ws/{table}", headers={"Origin": EVIL}).__enter__()
        assert refused.value.code == 1008
        assert (
            refused.value.reason
            == f"requests from {EVIL!r} are refused: only this site's own pages may"
        )
        # A close frame's reason holds at most 123 bytes: a long sentence is cut at 120.
        long = "http://" + "e" * 70 + ".example"
        with pytest.raises(WebSocketDisconnect) as cut:
            server.client.websocket_connect(f"/ws/{table}", headers={"Origin": long}).__enter__()
        sentence = f"requests from {long[:80]!r} are refused: only this site's own pages may"
        assert len(sentence) > 120 and cut.value.reason == sentence[:120]
        with server.client.websocket_connect(f"/ws/{table}", headers={"Origin": OWN}) as ws:
            assert ws.receive_json()["type"] == "state"


def test_behind_a_proxy_the_public_url_is_the_only_origin(db_url: str) -> None:
    public = Limits(public_url="https://cards.example.org/")
    with running(db_url, limits=public) as server:
        ok = {"Origin": "https://cards.example.org"}
        assert server.client.post("/api/tables", json=BODY, headers=ok).status_code == 201
        own_host = server.client.post("/api/tables", json=BODY, headers={"Origin": OWN})
        assert own_host.status_code == 403
        table = server.create("marshmallow-test", ["human", "easy"])
        with pytest.raises(WebSocketDisconnect):
            server.client.websocket_connect(f"/ws/{table}", headers={"Origin": OWN}).__enter__()
        with server.client.websocket_connect(f"/ws/{table}", headers=ok) as ws:
            assert ws.receive_json()["type"] == "state"


def lookalikes(own: str) -> list[str]:
    """Origins that only look like ``own``: a longer host, another port, another
    scheme. An origin compared by prefix, or by host alone, lets them through."""
    scheme, host = own.split("://")
    other = "http" if scheme == "https" else "https"
    return [f"{own}.evil.example", f"{own}:8080", f"{other}://{host}"]


@pytest.mark.parametrize(
    ("public_url", "origin"),
    [(None, o) for o in lookalikes(OWN)]
    + [("https://cards.example.org/", o) for o in lookalikes("https://cards.example.org")],
)
def test_an_origin_that_extends_or_changes_ours_is_another_site(
    db_url: str, public_url: str | None, origin: str
) -> None:
    with running(db_url, limits=Limits(public_url=public_url)) as server:
        response = server.client.post("/api/tables", json=BODY, headers={"Origin": origin})
        assert response.status_code == 403, response.text
        assert f"{origin!r} are refused" in response.json()["error"]
        assert server.hub.tables == {}
        table = server.create("marshmallow-test", ["human", "easy"])  # a program: no Origin
        join = {"seat": 0, "name": "Eve"}
        response = server.client.post(
            f"/api/tables/{table}/join", json=join, headers={"Origin": origin}
        )
        assert response.status_code == 403, response.text
        assert not server.table(table).seats[0].taken
        # Accepted by mistake, the socket is closed again and the test fails.
        handshake = server.client.websocket_connect(f"/ws/{table}", headers={"Origin": origin})
        with pytest.raises(WebSocketDisconnect) as refused, handshake:
            pass
        assert refused.value.code == 1008


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://Cards.Example.org:443/lobby", "https://cards.example.org"),
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://[::1]:80/", "http://[::1]"),
    ],
)
def test_origins_compare_in_one_spelling(url: str, origin: str) -> None:
    assert origin_of(url) == origin


@pytest.mark.parametrize("size", [100_000, 1_000_000])
def test_a_request_with_oversized_headers_is_refused(db_url: str, size: int) -> None:
    pad = {"X-Pad": "a" * size}
    with running(db_url) as server:
        response = server.client.post("/api/tables", json=BODY, headers=pad)
        assert response.status_code == 431, response.text
        assert f"the limit is {MAX_HEADERS}" in response.json()["error"]
        assert server.hub.tables == {}
        table = server.create("marshmallow-test", ["human", "human"])
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            server.client.websocket_connect(f"/ws/{table}", headers=pad) as ws,
        ):
            ws.receive_json()
        assert closed.value.code == 1008
        ordinary = {"X-Pad": "a" * (MAX_HEADERS // 2)}  # big, but within the limit
        assert server.client.get("/api/games", headers=ordinary).status_code == 200


# --- the guard's own functions, on ASGI scopes as a server builds them ---------


def scope(kind: str = "http", scheme: str = "http", **headers: str) -> dict[str, Any]:
    """An ASGI scope: ``headers`` by name (``content_type`` for Content-Type)."""
    raw = [(k.replace("_", "-").encode(), v.encode("latin-1")) for k, v in headers.items()]
    return {"type": kind, "scheme": scheme, "method": "POST", "headers": raw}


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("ws://cards.example:80/ws/x", "ws://cards.example"),
        ("wss://cards.example:443", "wss://cards.example"),
        ("ws://cards.example:81", "ws://cards.example:81"),
        ("wss://cards.example:444", "wss://cards.example:444"),
        ("http://", "http://"),  # no host: nothing is made up
    ],
)
def test_websocket_origins_leave_out_their_default_ports(url: str, origin: str) -> None:
    assert origin_of(url) == origin


@pytest.mark.parametrize(
    ("scheme", "host", "own"),
    [
        ("ws", "Cards.Example", "http://cards.example"),  # a handshake: the page's scheme
        ("wss", "cards.example:443", "https://cards.example"),
        ("https", "cards.example:8443", "https://cards.example:8443"),
        ("http", None, "http://"),  # no Host: no origin matches it
    ],
)
def test_the_servers_own_origin_is_the_pages_scheme_and_host(
    scheme: str, host: str | None, own: str
) -> None:
    headers = {"host": host} if host is not None else {}
    assert own_origin(scope("websocket", scheme, **headers), None) == own
    assert own_origin(scope(scheme=scheme), "https://Public.Example/x") == "https://public.example"


def test_headers_of_exactly_the_limit_pass_and_one_byte_more_is_refused() -> None:
    base = scope(content_type="application/json")
    used = sum(len(k) + len(v) for k, v in base["headers"])
    pad = len("x-pad")
    at_limit = scope(content_type="application/json", x_pad="a" * (MAX_HEADERS - used - pad))
    assert refusal(at_limit, None) is None
    over = scope(content_type="application/json", x_pad="a" * (MAX_HEADERS - used - pad + 1))
    assert refusal(over, None) == (
        431,
        f"the request's headers come to {MAX_HEADERS + 1} bytes; the limit is {MAX_HEADERS}",
    )


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json;charset=utf-8", "Application/JSON; charset=UTF-8"],
)
def test_json_with_or_without_parameters_is_json(content_type: str) -> None:
    assert refusal(scope(content_type=content_type), None) is None


@pytest.mark.parametrize(
    ("headers", "says"),
    [({}, "none"), ({"content_type": "text/plain"}, "'text/plain'")],
)
def test_a_post_that_is_not_json_is_told_what_it_said(headers: dict[str, str], says: str) -> None:
    assert refusal(scope(**headers), None) == (
        415,
        f"send JSON, with Content-Type: application/json (this request says {says})",
    )


def test_a_long_foreign_origin_is_quoted_to_80_characters() -> None:
    origin = "http://" + "e" * 200 + ".example"
    refused = refusal(scope(content_type="application/json", origin=origin), None)
    assert refused == (
        403,
        f"requests from {origin[:80]!r} are refused: only this site's own pages may",
    )


def test_a_refusal_is_json_with_its_length(db_url: str) -> None:
    with running(db_url) as server:
        response = server.client.post("/api/tables", content="{}", headers={"Origin": EVIL})
        assert response.status_code == 403
        assert response.headers["content-type"] == "application/json"
        assert int(response.headers["content-length"]) == len(response.content)
        assert response.json()["error"].startswith("requests from 'http://evil.example'")
