"""Friends (issue 29, item 2): following, the friends list with who is online
and where, invitations to a table, and blocks: a blocked account's chat lines
never reach the blocker's sockets, neither may sit where the other sits, and
deleting an account deletes its rows. The words of each refusal are the
sentence and a catalog key (``friends.error.*``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import func, or_, select

from cardtable.server.db.schema import blocks, follows, invites
from tests.server.accounts_helpers import AccountServer, account_server
from tests.server.helpers import UNLIMITED, Conn
from tests.server.tables.test_chat import chat

pytestmark = pytest.mark.timeout(300, method="thread")

MT = "marshmallow-test"


def friends(browser: AccountServer) -> dict[str, Any]:
    response = browser.client.get("/api/friends")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def refused(browser: AccountServer, path: str, body: Any, status: int) -> dict[str, Any]:
    answer: dict[str, Any] = browser.post(path, body, status)
    return answer


@contextmanager
def socket(browser: AccountServer, table: str, token: str | None = None) -> Iterator[Conn]:
    """A socket of ``browser`` at ``table``, its session cookie sent (the test
    client sends a Secure cookie over https only: the socket gets it by hand)."""
    cookie = {"cookie": f"ct_session={browser.jar['ct_session']}"}
    url = f"/ws/{table}" + (f"?token={token}" if token else "")
    with browser.client.websocket_connect(url, headers=cookie) as ws:
        conn = Conn(ws, None)
        first = conn.read()
        assert first["type"] == "state", first
        conn.seat = first["seat"]
        yield conn


def waiting_table(browser: AccountServer) -> tuple[str, str]:
    """A two-seat table ``browser`` sits at (seat 0), waiting for one more; its token."""
    table = browser.create(MT, ["human", "human"], bot_delay_ms=10_000)
    return table, browser.join(table, 0)


@contextmanager
def people(db_url: str, *names: str, **limits: Any) -> Iterator[list[AccountServer]]:
    """A browser signed up under each of ``names``, each from an address of its own."""
    with account_server(db_url, limits=dataclasses.replace(UNLIMITED, **limits)) as server:
        browsers = [server] + [server.browser() for _ in names[1:]]
        for browser, name in zip(browsers, names, strict=True):
            browser.sign_up(name)
        yield browsers


def test_following_lists_the_people_followed_and_refuses_bad_names_in_words(db_url: str) -> None:
    with people(db_url, "Ann", "Bob", "Cat", friends_per_account=2) as (ann, bob, _cat):
        assert friends(ann)["following"] == []
        assert ann.post("/api/friends/follow", {"name": "bob"}) == {"name": "Bob"}  # any case
        ann.post("/api/friends/follow", {"name": "Bob"})  # asked again: nothing changes
        assert friends(ann)["following"] == [{"name": "Bob", "online": False, "tables": []}]
        assert friends(bob)["following"] == []  # following is one way
        unknown = refused(ann, "/api/friends/follow", {"name": "Nobody"}, 404)
        assert unknown["error"] == "there is no player named 'Nobody'"
        assert (unknown["key"], unknown["params"]) == ("friends.error.unknown", {"name": "Nobody"})
        mine = refused(ann, "/api/friends/follow", {"name": "ANN"}, 400)
        assert mine["key"] == "friends.error.yourself"
        assert "request.name" in refused(ann, "/api/friends/follow", {"name": "  "}, 400)["error"]
        assert "name" in refused(ann, "/api/friends/follow", {}, 400)["error"]
        ann.post("/api/friends/unfollow", {"name": "Bob"})
        assert friends(ann)["following"] == []
        guest = ann.browser()
        assert (
            "sign in first" in refused(guest, "/api/friends/follow", {"name": "Bob"}, 401)["error"]
        )
        assert guest.client.get("/api/friends").status_code == 401


def test_each_account_follows_and_blocks_at_most_the_servers_limit(db_url: str) -> None:
    """Limits.friends_per_account (settings.py): one more is refused, saying the limit."""
    with people(db_url, "Ann", "Bob", "Cat", "Dan", friends_per_account=2) as (ann, *_):
        ann.post("/api/friends/follow", {"name": "Bob"})
        ann.post("/api/friends/follow", {"name": "Cat"})
        over = refused(ann, "/api/friends/follow", {"name": "Dan"}, 409)
        assert over["error"] == "you follow 2 people, this server's limit: follow fewer first"
        assert (over["key"], over["params"]) == ("friends.error.tooManyFollows", {"limit": 2})
        ann.post("/api/friends/block", {"name": "Cat"})
        ann.post("/api/friends/block", {"name": "Dan"})
        assert refused(ann, "/api/friends/block", {"name": "Bob"}, 409)["key"] == (
            "friends.error.tooManyBlocks"
        )


def test_a_friend_is_online_while_a_socket_is_open_at_their_seat(db_url: str) -> None:
    """docs/server.md, Friends: online is a seat at a waiting or playing table
    with a socket open at it (this process), or watching a table here."""
    with people(db_url, "Ann", "Bob") as (ann, bob):
        ann.post("/api/friends/follow", {"name": "Bob"})
        table, token = waiting_table(bob)
        assert friends(ann)["following"][0]["online"] is False  # seated, no socket
        with socket(bob, table, token):
            (entry,) = friends(ann)["following"]
            assert entry["online"] is True
            assert entry["tables"] == [
                {
                    "id": table,
                    "game": MT,
                    "title": "Marshmallow Test",
                    "status": "waiting",
                    "watching": False,
                    "url": f"/t/{table}",
                }
            ]
        assert friends(ann)["following"][0]["online"] is False
        other = ann.create(MT, ["easy", "easy"], bot_delay_ms=10_000)
        with socket(bob, other):  # watching
            (place,) = friends(ann)["following"][0]["tables"]
            assert (place["id"], place["watching"]) == (other, True)


def test_an_invitation_reaches_the_invited_until_they_sit_or_dismiss_it(db_url: str) -> None:
    with people(db_url, "Ann", "Bob") as (ann, bob):
        table, _ = waiting_table(ann)
        assert [t["id"] for t in friends(ann)["my_tables"]] == [table]
        assert bob.client.get("/api/invites").json() == {"invites": []}
        assert ann.post("/api/invites", {"name": "bob", "table": table}, 201) == {
            "name": "Bob",
            "table": table,
        }
        ann.post("/api/invites", {"name": "Bob", "table": table}, 201)  # once only
        (invite,) = bob.client.get("/api/invites").json()["invites"]
        assert (invite["from"], invite["table"], invite["url"]) == ("Ann", table, f"/t/{table}")
        assert invite["title"] == "Marshmallow Test"
        assert ann.browser().client.get("/api/invites").json() == {"invites": []}  # a guest
        bob.post("/api/invites/dismiss", {"table": table})
        assert bob.client.get("/api/invites").json() == {"invites": []}
        ann.post("/api/invites", {"name": "Bob", "table": table}, 201)
        bob.join(table, 1)
        assert bob.client.get("/api/invites").json() == {"invites": []}  # seated now
        # Bob sits there: no invitation; the table is full: none to it either.
        assert refused(ann, "/api/invites", {"name": "Bob", "table": table}, 409)["key"] == (
            "friends.error.notYourTable"
        )


def test_an_invitation_is_refused_in_words(db_url: str) -> None:
    with people(db_url, "Ann", "Bob", "Cat") as (ann, bob, cat):
        table, _ = waiting_table(ann)
        cats, _ = waiting_table(cat)
        elsewhere = refused(ann, "/api/invites", {"name": "Bob", "table": cats}, 409)
        assert elsewhere["error"] == (
            f"you have no seat at a table {cats!r} that waits for players"
        )
        assert refused(ann, "/api/invites", {"name": "Ann", "table": table}, 400)["key"] == (
            "friends.error.yourself"
        )
        assert refused(ann, "/api/invites", {"name": "Zed", "table": table}, 404)["key"] == (
            "friends.error.unknown"
        )
        bob.post("/api/friends/block", {"name": "Ann"})
        blocked = refused(ann, "/api/invites", {"name": "Bob", "table": table}, 409)
        assert (blocked["error"], blocked["key"]) == (
            "Bob cannot be invited by you",
            "friends.error.cannotInvite",
        )
        assert "table" in refused(ann, "/api/invites", {"name": "Bob"}, 400)["error"]


def test_blocking_ends_follows_both_ways_and_the_invitations_between_them(db_url: str) -> None:
    with people(db_url, "Ann", "Bob") as (ann, bob):
        table, _ = waiting_table(bob)
        ann.post("/api/friends/follow", {"name": "Bob"})
        bob.post("/api/friends/follow", {"name": "Ann"})
        bob.post("/api/invites", {"name": "Ann", "table": table}, 201)
        ann.post("/api/friends/block", {"name": "Bob"})
        assert friends(ann)["following"] == [] and friends(bob)["following"] == []
        assert friends(ann)["blocked"] == [{"name": "Bob"}]
        assert ann.client.get("/api/invites").json() == {"invites": []}
        follow = refused(ann, "/api/friends/follow", {"name": "Bob"}, 409)
        assert follow["key"] == "friends.error.followBlocked"
        ann.post("/api/friends/unblock", {"name": "Bob"})
        assert friends(ann)["blocked"] == []
        ann.post("/api/friends/follow", {"name": "Bob"})


def test_a_blocked_players_lines_never_reach_the_blocker(db_url: str) -> None:
    """Server-side: the line is not sent to the blocker's sockets (live, and
    in the history a socket gets on connecting); the others still get it."""
    with people(db_url, "Ann", "Bob") as (ann, bob):
        table, ann_token = waiting_table(ann)
        bob_token = bob.join(table, 1)
        with (
            socket(ann, table, ann_token) as at_ann,
            socket(bob, table, bob_token) as at_bob,
            ann.connect(table) as rail,
        ):
            assert chat(at_bob, text="before")["lines"][0]["text"] == "before"
            assert at_ann.until(lambda m: m["type"] == "chat")["lines"][0]["text"] == "before"
            ann.post("/api/friends/block", {"name": "Bob"})  # her open socket hears it at once
            chat(at_bob, text="after")
            assert rail.until(lambda m: m["type"] == "chat")["lines"][0]["text"] == "before"
            assert rail.until(lambda m: m["type"] == "chat")["lines"][0]["text"] == "after"
            at_ann.quiet()  # Ann was sent nothing since
            assert chat(at_ann, text="hello")["lines"][0]["name"] == "Ann"
            assert at_bob.until(lambda m: m["type"] == "chat")["lines"][0]["text"] == "hello"
        with socket(ann, table, ann_token) as again:
            history = again.until(lambda m: m["type"] == "chat")
            assert [line["text"] for line in history["lines"]] == ["hello"]
        with socket(bob, table) as watching:  # Bob watching as a spectator: muted too
            watching.read()  # the history
            with socket(ann, table, ann_token) as at_ann:
                at_ann.read()
                assert chat(watching, phrase="gg")["lines"][0]["name"] == "Bob"
                at_ann.quiet()


def test_a_block_keeps_either_away_from_the_others_table(db_url: str) -> None:
    with people(db_url, "Ann", "Bob", "Cat") as (ann, bob, cat):
        ann.post("/api/friends/block", {"name": "Bob"})
        table, _ = waiting_table(ann)
        response = bob.client.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "x"})
        assert response.status_code == 403
        assert response.json() == {
            "error": "you cannot sit at this table: a player there does not play with you",
            "key": "friends.error.blockedYou",
            "params": {},
        }
        bobs, _ = waiting_table(bob)
        response = ann.client.post(f"/api/tables/{bobs}/join", json={"seat": 1, "name": "x"})
        assert response.status_code == 403
        assert response.json()["error"] == (
            "you blocked Bob, who sits at this table: unblock them to sit here"
        )
        cat.join(table, 1)  # anybody else sits
        assert ann.browser().join(bobs, 1)  # and so does a guest
        ann.post("/api/friends/unblock", {"name": "Bob"})
        third, _ = waiting_table(ann)
        bob.join(third, 1)


def test_deleting_an_account_deletes_its_follows_blocks_and_invitations(any_db: str) -> None:
    with people(any_db, "Ann", "Bob", "Cat") as (ann, bob, cat):
        table, _ = waiting_table(ann)
        ann.post("/api/friends/follow", {"name": "Bob"})
        ann.post("/api/friends/block", {"name": "Cat"})
        ann.post("/api/invites", {"name": "Bob", "table": table}, 201)
        bob.post("/api/friends/follow", {"name": "Ann"})
        cat.post("/api/friends/follow", {"name": "Bob"})
        known = ann.client.portal.call(ann.accounts.find, "Ann")  # type: ignore[union-attr]
        assert known is not None
        found = known[0]

        async def rows() -> dict[str, int]:
            async with ann.accounts.engine.connect() as conn:
                counts = {}
                for name, table_, a, b in (
                    ("follows", follows, follows.c.follower_id, follows.c.followed_id),
                    ("blocks", blocks, blocks.c.blocker_id, blocks.c.blocked_id),
                    ("invites", invites, invites.c.inviter_id, invites.c.invitee_id),
                ):
                    query = select(func.count()).select_from(table_)
                    counts[name] = int(await conn.scalar(query) or 0)
                    mine = query.where(or_(a == found.id, b == found.id))
                    counts[name + " of Ann"] = int(await conn.scalar(mine) or 0)
                return counts

        before = ann.client.portal.call(rows)  # type: ignore[union-attr]
        assert before == {
            "follows": 3, "follows of Ann": 2, "blocks": 1, "blocks of Ann": 1,
            "invites": 1, "invites of Ann": 1,
        }  # fmt: skip
        ann.post("/api/account/delete", {"password": "correct horse"})
        after = ann.client.portal.call(rows)  # type: ignore[union-attr]
        assert after == {
            "follows": 1, "follows of Ann": 0, "blocks": 0, "blocks of Ann": 0,
            "invites": 0, "invites of Ann": 0,
        }  # fmt: skip
        assert friends(cat)["following"] == [{"name": "Bob", "online": False, "tables": []}]


def test_friends_writes_count_against_the_chat_rate(db_url: str) -> None:
    """docs/server.md, Friends: each write counts as a chat line of its own key
    (--chat-per-minute per account); past it, 429 in one sentence."""
    with people(db_url, "Ann", "Bob", chat_per_minute=2) as (ann, bob):
        ann.post("/api/friends/follow", {"name": "Bob"})
        ann.post("/api/friends/unfollow", {"name": "Bob"})
        over = ann.client.post("/api/friends/follow", json={"name": "Bob"})
        assert over.status_code == 429 and "Retry-After" in over.headers
        assert over.json()["error"].startswith(
            "too many follows, blocks and invitations in the last minute, this server's limit;"
            " try again in "
        )
        assert friends(ann)["following"] == []  # reads are not counted; nothing was written
        bob.post("/api/friends/follow", {"name": "Ann"})  # another account has its own count
