"""Making and entering tournaments: who may, what a bad request changes
(nothing), invitations, a tournament nobody entered, a Swiss tournament's
own deals and pairing, and a rated one's ratings and profiles."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from cardtable.server.accounts.accounts import DELETED_NAME
from cardtable.server.tournaments.ledger import TournamentStore
from tests.server.accounts_helpers import AccountServer, account_server
from tests.server.helpers import play_out, sqlite_url
from tests.server.tournaments.helpers import director, get, make, people, play_deal, sweep


def test_only_accounts_make_tournaments_and_a_bad_one_is_refused_leaving_nothing(
    tmp_path: Path,
) -> None:
    with account_server(sqlite_url(tmp_path)) as server:
        guest = server.browser()
        body = {"name": "x", "game": "marshmallow-test", "players": 2, "deals": 1}
        assert guest.client.post("/api/tournaments", json=body).status_code == 401
        server.sign_up("Ann")
        refused = server.client.post(
            "/api/tournaments",
            json={
                "name": "Cup",
                "game": "marshmallow-test",
                "players": 2,
                "deals": 99,
                "form": "duplicate",
                "start_in_minutes": 5,
                "access": "open",
                "rated": False,
                "bot": "easy",
            },
        )
        assert refused.status_code == 400
        assert refused.json()["key"] == "tournament.error.deals"
        unknown_field = server.client.post("/api/tournaments", json={**body, "prize": 1})
        assert unknown_field.status_code == 400 and "prize" in unknown_field.json()["error"]
        listed = server.client.get("/api/tournaments").json()
        assert listed["upcoming"] == listed["running"] == listed["finished"] == []
        assert server.client.get("/api/tournaments/nope").status_code == 404


def test_an_invitation_tournament_is_seen_and_entered_only_by_those_invited(
    tmp_path: Path,
) -> None:
    with account_server(sqlite_url(tmp_path)) as server:
        ann, bob, cy = people(server, ["Ann", "Bob", "Cy"])
        tid = make(ann, access="invite")
        assert bob.client.get("/api/tournaments").json()["upcoming"] == []
        refused = bob.client.post(f"/api/tournaments/{tid}/enter", json={})
        assert refused.status_code == 403
        assert refused.json()["key"] == "tournament.error.notInvited"
        bob.post(f"/api/tournaments/{tid}/invite", {"name": "Cy"}, status=403)  # not its creator
        assert ann.post(f"/api/tournaments/{tid}/invite", {"name": "bob"}) == {"invited": "Bob"}
        ann.post(f"/api/tournaments/{tid}/invite", {"name": "Nobody"}, status=404)
        assert [t["id"] for t in bob.client.get("/api/tournaments").json()["upcoming"]] == [tid]
        assert bob.post(f"/api/tournaments/{tid}/enter") == {"entered": True}
        assert get(bob, tid)["me"] == {"entered": True, "invited": True, "creator": False}
        assert cy.client.get("/api/tournaments").json()["upcoming"] == []
        assert bob.post(f"/api/tournaments/{tid}/leave") == {"entered": False}
        assert get(ann, tid)["entrants"] == 0


def test_a_tournament_nobody_entered_is_cancelled_at_its_start(tmp_path: Path) -> None:
    with account_server(sqlite_url(tmp_path)) as server:
        (ann,) = people(server, ["Ann"])
        tid = make(ann)
        ann.post(f"/api/tournaments/{tid}/start")
        assert get(ann, tid)["status"] == "cancelled"
        assert ann.client.get("/api/tournaments").json()["upcoming"] == []


def test_a_swiss_tournament_deals_each_table_its_own_cards_and_seats_the_leaders_together(
    tmp_path: Path,
) -> None:
    rng = random.Random(11)
    with account_server(sqlite_url(tmp_path)) as server:
        director(server).bot_delay_ms = 0
        browsers = people(server, ["Ann", "Bob", "Cy", "Dee"])
        tid = make(browsers[0], form="swiss", deals=2)
        for browser in browsers:
            browser.post(f"/api/tournaments/{tid}/enter")
        browsers[0].post(f"/api/tournaments/{tid}/start")
        play_deal(browsers, tid, rng)
        sweep(server)
        deal0 = server.client.get(f"/api/tournaments/{tid}/deals/0").json()
        deals = [server.record(t["table_id"])["rounds"][0]["deal"] for t in deal0["tables"]]
        assert deals[0] != deals[1]  # ordinary luck: each table its own cards
        for table in deal0["tables"]:
            percents = sorted(s["percent"] for s in table["seats"])
            assert percents in ([0.0, 100.0], [50.0, 50.0])  # against its own table only
        standings = get(server, tid)["standings"]
        leaders = {row["name"] for row in standings[:2]}
        if standings[1]["total"] > standings[2]["total"]:  # no tie across the cut
            mine = {b: get(b, tid)["table"]["id"] for b in browsers}
            names = dict(zip(browsers, ["Ann", "Bob", "Cy", "Dee"], strict=True))
            at = {names[b]: table_id for b, table_id in mine.items()}
            assert len({at[name] for name in leaders}) == 1  # the leaders meet


def rated_for_two(server: AccountServer) -> tuple[AccountServer, AccountServer, str]:
    """Ann and Bob in a started rated tournament of one deal (bots fill the rest)."""
    director(server).bot_delay_ms = 0
    ann, bob = people(server, ["Ann", "Bob"])
    tid = make(ann, rated=True, deals=1)
    for browser in (ann, bob):
        browser.post(f"/api/tournaments/{tid}/enter")
    ann.post(f"/api/tournaments/{tid}/start")
    return ann, bob, tid


def test_a_rated_tournament_finishes_and_rates_in_one_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scoring the last deal and rating its people are one transaction: while
    the rating fails, the tournament is not shown finished (nor its deal
    scored), and the next sweep does both."""
    rng = random.Random(3)
    with account_server(sqlite_url(tmp_path)) as server:
        ann, bob, tid = rated_for_two(server)

        async def broken(*_: object) -> None:
            raise RuntimeError("the rating failed")

        with monkeypatch.context() as patch:
            patch.setattr(TournamentStore, "_rate", staticmethod(broken))
            play_deal([ann, bob], tid, rng)
            with pytest.raises(RuntimeError, match="the rating failed"):
                sweep(server)
            halfway = get(bob, tid)
            assert halfway["status"] == "running"
            assert all(row["rating_after"] is None for row in halfway["standings"])
        sweep(server)
        done = get(bob, tid)
        assert done["status"] == "finished"
        by_name = {row["name"]: row for row in done["standings"]}
        assert by_name["Ann"]["rating_after"] is not None
        assert by_name["Bob"]["rating_after"] is not None


