"""E-mail notices of turn-based play (issue 30, item 3; docs/server.md,
"Notifications"), through a real SMTP server on 127.0.0.1 (aiosmtpd) and the
server's clock driven by the test: an address is verified by the link in the
mail that arrives; a person's notices come in a digest at most once an hour;
every mail has a one-click unsubscribe that needs no sign-in (RFC 8058); an
unverified address gets nothing; deleting the account deletes its address and
notices; a deadline's notice is one row and one mail across two processes;
and no mail ever names a card."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import func, select

from cardtable.server.accounts.mailer import Mailer
from cardtable.server.accounts.notices import Notices
from cardtable.server.db.schema import notice_addresses, notices
from cardtable.server.tables.table import Table
from tests.server.accounts.smtp_helpers import Inbox, link_in, smtp_server, text_of
from tests.server.accounts_helpers import AccountServer, account_server
from tests.server.helpers import UNLIMITED
from tests.server.live.test_lobby_lifecycle import Clock, sweep
from tests.server.live.test_turn_based import mover, play_some
from tests.server.test_secrecy import visible_cards

pytestmark = pytest.mark.timeout(300, method="thread")

MT = "marshmallow-test"
HOUR = 3600.0
FROM = "cards@example.org"


@contextmanager
def mail_server(db_url: str, clock: Clock, inbox: Inbox) -> Iterator[AccountServer]:
    limits = dataclasses.replace(UNLIMITED, clock=clock)
    with account_server(db_url, limits=limits, smtp_url=inbox.url, mail_from=FROM) as server:
        yield server


def notices_of(server: AccountServer) -> Notices:
    found: Notices = server.client.app.state.notices  # type: ignore[attr-defined]
    return found


def send_due(server: AccountServer) -> int:
    sent: int = server.client.portal.call(notices_of(server).send_due)  # type: ignore[union-attr]
    return sent


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def give_address(browser: AccountServer, inbox: Inbox, name: str, verify: bool = True) -> str:
    """``name``'s address set on the account page's API and, with ``verify``,
    verified by opening the link of the mail that arrives."""
    to = address(name)
    before = len(inbox.to(to))
    browser.post("/api/me/notices", {"email": to, "lang": "en"})
    mails = inbox.to(to)
    assert len(mails) == before + 1  # the verification goes out at once
    if verify:
        page = browser.client.get(link_in(mails[-1], "/verify-email/"))
        assert page.status_code == 200, page.text
        assert to in page.text
    return to


def two_accounts(server: AccountServer, inbox: Inbox) -> tuple[AccountServer, AccountServer]:
    ann, bea = server, server.browser()
    ann.sign_up("Ann")
    bea.sign_up("Bea")
    give_address(ann, inbox, "Ann")
    give_address(bea, inbox, "Bea")
    return ann, bea


def turn_based_game(ann: AccountServer, bea: AccountServer) -> tuple[str, list[str]]:
    table = ann.create(MT, ["human", "human"], move_hours=24)
    return table, [ann.join(table, 0, "Ann"), bea.join(table, 1, "Bea")]


def count(server: AccountServer, table: Any, **where: Any) -> int:
    async def run() -> int:
        query = select(func.count()).select_from(table)
        for column, value in where.items():
            query = query.where(table.c[column] == value)
        async with notices_of(server).engine.connect() as conn:
            return int(await conn.scalar(query) or 0)

    found: int = server.client.portal.call(run)  # type: ignore[union-attr]
    return found


def test_an_address_is_verified_by_the_link_in_the_mail_that_arrives(db_url: str) -> None:
    with smtp_server() as inbox, mail_server(db_url, Clock(), inbox) as ann:
        ann.sign_up("Ann")
        fresh = ann.client.get("/api/me/notices").json()
        assert fresh == {
            "available": True,
            "email": None,
            "verified": False,
            "push": False,
            "your_turn": True,
            "deadline_soon": True,
            "finished": True,
            "invite": True,
            "push_your_turn": True,
            "push_deadline_soon": True,
            "push_finished": True,
            "push_invite": True,
        }
        refused = ann.post("/api/me/notices", {"email": "ann at example"}, status=400)
        assert "request.email" in refused["error"] and "not an e-mail address" in refused["error"]
        wrong_kind = ann.post("/api/me/notices", {"your_turn": "yes"}, status=400)
        assert "request.your_turn" in wrong_kind["error"]
        set_ = ann.post("/api/me/notices", {"email": "ann@example.org", "lang": "de"})
        assert (set_["email"], set_["verified"]) == ("ann@example.org", False)
        (mail,) = inbox.to("ann@example.org")
        assert mail["From"] == FROM and mail["Subject"] == "Bestätige deine Adresse für cardtable"
        path = link_in(mail, "/verify-email/")
        assert ann.browser().client.get(path).status_code == 200  # no sign-in needed
        assert ann.client.get("/api/me/notices").json()["verified"] is True
        assert ann.client.get(path).status_code == 404  # a link verifies once
        guest = ann.browser()
        assert guest.client.get("/api/me/notices").status_code == 401


def test_your_turn_comes_in_a_digest_and_the_next_waits_for_the_hour(db_url: str) -> None:
    clock = Clock()
    with smtp_server() as inbox, mail_server(db_url, clock, inbox) as server:
        ann, bea = two_accounts(server, inbox)
        table, tokens = turn_based_game(ann, bea)
        names = ["Ann", "Bea"]
        seat, state = mover(server, table, tokens)
        first = address(names[seat])
        assert send_due(server) == 1
        digest = inbox.to(first)[-1]
        assert "It is your turn in Marshmallow Test against " + names[1 - seat] in text_of(digest)
        assert f"/t/{table}" in text_of(digest)
        assert len(inbox.to(address(names[1 - seat]))) == 1  # only the verification
        while True:  # play on until it is the same person's turn again
            clock.now += 1  # a person takes a moment to move (a turn is known by when it began)
            play_some(server, table, tokens, 1, seed=state["seq"])
            now, state = mover(server, table, tokens)
            if now == seat:
                break
        clock.now += 60
        send_due(server)
        assert len(inbox.to(first)) == 2  # within the hour: the new turn waits
        clock.now += HOUR
        send_due(server)
        assert len(inbox.to(first)) == 3
        assert "It is your turn" in text_of(inbox.to(first)[-1])


def test_the_unsubscribe_link_needs_no_sign_in_and_takes_a_one_click_post(
    db_url: str,
) -> None:
    with smtp_server() as inbox, mail_server(db_url, Clock(), inbox) as ann:
        ann.sign_up("Ann")
        give_address(ann, inbox, "Ann")
        (mail,) = inbox.to("ann@example.org")
        header = str(mail["List-Unsubscribe"]).strip()  # folded: it is long
        assert re.fullmatch(r"<https://testserver/unsubscribe/[\w-]+>", header), header
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"  # RFC 8058
        path = header[1:-1].removeprefix("https://testserver")
        assert link_in(mail, "/unsubscribe/") == path  # the body carries it too
        stranger = ann.browser()
        page = stranger.client.get(path)
        assert page.status_code == 200 and "Stop all e-mails" in page.text
        assert (
            ann.client.get("/api/me/notices").json()["your_turn"] is True
        )  # a GET changes nothing
        # What a mail program sends (RFC 8058 §3.2): a form post, no cookie, no Origin.
        clicked = stranger.client.post(
            "/api/" + path.lstrip("/"),
            content="List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert clicked.status_code == 200, clicked.text
        after = ann.client.get("/api/me/notices").json()
        assert not any(after[k] for k in ("your_turn", "deadline_soon", "finished", "invite"))
        assert after["push_your_turn"]  # a mail's link stops mail, not the browser's notices
        assert stranger.client.post("/api/unsubscribe/nonsense", json={}).status_code == 404


def test_an_unverified_address_gets_nothing(db_url: str) -> None:
    with smtp_server() as inbox, mail_server(db_url, Clock(), inbox) as ann:
        ann.sign_up("Ann")
        give_address(ann, inbox, "Ann", verify=False)
        table = ann.create(MT, ["human", "easy"], move_hours=24)
        token = ann.join(table, 0, "Ann")
        with ann.connect(table, token) as conn:
            conn.until_state(lambda m: m["to_move"] == 0)  # her turn
        assert send_due(ann) == 0
        assert count(ann, notices) == 0
        assert len(inbox.to("ann@example.org")) == 1  # the verification only


def test_deleting_the_account_deletes_its_address_and_notices(db_url: str) -> None:
    with smtp_server() as inbox, mail_server(db_url, Clock(), inbox) as ann:
        ann.sign_up("Ann")
        give_address(ann, inbox, "Ann")
        table = ann.create(MT, ["human", "easy"], move_hours=24)
        token = ann.join(table, 0, "Ann")
        with ann.connect(table, token) as conn:
            conn.until_state(lambda m: m["to_move"] == 0)
        ann.client.portal.call(notices_of(ann).settle)  # type: ignore[union-attr]
        assert count(ann, notices) == 1 and count(ann, notice_addresses) == 1
        ann.post("/api/account/delete", {"password": "correct horse"})
        assert count(ann, notices) == 0 and count(ann, notice_addresses) == 0


def test_two_processes_make_one_deadline_notice_and_send_one_digest(any_db: str) -> None:
    """Deadlines fire exactly once across processes (issue 30): the second
    process here is a second :class:`Notices` on the same database (SQLite
    and PostgreSQL)."""
    clock = Clock()
    with smtp_server() as inbox, mail_server(any_db, clock, inbox) as ann:
        ann.sign_up("Ann")
        to = give_address(ann, inbox, "Ann")
        table = ann.create(MT, ["human", "easy"], move_hours=12)
        token = ann.join(table, 0, "Ann")
        with ann.connect(table, token) as conn:
            conn.until_state(lambda m: m["to_move"] == 0)
        first = notices_of(ann)
        second = Notices(first.engine, first.secret, Mailer(inbox.url, FROM), clock)
        live: Table = ann.client.app.state.hub.tables[table]  # type: ignore[attr-defined]
        clock.now += 11 * HOUR  # an hour left
        sweep(ann)  # the first process's sweep enqueues it
        ann.client.portal.call(first.settle)  # type: ignore[union-attr]
        assert count(ann, notices, kind="deadline_soon") == 1

        async def both() -> int:
            second.watch(live)  # the other process sees the same turn
            await asyncio.gather(first.settle(), second.settle())
            sent = await asyncio.gather(first.send_due(), second.send_due())
            return sum(sent)

        assert ann.client.portal.call(both) == 1  # type: ignore[union-attr]
        assert count(ann, notices, kind="deadline_soon") == 1
        digest = inbox.to(to)[-1]
        assert "60 min left for your move in Marshmallow Test" in text_of(digest)
        assert "It is your turn" not in text_of(digest)  # one line per turn: the hour left


def play_to_the_end(
    server: AccountServer, table: str, tokens: list[str], after_each_move: Callable[[], None]
) -> set[str]:
    """Two people play ``table`` to its end with random legal moves (each
    reading its state from a socket of its own); every card any hand held."""
    rng = random.Random(30)
    held: set[str] = set()
    while True:
        states = []
        for token in tokens:
            with server.connect(table, token) as conn:
                assert conn.state is not None
                states.append(conn.state)
        for state in states:
            held |= visible_cards(state["view"])
        if states[0]["finished"]:
            return held
        seat = states[0]["to_move"]
        with server.connect(table, tokens[seat]) as conn:
            conn.move(rng.choice(states[seat]["legal"]))
            conn.until(lambda m: m["type"] == "ack")
        after_each_move()


def test_no_mail_names_a_card_of_any_hand(db_url: str) -> None:
    """MT-9: a hidden card leaves a game only through view(seat); a mail
    carries names, games, time left and links, never a card. Two people play
    a whole turn-based game, a digest going out after each move (the clock
    moves an hour each time); no card that any hand held appears in a mail."""
    clock = Clock()
    with smtp_server() as inbox, mail_server(db_url, clock, inbox) as server:
        ann, bea = two_accounts(server, inbox)
        table, tokens = turn_based_game(ann, bea)
        digests = 0

        def an_hour_later() -> None:
            nonlocal digests
            clock.now += HOUR
            digests += send_due(server)

        held = play_to_the_end(server, table, tokens, an_hour_later)
        digests += send_due(server)
        finished = [m for m in inbox.mails if "is over" in text_of(m)]
        assert len(finished) == 2  # each of them is told the game ended
        assert held and digests >= 4
        for mail in inbox.mails:
            words = re.sub(r"https?://\S+", "", text_of(mail) + str(mail["Subject"]))
            named = {card for card in held if re.search(rf"\b{card}\b", words)}
            assert not named, (named, words)


def test_without_smtp_no_address_is_taken_and_nothing_is_queued(db_url: str) -> None:
    limits = dataclasses.replace(UNLIMITED, clock=Clock())
    with account_server(db_url, limits=limits) as ann:
        ann.sign_up("Ann")
        assert ann.client.get("/api/me/notices").json()["available"] is False
        refused = ann.post("/api/me/notices", {"email": "ann@example.org"}, status=409)
        assert "--smtp" in refused["error"]
        table = ann.create(MT, ["human", "easy"], move_hours=24)
        token = ann.join(table, 0, "Ann")
        with ann.connect(table, token) as conn:
            conn.until_state(lambda m: m["to_move"] == 0)
        assert count(ann, notices) == 0 and count(ann, notice_addresses) == 0


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://mail.example.org", "smtp://HOST:PORT"),
        ("smtp://:25", "names no host"),
        ("smtp://mail.example.org:99999", "port must be a number"),
        ("smtp://mail.example.org?tls=1", "unknown parameter 'tls'"),
        ("smtps://mail.example.org?starttls=1", "TLS already"),
    ],
)
def test_a_bad_smtp_url_is_refused_saying_why(url: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        Mailer(url, FROM)


def test_an_smtp_url_says_where_and_how() -> None:
    server = Mailer("smtp://ann%40x:p%2Fw@mail.example.org:587?starttls=1", FROM).server
    assert (server.host, server.port, server.username, server.password) == (
        "mail.example.org",
        587,
        "ann@x",
        "p/w",
    )
    assert server.starttls and not server.implicit_tls
    assert Mailer("smtps://mail.example.org", FROM).server.port == 465


def test_a_friends_invitation_comes_in_the_next_digest(db_url: str) -> None:
    with smtp_server() as inbox, mail_server(db_url, Clock(), inbox) as server:
        ann, _ = two_accounts(server, inbox)
        table = ann.create(MT, ["human", "human"], move_hours=24)
        ann.join(table, 0, "Ann")
        ann.post("/api/invites", {"name": "Bea", "table": table}, status=201)
        ann.post("/api/invites", {"name": "Bea", "table": table}, status=201)  # again: one notice
        assert send_due(server) == 1
        (digest,) = inbox.to("bea@example.org")[1:]
        assert text_of(digest).count("Ann invites you to a game of Marshmallow Test.") == 1
        assert f"/t/{table}" in text_of(digest)
