"""Table chat (issue 17, item 7): players' and spectators' channels, what is
refused (with a sentence, nothing stored), the rate limit, history on
reconnecting, the chat kept across a restart and served with the replay; on
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.settings import Limits
from cardtable.server.tables.chat import MAX_CHARS, PHRASES
from tests.server.accounts_helpers import account_server
from tests.server.helpers import UNLIMITED, Conn, Server, play_out, running
from tests.server.live.test_lobby_lifecycle import Clock

pytestmark = pytest.mark.timeout(300, method="thread")


def chat(conn: Conn, **line: Any) -> dict[str, Any]:
    """Send a chat message; the next new chat line or error this client gets."""
    conn.send({"type": "chat", **line})
    return conn.until(lambda m: m["type"] == "error" or (m["type"] == "chat" and not m["history"]))


def two_people(server: Server) -> tuple[str, str, str]:
    table = server.create("marshmallow-test", ["human", "human"])
    return table, server.join(table, 0, "Ann"), server.join(table, 1, "Bob")


@contextmanager
def at_the_table(server: Server) -> Iterator[tuple[str, Conn, Conn, Conn]]:
    """A table of two people (Ann and Bob), both connected, and a spectator."""
    table, ann_token, bob_token = two_people(server)
    with (
        server.connect(table, ann_token) as ann,
        server.connect(table, bob_token) as bob,
        server.connect(table) as rail,
    ):
        yield table, ann, bob, rail


def stored(server: Server, table: str) -> list[dict[str, Any]]:
    return [line.to_json() for line in server.chat(table)]


def test_players_chat_reaches_players_and_spectators_spectators_chat_only_spectators(
    any_db: str,
) -> None:
    with running(any_db) as server:
        with at_the_table(server) as (table, ann, bob, rail):
            said = chat(ann, text="  Hello <b>Bob</b>  ")
            assert said["type"] == "chat" and not said["history"]
            (line,) = said["lines"]
            assert line["text"] == "Hello <b>Bob</b>"  # trimmed, never rewritten as HTML
            assert (line["channel"], line["seat"], line["name"], line["move"]) == (
                "players",
                0,
                "Ann",
                0,
            )
            assert bob.until(lambda m: m["type"] == "chat")["lines"] == [line]
            assert rail.until(lambda m: m["type"] == "chat")["lines"] == [line]
            from_rail = chat(rail, phrase="gg")["lines"][0]
            assert (from_rail["channel"], from_rail["seat"], from_rail["name"]) == (
                "spectators",
                None,
                None,
            )
            assert (from_rail["text"], from_rail["phrase"]) == (None, "gg")
            ann.quiet()  # the players were not sent the spectators' line
            bob.quiet()
        assert [(s["n"], s["channel"]) for s in stored(server, table)] == [
            (0, "players"),
            (1, "spectators"),
        ]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ({"text": ""}, "message.text is empty"),
        ({"text": " \u3000 "}, "message.text is empty"),
        ({"text": "\u200b\u200d\u200b"}, "message.text is empty"),
        ({"text": "x" * (MAX_CHARS + 1)}, f"at most {MAX_CHARS}"),
        ({"text": "two\nlines"}, "control character (U+000A) at position 4"),
        ({"text": "bell\u0007"}, "U+0007"),
        ({"text": "evil\u202ereversed"}, "U+202E"),
        ({"phrase": "free beer"}, "is no quick phrase; choose one of gg"),
        ({}, "send either text or phrase"),
        ({"text": "hi", "phrase": "gg"}, "send either text or phrase"),
        ({"text": 5}, "message.text must be the line's text"),
        ({"text": "hi", "colour": "red"}, "colour"),
    ],
)
def test_a_bad_line_gets_a_sentence_and_nothing_is_stored_or_sent(
    db_url: str, line: dict[str, Any], words: str
) -> None:
    with running(db_url) as server:
        table, ann_token, bob_token = two_people(server)
        with server.connect(table, ann_token) as ann, server.connect(table, bob_token) as bob:
            answer = chat(ann, **line)
            assert answer["type"] == "error", answer
            assert words in answer["message"], answer["message"]
            # A refused line says it answers the chat; a malformed message is a plain error.
            assert answer.get("about") == (
                "chat" if "colour" not in line and line.get("text") != 5 else None
            )
            assert "Traceback" not in answer["message"]
            bob.quiet()
        assert stored(server, table) == []


def test_a_line_of_the_most_characters_after_nfc_passes() -> None:
    # "e" + a combining acute is one character once composed (NFC).
    from cardtable.server.tables.chat import checked_text

    assert checked_text("e\u0301" * MAX_CHARS) == "\u00e9" * MAX_CHARS
    assert checked_text("family \U0001f468\u200d\U0001f469\u200d\U0001f467")  # joiners stay


def test_every_quick_phrase_is_accepted_and_stored_by_its_key(db_url: str) -> None:
    with running(db_url) as server:
        table, ann_token, _ = two_people(server)
        with server.connect(table, ann_token) as ann:
            for phrase in PHRASES:
                assert chat(ann, phrase=phrase)["lines"][0]["phrase"] == phrase
        assert [s["phrase"] for s in stored(server, table)] == list(PHRASES)


def test_chat_past_the_rate_is_refused_per_table_and_speaker(db_url: str) -> None:
    clock = Clock()
    limits = Limits(**{**UNLIMITED.__dict__, "chat_per_minute": 3, "clock": clock})
    with running(db_url, limits=limits) as server:
        table, ann_token, bob_token = two_people(server)
        with server.connect(table, ann_token) as ann, server.connect(table, bob_token) as bob:
            for i in range(3):
                assert chat(ann, text=f"line {i}")["type"] == "chat"
            refused = chat(ann, text="one too many")
            assert refused["type"] == "error"
            assert refused["message"] == (
                "you sent 3 chat lines at this table in the last minute, this server's limit;"
                " try again in 60 s"
            )
            assert chat(bob, phrase="wp")["type"] == "chat"  # another speaker still talks
            assert ann.until(lambda m: m["type"] == "chat")["lines"][0]["seat"] == 1
            clock.now += 61
            assert chat(ann, text="later")["type"] == "chat"
        assert [s["text"] or s["phrase"] for s in stored(server, table)] == [
            "line 0",
            "line 1",
            "line 2",
            "wp",
            "later",
        ]


def test_chat_from_one_address_is_limited_at_all_tables_together(db_url: str) -> None:
    # Each table's own count would let one client spam many tables at once.
    clock = Clock()
    limits = Limits(**{**UNLIMITED.__dict__, "chat_per_address_per_minute": 3, "clock": clock})
    with running(db_url, limits=limits) as server, ExitStack() as stack:
        tables = [two_people(server) for _ in range(3)]
        conns = [stack.enter_context(server.connect(table, ann)) for table, ann, _ in tables]
        for i, conn in enumerate(conns):
            assert chat(conn, text=f"line {i}")["type"] == "chat"
        refused = chat(conns[1], text="one too many")
        assert refused["type"] == "error"
        assert refused["message"] == (
            "your address sent 3 chat lines in the last minute, at all tables together,"
            " this server's limit; try again in 60 s"
        )
        clock.now += 61
        assert chat(conns[1], text="later")["type"] == "chat"
        assert [s["text"] for s in stored(server, tables[1][0])] == ["line 1", "later"]


def test_history_on_reconnecting_and_after_a_restart_by_channel(any_db: str) -> None:
    with running(any_db) as server:
        table, ann_token, _ = two_people(server)
        with server.connect(table, ann_token) as ann, server.connect(table) as rail:
            chat(ann, text="first")
            rail.until(lambda m: m["type"] == "chat")
            chat(rail, text="from the rail")
            chat(ann, phrase="thinking")
    for restart in range(2):  # the server restarted, twice: lines said between are kept
        with running(any_db) as server, server.connect(table, ann_token) as ann:
            history = ann.read()
            assert history["type"] == "chat" and history["history"]
            assert [(line["n"], line["text"] or line["phrase"]) for line in history["lines"]] == [
                (0, "first"),
                (2, "thinking"),
                *([(3, "again")] if restart else []),
            ]
            with server.connect(table) as rail:
                seen = rail.read()
                assert [line["n"] for line in seen["lines"]] == [0, 1, 2, 3][: 3 + restart]
            # New lines continue the numbering.
            assert chat(ann, text="again")["lines"][0]["n"] == 3 + restart


def test_a_table_without_chat_sends_no_history(db_url: str) -> None:
    with running(db_url) as server:
        table, ann_token, _ = two_people(server)
        with server.connect(table, ann_token) as ann:
            ann.quiet()


def test_the_replay_shows_the_chat_said_up_to_its_step(any_db: str) -> None:
    rng = random.Random(3)
    with running(any_db) as server:
        with at_the_table(server) as (table, ann, bob, rail):
            chat(ann, phrase="wp")
            chat(rail, text="go Bob")
            final = play_out(rail, {0: ann, 1: bob}, rng)
            chat(bob, phrase="gg")
        steps = final["seq"]
        start = server.client.get(f"/api/tables/{table}/replay?step=0").json()
        assert [(c["phrase"] or c["text"], c["move"]) for c in start["chat"]] == [
            ("wp", 0),
            ("go Bob", 0),
        ]
        end = server.client.get(f"/api/tables/{table}/replay?step={steps}&seat=all").json()
        assert [c["phrase"] or c["text"] for c in end["chat"]] == ["wp", "go Bob", "gg"]
        assert end["chat"][-1]["move"] == steps
        if steps > 1:
            middle = server.client.get(f"/api/tables/{table}/replay?step={steps - 1}").json()
            assert len(middle["chat"]) == 2


def test_a_signed_in_spectator_chats_under_the_account_name(db_url: str) -> None:
    with account_server(db_url) as server:
        server.sign_up("Watcher")
        table = server.create("marshmallow-test", ["easy", "easy"], bot_delay_ms=10_000)
        cookie = {"cookie": f"ct_session={server.client.cookies['ct_session']}"}
        # The test client sends its Secure cookie over https only: the socket gets it by hand.
        with server.client.websocket_connect(f"/ws/{table}", headers=cookie) as ws:
            rail = Conn(ws, None)
            assert rail.read()["type"] == "state"
            assert chat(rail, phrase="wp")["lines"][0]["name"] == "Watcher"
        with server.connect(table) as guest:  # no cookie: a guest spectator
            assert chat(guest, phrase="wp")["lines"][0]["name"] is None


def test_a_deleted_accounts_lines_say_deleted_player(any_db: str) -> None:
    with account_server(any_db) as server:
        server.sign_up("Zoe")
        table = server.create("marshmallow-test", ["human", "easy"], bot_delay_ms=10_000)
        token = server.join(table, 0)
        cookie = {"cookie": f"ct_session={server.client.cookies['ct_session']}"}
        with server.connect(table, token) as zoe:
            assert chat(zoe, text="hi all")["lines"][0]["name"] == "Zoe"
        with server.client.websocket_connect(f"/ws/{table}", headers=cookie) as ws:
            rail = Conn(ws, None)
            rail.until(lambda m: m["type"] == "chat")  # the history
            assert chat(rail, phrase="gg")["lines"][0]["name"] == "Zoe"
        server.post("/api/account/delete", {"password": "correct horse"})
        with server.connect(table) as guest:
            history = guest.read()
            assert [line["name"] for line in history["lines"]] == ["deleted player"] * 2
        assert [line.name for line in server.chat(table)] == ["deleted player"] * 2


def test_the_page_offers_the_servers_quick_phrases_in_every_language() -> None:
    static = Path(__file__).resolve().parents[3] / "cardtable" / "server" / "web" / "static"
    offered = re.search(r"export const PHRASES = \[([^\]]*)\]", (static / "chat.js").read_text())
    assert offered is not None
    assert re.findall(r'"(\w+)"', offered.group(1)) == list(PHRASES)
    for lang in ("en", "de", "fr"):
        catalog = json.loads((static / "i18n" / f"{lang}.json").read_text())
        assert all(catalog.get(f"chat.phrase.{key}") for key in PHRASES), lang


def test_lines_stored_out_of_order_keep_their_numbers_order_in_the_history(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's line takes its number first but is stored after Bob's (a slow
    write): a socket that connects later still reads them in their numbers'
    order."""
    with running(db_url) as server, at_the_table(server) as (table, ann, bob, rail):
        storage = server.hub.storage
        store = storage.add_chat

        async def slow_first(table_id: str, line: Any) -> None:
            if line.n == 0:
                await asyncio.sleep(0.5)  # Bob's line is stored meanwhile
            await store(table_id, line)

        monkeypatch.setattr(storage, "add_chat", slow_first)
        ann.send({"type": "chat", "text": "first"})
        time.sleep(0.1)  # Ann's line has its number, and waits
        bob.send({"type": "chat", "text": "second"})
        for _ in range(2):
            rail.until(lambda m: m["type"] == "chat" and not m["history"])
        with server.connect(table) as late:
            history = late.until(lambda m: m["type"] == "chat" and m["history"])["lines"]
        assert [(line["n"], line["text"]) for line in history] == [(0, "first"), (1, "second")]
