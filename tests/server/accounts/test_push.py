"""Web Push notices of turn-based play (issue 30, item 3: "Web Push is tested
up to the signed request it would send"; docs/server.md, "Notifications").

The test plays the browser: it makes a P-256 key pair and an auth secret as
``PushManager.subscribe`` would, registers an https endpoint, and takes the
place of the push service by giving the server's :class:`Pusher` its own
``post``. Each request it records must carry a VAPID token that verifies
with the server's public key and names the endpoint's origin (RFC 8292), and
an ``aes128gcm`` body (RFC 8291) that the test's private key decrypts to the
notice's JSON: the table's words and link, never a card."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import random
import re
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid.jwt import decode as jwt_decode
from sqlalchemy import delete, update

from cardtable.core.errors import CardtableError
from cardtable.core.registry import manifest
from cardtable.server.accounts.notices import Notices
from cardtable.server.accounts.push import KEY_FILE, Pusher, load_or_create_vapid
from cardtable.server.db.schema import notice_addresses, notices, push_subscriptions
from cardtable.server.tables.table import Table
from tests.server.accounts.smtp_helpers import smtp_server, text_of
from tests.server.accounts.test_notices import (
    FROM,
    HOUR,
    MT,
    count,
    give_address,
    mail_server,
    notices_of,
    play_to_the_end,
)
from tests.server.accounts_helpers import AccountServer, account_server
from tests.server.helpers import UNLIMITED
from tests.server.live.test_lobby_lifecycle import Clock, sweep

pytestmark = pytest.mark.timeout(300, method="thread")

ORIGIN = "https://push.example.net"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclasses.dataclass
class Sent:
    url: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """Stands for the push services: records each request, answers ``status``."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.status = 201

    async def post(self, url: str, headers: Mapping[str, str], body: bytes) -> int:
        self.sent.append(Sent(url, dict(headers), body))
        return self.status