def test_a_rated_tournament_rates_its_people_by_the_standings_and_shows_in_profiles(
    tmp_path: Path,
) -> None:
    rng = random.Random(3)
    with account_server(sqlite_url(tmp_path)) as server:
        ann, bob, tid = rated_for_two(server)
        play_deal([ann, bob], tid, rng)
        sweep(server)
        done = get(bob, tid)
        assert done["status"] == "finished"
        by_name = {row["name"]: row for row in done["standings"]}
        for name in ("Ann", "Bob"):
            assert by_name[name]["rating_before"] is not None
            assert by_name[name]["rating_after"] is not None
        assert by_name["easy bot 1"]["rating_after"] is None  # bots are not rated
        profile = bob.client.get("/api/players/Ann").json()
        (entry,) = profile["tournaments"]
        assert entry["id"] == tid and entry["place"] == by_name["Ann"]["place"]
        assert entry["of"] == 4
        # Its deal's table is listed as a tournament deal, neither won nor lost.
        assert [r["result"] for r in profile["recent"]] == ["tournament"]
        rated = {g["game"]: g["ratings"] for g in profile["games"]}
        assert rated["marshmallow-test"][0]["players"] == 2


def test_a_turn_based_tournament_makes_turn_based_tables_where_a_stand_in_plays_a_late_move(
    tmp_path: Path,
) -> None:
    with account_server(sqlite_url(tmp_path)) as server:
        ann, bob = people(server, ["Ann", "Bob"])
        tid = make(ann, move_hours=24)
        for browser in (ann, bob):
            browser.post(f"/api/tournaments/{tid}/enter")
        ann.post(f"/api/tournaments/{tid}/start")
        table = server.client.get(f"/api/tables/{get(ann, tid)['table']['id']}").json()
        assert (table["move_hours"], table["on_timeout"], table["turn_seconds"]) == (
            24,
            "stand-in",
            None,
        )
        assert table["private"] is True and table["rated"] is False