class Browser:
    """A browser's side of a subscription: its own key pair and auth secret."""

    def __init__(self, name: str, rng: random.Random) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = rng.randbytes(16)
        self.endpoint = f"{ORIGIN}/wpush/v2/{name}-{rng.randrange(10**9)}"

    def subscription(self, lang: str = "en") -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives, and the page's language."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64url(point), "auth": b64url(self.auth)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys, "lang": lang}

    def read(self, sent: Sent) -> dict[str, Any]:
        """The notice in ``sent``, decrypted as the browser would."""
        plain = http_ece.decrypt(
            sent.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        notice: dict[str, Any] = json.loads(plain)
        return notice


@contextmanager
def push_server(db_url: str, clock: Clock) -> Iterator[tuple[AccountServer, PushService]]:
    limits = dataclasses.replace(UNLIMITED, clock=clock)
    with account_server(db_url, limits=limits) as server:
        service = PushService()
        pusher_of(server).post = service.post
        yield server, service


def pusher_of(server: AccountServer) -> Pusher:
    pusher = notices_of(server).pusher
    assert pusher is not None
    return pusher


def settle(server: AccountServer) -> None:
    server.client.portal.call(notices_of(server).settle)  # type: ignore[union-attr]


def my_turn_at_a_table_with_a_bot(server: AccountServer, name: str) -> str:
    """A turn-based table of ``name`` against a bot, at ``name``'s turn."""
    table = server.create(MT, ["human", "easy"], move_hours=24)
    token = server.join(table, 0, name)
    with server.connect(table, token) as conn:
        conn.until_state(lambda m: m["to_move"] == 0)
    settle(server)
    return table


def test_your_turn_is_pushed_as_a_signed_encrypted_request(db_url: str) -> None:
    clock = Clock()
    with push_server(db_url, clock) as (ann, service):
        ann.sign_up("Ann")
        key = ann.client.get("/api/push/key").json()["key"]
        assert len(unb64url(key)) == 65 and unb64url(key)[0] == 4  # an uncompressed P-256 point
        browser = Browser("ann", random.Random(30))
        answer = ann.post("/api/me/push", browser.subscription())
        assert answer["push"] is True
        table = my_turn_at_a_table_with_a_bot(ann, "Ann")

        (sent,) = service.sent
        assert sent.url == browser.endpoint
        assert sent.headers["Content-Encoding"] == "aes128gcm"
        assert int(sent.headers["TTL"]) > 0
        found = re.fullmatch(r"vapid t=([\w.-]+),k=([\w-]+)", sent.headers["Authorization"])
        assert found is not None, sent.headers["Authorization"]
        token, signer = found.groups()
        assert signer == key  # signed with the key the browser subscribed with
        claims = jwt_decode(token, key)  # raises unless the signature verifies
        assert claims["aud"] == ORIGIN  # the endpoint's origin
        assert claims["sub"] == "https://testserver"  # no --mail-from: the site
        assert claims["exp"] > clock.now
        assert browser.read(sent) == {
            "title": "Your turn",
            "body": "It is your turn in Marshmallow Test against easy.",
            "url": f"https://testserver/t/{table}",
        }


def test_a_push_is_in_the_language_the_browser_subscribed_in(db_url: str) -> None:
    with push_server(db_url, Clock()) as (ann, service):
        ann.sign_up("Ann")
        browser = Browser("ann", random.Random(31))
        ann.post("/api/me/push", browser.subscription("de"))
        my_turn_at_a_table_with_a_bot(ann, "Ann")
        (sent,) = service.sent
        notice = browser.read(sent)
        assert notice["title"] == "Du bist am Zug"
        assert notice["body"].startswith("Du bist am Zug in Marshmallow Test")


def test_a_friends_invitation_is_pushed_once(db_url: str) -> None:
    """Issue 30, item 3's fourth kind: an invitation is pushed once it is
    stored (and once only, however often it is sent)."""
    with push_server(db_url, Clock()) as (ann, service):
        bea = ann.browser()
        ann.sign_up("Ann")
        bea.sign_up("Bea")
        browser = Browser("bea", random.Random(34))
        bea.post("/api/me/push", browser.subscription())
        table = ann.create(MT, ["human", "human"], move_hours=24)
        ann.join(table, 0, "Ann")
        ann.post("/api/invites", {"name": "Bea", "table": table}, status=201)
        ann.post("/api/invites", {"name": "Bea", "table": table}, status=201)  # again: one push
        (sent,) = service.sent
        assert sent.url == browser.endpoint
        notice = browser.read(sent)
        assert notice["body"] == "Ann invites you to a game of Marshmallow Test."
        assert notice["url"] == f"https://testserver/t/{table}"


@pytest.mark.parametrize(("status", "kept"), [(410, 0), (404, 0), (503, 1)])
def test_a_subscription_the_push_service_forgot_is_deleted(
    db_url: str, status: int, kept: int
) -> None:
    """A push service answers 410 Gone (or 404) to a subscription the person
    took back: the server deletes it and pushes there no more. A service
    that fails otherwise (503) keeps it: the next notice may get through."""
    with push_server(db_url, Clock()) as (ann, service):
        ann.sign_up("Ann")
        ann.post("/api/me/push", Browser("ann", random.Random(32)).subscription())
        service.status = status
        my_turn_at_a_table_with_a_bot(ann, "Ann")
        assert len(service.sent) == 1
        assert count(ann, push_subscriptions) == kept
        assert ann.client.get("/api/me/notices").json()["push"] is bool(kept)


@pytest.mark.parametrize(
    ("change", "where", "why"),
    [
        ({"endpoint": "http://push.example.net/x"}, "request.endpoint", "https URL"),
        ({"endpoint": "https:///x"}, "request.endpoint", "https URL"),
        ({"endpoint": "https://x/" + "a" * 1100}, "request.endpoint", "at most 1024 characters"),
        ({"keys": {"p256dh": "abc", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "keys.p256dh", "65 bytes"),
        ({"keys": {"p256dh": b64url(bytes(65)), "auth": "AAAA"}}, "keys.p256dh", "04"),
        ({"keys": {"p256dh": b64url(b"\4" * 65), "auth": "AAAA"}}, "keys.auth", "16 bytes"),
        ({"keys": {"p256dh": b64url(b"\4" * 65)}}, "request.keys", "auth"),
        ({"lang": "xx"}, "request.lang", "en"),
        ({"colour": "red"}, "request", "colour"),
    ],
)
def test_a_bad_subscription_is_refused_saying_where_and_why(
    db_url: str, change: dict[str, Any], where: str, why: str
) -> None:
    with push_server(db_url, Clock()) as (ann, _):
        ann.sign_up("Ann")
        body = {**Browser("ann", random.Random(34)).subscription(), **change}
        refused = ann.post("/api/me/push", body, status=400)
        assert where in refused["error"] and why in refused["error"], refused
        assert count(ann, push_subscriptions) == 0


def test_a_guest_has_no_push_and_a_person_may_take_it_back(db_url: str) -> None:
    with push_server(db_url, Clock()) as (ann, service):
        guest = ann.browser()
        browser = Browser("ann", random.Random(35))
        assert guest.client.get("/api/push/key").status_code == 200  # the key is public
        guest.post("/api/me/push", browser.subscription(), status=401)
        gone = guest.client.request("DELETE", "/api/me/push", json={"endpoint": browser.endpoint})
        assert gone.status_code == 401
        ann.sign_up("Ann")
        ann.post("/api/me/push", browser.subscription())
        again = ann.client.request("DELETE", "/api/me/push", json={"endpoint": browser.endpoint})
        assert again.status_code == 200 and again.json()["push"] is False
        my_turn_at_a_table_with_a_bot(ann, "Ann")
        assert service.sent == []


def test_a_browser_moves_to_the_account_that_subscribes_it_last(db_url: str) -> None:
    with push_server(db_url, Clock()) as (ann, _):
        ann.sign_up("Ann")
        bea = ann.browser()
        bea.sign_up("Bea")
        browser = Browser("shared", random.Random(36))
        ann.post("/api/me/push", browser.subscription())
        bea.post("/api/me/push", browser.subscription())
        assert count(ann, push_subscriptions) == 1
        assert ann.client.get("/api/me/notices").json()["push"] is False
        assert bea.client.get("/api/me/notices").json()["push"] is True


def test_deleting_the_account_deletes_its_subscriptions(db_url: str) -> None:
    with push_server(db_url, Clock()) as (ann, _):
        ann.sign_up("Ann")
        ann.post("/api/me/push", Browser("ann", random.Random(37)).subscription())
        assert count(ann, push_subscriptions) == 1
        ann.post("/api/account/delete", {"password": "correct horse"})
        assert count(ann, push_subscriptions) == 0


def test_each_kind_is_chosen_for_e_mail_and_for_the_browser_apart(db_url: str) -> None:
    """Issue 30, item 3: per kind, "in the browser and/or by email". Ann
    hears of her turn in her browser only, then by mail only."""
    clock = Clock()
    with smtp_server() as inbox, mail_server(db_url, clock, inbox) as ann:
        service = PushService()
        pusher_of(ann).post = service.post
        ann.sign_up("Ann")
        give_address(ann, inbox, "Ann")
        ann.post("/api/me/push", Browser("ann", random.Random(38)).subscription())
        chosen = ann.post("/api/me/notices", {"your_turn": False})
        assert (chosen["your_turn"], chosen["push_your_turn"]) == (False, True)
        my_turn_at_a_table_with_a_bot(ann, "Ann")
        assert len(service.sent) == 1  # pushed
        assert count(ann, notices, kind="your_turn", sent_ms=None) == 0  # no mail waits
        ann.post("/api/me/notices", {"your_turn": True, "push_your_turn": False})
        my_turn_at_a_table_with_a_bot(ann, "Ann")
        assert len(service.sent) == 1  # not pushed this time
        assert count(ann, notices, kind="your_turn", sent_ms=None) == 1  # mailed in the digest


def test_the_switches_need_no_address_and_outlive_one(db_url: str) -> None:
    """Web Push needs no e-mail address, so its switches are set without one
    (a server without --smtp too); removing an address keeps them."""
    with push_server(db_url, Clock()) as (ann, service):
        ann.sign_up("Ann")
        ann.post("/api/me/push", Browser("ann", random.Random(42)).subscription())
        chosen = ann.post("/api/me/notices", {"push_your_turn": False})
        assert (chosen["email"], chosen["push_your_turn"], chosen["push_finished"]) == (
            None,
            False,
            True,
        )
        my_turn_at_a_table_with_a_bot(ann, "Ann")
        assert service.sent == []
    with smtp_server() as inbox, mail_server(db_url, Clock(), inbox) as bea:
        bea.sign_up("Bea")
        give_address(bea, inbox, "Bea")
        bea.post("/api/me/notices", {"finished": False})
        cleared = bea.post("/api/me/notices", {"email": ""})
        assert (cleared["email"], cleared["verified"], cleared["finished"]) == (None, False, False)
        assert count(bea, notice_addresses, email="bea@example.org") == 0  # the address went
        again = bea.post("/api/me/notices", {"email": "bea@example.org"})  # no wait: none was sent
        assert (again["email"], again["finished"]) == ("bea@example.org", False)


def test_two_processes_push_a_deadline_once(any_db: str) -> None:
    """Deadlines fire exactly once across processes (issue 30): the second
    process is a second :class:`Notices` with a pusher of its own on the same
    database (SQLite and PostgreSQL); the unique notice row decides."""
    clock = Clock()
    with push_server(any_db, clock) as (ann, service):
        ann.sign_up("Ann")
        browser = Browser("ann", random.Random(39))
        ann.post("/api/me/push", browser.subscription())
        table = my_turn_at_a_table_with_a_bot(ann, "Ann")
        first = notices_of(ann)
        other = Pusher(first.engine, pusher_of(ann).vapid, clock, post=service.post)
        second = Notices(first.engine, first.secret, None, clock, pusher=other)
        live: Table = ann.client.app.state.hub.tables[table]  # type: ignore[attr-defined]
        clock.now += 23 * HOUR  # an hour left
        sweep(ann)

        async def both() -> None:
            second.watch(live)  # the other process sees the same turn
            await asyncio.gather(first.settle(), second.settle())

        ann.client.portal.call(both)  # type: ignore[union-attr]
        titles = [browser.read(sent)["title"] for sent in service.sent]
        assert titles == ["Your turn", "Your move time runs out"]  # once each
        assert count(ann, notices, kind="deadline_soon") == 1


def test_no_push_names_a_card_of_any_hand(db_url: str) -> None:
    """MT-9: a hidden card leaves a game only through view(seat); a push
    carries names, games, time left and a link, never a card. Two people
    play a whole turn-based game, each with a subscribed browser; no card
    that any hand held appears in any push either of them is sent."""
    clock = Clock()
    with push_server(db_url, clock) as (server, service):
        ann, bea = server, server.browser()
        ann.sign_up("Ann")
        bea.sign_up("Bea")
        browsers = {
            "Ann": Browser("ann", random.Random(40)),
            "Bea": Browser("bea", random.Random(41)),
        }
        ann.post("/api/me/push", browsers["Ann"].subscription())
        bea.post("/api/me/push", browsers["Bea"].subscription("fr"))
        table = ann.create(MT, ["human", "human"], move_hours=24)
        tokens = [ann.join(table, 0, "Ann"), bea.join(table, 1, "Bea")]

        def an_hour_later() -> None:
            clock.now += HOUR

        held = play_to_the_end(server, table, tokens, an_hour_later)
        settle(server)
        by_endpoint = {b.endpoint: b for b in browsers.values()}
        read = [by_endpoint[s.url].read(s) for s in service.sent]
        over = [n for n in read if n["title"] in ("Game over", "Partie terminée")]
        assert len(over) == 2  # each of them is told the game ended
        assert held and len(read) >= 4
        for notice in read:
            words = notice["title"] + " " + notice["body"]
            named = {card for card in held if re.search(rf"\b{card}\b", words)}
            assert not named, (named, words)
            assert notice["url"] == f"https://testserver/t/{table}"


def test_the_vapid_key_is_made_once_and_readable_by_its_owner_only(tmp_path: Path) -> None:
    first = load_or_create_vapid(tmp_path)
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_create_vapid(tmp_path)
    public = serialization.PublicFormat.UncompressedPoint
    assert first.public_key.public_bytes(serialization.Encoding.X962, public) == (
        again.public_key.public_bytes(serialization.Encoding.X962, public)
    )
    path.write_text("not a key")
    with pytest.raises(CardtableError, match=re.escape(str(path))):
        load_or_create_vapid(tmp_path)


async def _forget_what_was_sent(notices_: Notices) -> None:
    """As if no notice had been made or sent yet (so the same ones are made again)."""
    async with notices_.engine.begin() as conn:
        await conn.execute(delete(notices))
        await conn.execute(update(notice_addresses).values(last_digest_ms=0))
    notices_._seen.clear()


def test_mail_and_push_do_not_change_when_hidden_cards_are_swapped(db_url: str) -> None:
    """The swap test for notifications (issue 30's "done when"): at Ann's turn,
    the other seats' hidden cards are swapped for others they might hold
    (``determinize``); the digest mailed and the push sent are the same."""
    clock = Clock()
    limits = dataclasses.replace(UNLIMITED, clock=clock)
    with (
        smtp_server() as inbox,
        account_server(db_url, limits=limits, smtp_url=inbox.url, mail_from=FROM) as ann,
    ):
        service = PushService()
        pusher_of(ann).post = service.post
        ann.sign_up("Ann")
        give_address(ann, inbox, "Ann")
        browser = Browser("ann", random.Random(35))
        ann.post("/api/me/push", browser.subscription())
        options = {"target": 4, "players": 3}
        table = ann.create(MT, ["human", "random", "random"], options=options, move_hours=24)
        token = ann.join(table, 0, "Ann")
        with ann.connect(table, token) as conn:
            conn.until_state(lambda m: m["to_move"] == 0)
        live = ann.table(table)
        determinize = manifest(MT).part("determinize")
        rng = random.Random(0)
        notices_ = notices_of(ann)

        def told() -> tuple[str, list[dict[str, Any]]]:
            """What Ann is told of her turn, made and sent afresh."""
            ann.client.portal.call(_forget_what_was_sent, notices_)  # type: ignore[union-attr]
            service.sent.clear()
            ann.client.portal.call(notices_.watch, live)  # type: ignore[union-attr]
            settle(ann)
            assert ann.client.portal.call(notices_.send_due) == 1  # type: ignore[union-attr]
            mail = inbox.to("ann@example.org")[-1]
            return text_of(mail), [browser.read(sent) for sent in service.sent]

        settle(ann)  # the notice of the game's own turn is out of the way
        original = live.state
        before = told()
        assert "It is your turn" in before[0] and before[1]
        changed = 0
        for _ in range(5):  # states the other seats might hold: the same words
            twin = determinize(live.game, original.view(0), rng)
            changed += any(twin.view(s) != original.view(s) for s in (1, 2))
            live.state = twin
            assert told() == before
            live.state = original
        assert changed  # the swaps really moved hidden cards