def test_an_absent_person_keeps_nobody_waiting_a_stand_in_plays_their_deal(
    tmp_path: Path,
) -> None:
    rng = random.Random(8)
    with account_server(sqlite_url(tmp_path), grace_seconds=0.2) as server:
        director(server).bot_delay_ms = 0
        ann, bob = people(server, ["Ann", "Bob"])
        tid = make(ann, deals=1)
        for browser in (ann, bob):
            browser.post(f"/api/tournaments/{tid}/enter")
        ann.post(f"/api/tournaments/{tid}/start")
        mine = get(ann, tid)["table"]
        # Bob never comes: after the grace period his stand-in plays his seat
        # (at Ann's table or at the other) to the deal's end.
        with ann.connect(mine["id"], mine["token"]) as conn:
            play_out(conn, {mine["seat"]: conn}, rng)
        for _ in range(200):
            sweep(server)
            if get(ann, tid)["status"] == "finished":
                break
            time.sleep(0.05)
        done = get(ann, tid)
        assert done["status"] == "finished" and done["deals_over"] == 1


def test_the_tournament_chat_is_closed_while_a_deal_is_played_and_hides_whom_you_blocked(
    tmp_path: Path,
) -> None:
    rng = random.Random(2)
    with account_server(sqlite_url(tmp_path)) as server:
        director(server).bot_delay_ms = 0
        ann, bob, cy = people(server, ["Ann", "Bob", "Cy"])
        tid = make(ann, deals=1)
        for browser in (ann, bob):
            browser.post(f"/api/tournaments/{tid}/enter")
        chat = f"/api/tournaments/{tid}/chat"
        assert bob.post(chat, {"text": "good luck"}, status=201) == {"n": 0}
        refused = cy.client.post(chat, json={"text": "hi"})  # not an entrant
        assert refused.status_code == 403 and refused.json()["key"] == "tournament.error.notEntrant"
        assert ann.client.post(chat, json={"text": "two\nlines"}).status_code == 400
        ann.post("/api/friends/block", {"name": "Bob"})
        assert ann.client.get(chat).json() == {"open": True, "lines": []}
        assert [line["text"] for line in cy.client.get(chat).json()["lines"]] == ["good luck"]
        ann.post(f"/api/tournaments/{tid}/start")
        closed = bob.client.post(chat, json={"text": "my cards are bad"})
        assert closed.status_code == 409 and closed.json()["key"] == "tournament.error.chatClosed"
        assert bob.client.get(chat).json()["open"] is False
        play_deal([ann, bob], tid, rng)
        sweep(server)
        assert bob.post(chat, {"text": "gg"}, status=201) == {"n": 1}
        after = cy.client.get(chat + "?after=0").json()
        assert after["open"] is True and [line["text"] for line in after["lines"]] == ["gg"]


def test_a_deleted_account_leaves_its_tournaments_under_the_deleted_name(any_db: str) -> None:
    with account_server(any_db) as server:
        ann, bob = people(server, ["Ann", "Bob"])
        tid = make(ann, access="invite")
        ann.post(f"/api/tournaments/{tid}/invite", {"name": "Bob"})
        bob.post(f"/api/tournaments/{tid}/enter")
        bob.post(f"/api/tournaments/{tid}/chat", {"text": "count me in"}, status=201)
        for browser in (bob, ann):
            browser.post("/api/account/delete", {"password": "correct horse"})
        left = server.client.get(f"/api/tournaments/{tid}").json()
        assert left["creator"] == DELETED_NAME
        assert [e["name"] for e in left["lineup"]] == [DELETED_NAME]
        said = server.client.get(f"/api/tournaments/{tid}/chat").json()["lines"]
        assert [line["name"] for line in said] == [DELETED_NAME]


def test_people_entering_at_the_same_moment_are_all_entered(any_db: str) -> None:
    with account_server(any_db) as server:
        (ann,) = people(server, ["Ann"])
        tid = make(ann)
        ledger = director(server).store

        async def all_at_once() -> list[bool]:
            return list(
                await asyncio.gather(
                    *(ledger.enter(tid, f"account{n}", f"P{n}", 1_000) for n in range(24))
                )
            )

        assert server.client.portal.call(all_at_once) == [True] * 24  # type: ignore[union-attr]
        assert server.client.portal.call(all_at_once) == [True] * 24  # type: ignore[union-attr]
        assert get(ann, tid)["entrants"] == 24  # each once, none lost
