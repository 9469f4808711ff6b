"""My games, profiles and claimed guest seats; upgrading a database of the release before."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, select, text
from sqlalchemy.ext.asyncio import create_async_engine

import cardtable
from cardtable.core.registry import manifest
from cardtable.server.accounts.accounts import Accounts
from cardtable.server.accounts.passwords import Passwords
from cardtable.server.db.schema import account_seats
from cardtable.server.requests import MAX_CLAIMED_SEATS
from cardtable.server.settings import Limits
from cardtable.server.tables.table import Table
from tests.server.accounts_helpers import AccountServer, account_server
from tests.server.helpers import UNLIMITED, play_out, run_coroutine

pytestmark = pytest.mark.timeout(300, method="thread")

# The release before accounts: its code builds the old database.
BEFORE_ACCOUNTS = "ed38872"
ROOT = Path(__file__).resolve().parents[3]
T = TypeVar("T")


def finish_against_bots(server: AccountServer, token_of: dict[str, str], seed: int) -> str:
    """A marshmallow-test game of the signed-in person (seat 0) against a bot, played out."""
    table = server.create("marshmallow-test", ["human", "random"])
    token_of[table] = server.join(table, 0)
    with server.connect(table, token_of[table]) as me:
        play_out(me, {0: me}, random.Random(seed))
    return table


def test_my_games_lists_your_turn_first_then_finished_games(any_db: str) -> None:
    with account_server(any_db) as server:
        server.sign_up("Ann")
        assert server.client.get("/api/me/games").status_code == 200
        tokens: dict[str, str] = {}
        done = finish_against_bots(server, tokens, 1)
        my_turn = server.create("marshmallow-test", ["human", "random"])
        tokens[my_turn] = server.join(my_turn, 0)
        waiting = server.create("marshmallow-test", ["human", "human"])  # newer, not my turn
        server.join(waiting, 1)
        with server.connect(my_turn, tokens[my_turn]) as me:
            me.until_state(lambda m: m["to_move"] == 0)
            games = server.client.get("/api/me/games").json()
        live = games["in_progress"]
        assert [(g["id"], g["your_turn"]) for g in live] == [(my_turn, True), (waiting, False)]
        assert live[1]["seat"] == 1 and live[1]["status"] == "waiting"
        (finished,) = games["finished"]
        replayed = cardtable.replay(server.record(done)).state
        assert replayed is not None
        assert finished["id"] == done and finished["scores"] == list(replayed.scores)
        winners = [i for i, s in enumerate(finished["scores"]) if s == max(finished["scores"])]
        assert finished["result"] == (
            "won" if winners == [0] else "shared" if 0 in winners else "lost"
        )
        assert server.client.get(finished["record"]).status_code == 200
        assert server.browser().client.get("/api/me/games").status_code == 401


def test_a_profile_counts_games_per_game_and_shows_recent_results(any_db: str) -> None:
    with account_server(any_db) as server:
        server.sign_up("Ann")
        tokens: dict[str, str] = {}
        tables = [finish_against_bots(server, tokens, seed) for seed in (2, 3)]
        live = server.create("marshmallow-test", ["human", "random"])  # not yet played: not counted
        server.join(live, 0)
        seen = server.browser().client.get("/api/players/ANN").json()  # anyone, any case
        assert seen["name"] == "Ann"
        # Games against bots alone are not rated (tests/server/db/test_ratings.py): no number.
        assert seen["games"] == [
            {
                "game": "marshmallow-test",
                "title": "Marshmallow Test",
                "played": 2,
                "ratings": [],
                "leaderboard": "/leaderboard/marshmallow-test",
            }
        ]
        assert sorted(r["id"] for r in seen["recent"]) == sorted(tables)
        assert [r["rating"] for r in seen["recent"]] == [None, None]
        missing = server.client.get("/api/players/Nobody")
        assert missing.status_code == 404 and missing.json()["error"] == (
            "there is no player named 'Nobody'"
        )


def test_guest_seats_are_claimed_into_a_new_account(any_db: str) -> None:
    with account_server(any_db) as server:
        mine = server.create("marshmallow-test", ["human", "random"])
        token = server.join(mine, 0, "guest Ann")
        theirs = server.create("marshmallow-test", ["human", "random"])
        server.join(theirs, 0, "Bea")
        server.sign_up("Ann")
        claimed = server.post(
            "/api/account/claim",
            {
                "seats": [
                    {"table": mine, "token": token},
                    {"table": theirs, "token": "not-their-token"},
                    {"table": "gone", "token": token},
                ]
            },
        )
        assert claimed == {"claimed": 1}
        games = server.client.get("/api/me/games").json()["in_progress"]
        assert [g["id"] for g in games] == [mine]
        assert server.client.get(f"/api/tables/{mine}").json()["seats"][0]["name"] == "Ann"
        other = server.browser()
        other.sign_up("Cleo")
        again = other.post("/api/account/claim", {"seats": [{"table": mine, "token": token}]})
        assert again == {"claimed": 0}  # a seat an account holds stays with it


def test_my_games_and_profiles_do_not_change_when_hidden_cards_are_swapped(db_url: str) -> None:
    with account_server(db_url) as server:
        server.sign_up("Ann")
        tokens: dict[str, str] = {}
        finish_against_bots(server, tokens, 4)
        table = server.create(
            "marshmallow-test", ["human", "random", "random"], options={"target": 4, "players": 3}
        )
        tokens[table] = server.join(table, 0)
        with server.connect(table, tokens[table]) as me:
            me.until_state(lambda m: m["to_move"] == 0)
            live = server.table(table)
            determinize = manifest("marshmallow-test").part("determinize")
            rng = random.Random(0)
            before = _answers(server)
            changed = 0
            for _ in range(5):  # states another seat might hold: same answers
                original = live.state
                twin = determinize(live.game, original.view(0), rng)
                changed += any(twin.view(s) != original.view(s) for s in (1, 2))
                live.state = twin
                assert _answers(server) == before
                live.state = original
            assert changed  # the swaps really moved hidden cards


def _answers(server: AccountServer) -> list[Any]:
    return [server.client.get(p).json() for p in ("/api/me/games", "/api/players/Ann")]


BUILD_OLD = """
import json, sys
from tests.server.helpers import running
with running(sys.argv[1]) as server:
    people = server.create("marshmallow-test", ["human", "random"])
    token = server.join(people, 0, "Ann")
    robots = server.create("marshmallow-test", ["random", "random"])
    with server.connect(robots) as watcher:
        watcher.until_state(lambda m: m["finished"])
    print(json.dumps({"people": people, "token": token, "robots": robots}))
"""


def old_release(folder: Path) -> Path:
    """The code of :data:`BEFORE_ACCOUNTS`, unpacked from this repository's history."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", BEFORE_ACCOUNTS, "cardtable", "tests"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        pytest.skip(f"git history without {BEFORE_ACCOUNTS}: {archive.stderr.decode()[:200]}")
    folder.mkdir()
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def test_a_database_of_the_release_before_accounts_upgrades_without_losing_a_table(
    any_db: str, tmp_path: Path
) -> None:
    base = old_release(tmp_path / "old")
    old = subprocess.run(
        [sys.executable, "-c", BUILD_OLD, any_db],
        cwd=base,
        env={**os.environ, "PYTHONPATH": str(base)},
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert old.returncode == 0, old.stderr[-2000:]
    made = json.loads(old.stdout.strip().splitlines()[-1])
    before = _rows(any_db)
    assert _version(any_db) == "v0002" and before["ct_events"] > 2
    with account_server(any_db) as server:
        assert (
            server.client.get(f"/api/tables/{made['people']}").json()["seats"][0]["name"] == "Ann"
        )
        assert cardtable.replay(server.record(made["robots"])).error is None
        server.sign_up("Ann Again")
        claim = {"seats": [{"table": made["people"], "token": made["token"]}]}
        assert server.post("/api/account/claim", claim) == {"claimed": 1}
    after = _rows(any_db)
    for name, count in before.items():
        assert after[name] == count, name  # every old table and row is still there
    assert {"ct_accounts", "ct_sessions", "ct_account_seats", "ct_login_limits"} <= set(after)
    assert _version(any_db) == _head()  # the newest migration (v0003 brought accounts)


def _head() -> str | None:
    """The newest revision among the migrations (the one a start upgrades to)."""
    config = Config()
    config.set_main_option("script_location", "cardtable.server.db:migrations")
    return ScriptDirectory.from_config(config).get_current_head()


def _read(url: str, query: Callable[[Connection], T]) -> T:
    async def read() -> T:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(query)
        finally:
            await engine.dispose()

    return run_coroutine(read())


def _rows(url: str) -> dict[str, int]:
    """Each table of the database and how many rows it holds."""

    def count(conn: Connection) -> dict[str, int]:
        names = inspect(conn).get_table_names()
        return {n: conn.execute(text(f"SELECT COUNT(*) FROM {n}")).scalar_one() for n in names}

    return _read(url, count)


def _version(url: str) -> str:
    """The schema's migration, as Alembic wrote it."""

    def version(conn: Connection) -> str:
        return str(conn.execute(text("SELECT version_num FROM ct_alembic_version")).scalar_one())

    return _read(url, version)


def test_a_claim_counts_every_wrong_token_and_refuses_only_wrong_ones(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[str] = []
    real = Table.seat_for_token

    def counting(table: Table, token: str) -> int | None:
        checked.append(token)
        return real(table, token)

    monkeypatch.setattr(Table, "seat_for_token", counting)
    with account_server(db_url, limits=Limits(token_attempts_per_minute=3)) as server:
        table = server.create("marshmallow-test", ["human", "random"])
        token = server.join(table, 0, "guest Ann")
        server.sign_up("Ann")
        checked.clear()
        seats = [{"table": table, "token": f"guess-{i}"} for i in range(MAX_CLAIMED_SEATS + 1)]
        too_many = server.client.post("/api/account/claim", json={"seats": seats})
        assert too_many.status_code == 400
        assert too_many.json()["error"] == (
            f"request.seats must be a list of at most {MAX_CLAIMED_SEATS} seats"
            " (send more in another claim)"
        )
        assert checked == []  # refused before any token was tried
        # One claim's tokens each count: the fourth wrong one is refused, and the rest untried.
        refused = server.client.post("/api/account/claim", json={"seats": seats[:-1]})
        assert refused.status_code == 429, refused.text
        assert "3 wrong seat tokens in the last minute" in refused.json()["error"]
        assert len(checked) == 4
        # The right token from the same address is not refused (a family behind one address).
        right = {"seats": [{"table": table, "token": token}]}
        assert server.post("/api/account/claim", right) == {"claimed": 1}
        assert server.client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == "Ann"


def _held_by_ann_and_bob(ann: AccountServer) -> str:
    """A table whose two seats the accounts Ann and Bob (signed up here) hold."""
    bob = ann.browser()
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    old = ann.create("marshmallow-test", ["human", "human"])
    ann.join(old, 0)
    bob.join(old, 1)
    return old


def test_both_players_asking_for_the_rematch_at_once_copy_its_owners_once(any_db: str) -> None:
    # bench_server.py --accounts found it: two copies at once clashed (a 500).
    with account_server(any_db) as ann:
        old = _held_by_ann_and_bob(ann)
        new = ann.create("marshmallow-test", ["human", "human"])
        accounts = ann.accounts

        async def both() -> None:
            await asyncio.gather(accounts.copy_owners(old, new), accounts.copy_owners(old, new))

        ann.client.portal.call(both)  # type: ignore[union-attr]
        owners = ann.client.portal.call(_owners, accounts, new)  # type: ignore[union-attr]
        assert owners == [0, 1]


def test_two_processes_copy_a_rematchs_owners_at_once_without_a_clash(any_db: str) -> None:
    # Each process serialises its own copies; two processes must not clash either
    # (issue 27, item 6: the rematch's two askers may reach two processes).
    with account_server(any_db, limits=UNLIMITED) as ann:
        old = _held_by_ann_and_bob(ann)
        here = ann.accounts
        elsewhere = Accounts(here.engine, b"", Passwords(fast=True))  # another process's
        # Each new table is one chance for the two copies to interleave.
        for _ in range(10):
            new = ann.create("marshmallow-test", ["human", "human"])

            async def both(new: str = new) -> list[int]:
                await asyncio.gather(here.copy_owners(old, new), elsewhere.copy_owners(old, new))
                return await _owners(here, new)

            assert ann.client.portal.call(both) == [0, 1]  # type: ignore[union-attr]


async def _owners(accounts: Any, table_id: str) -> list[int]:
    async with accounts.engine.connect() as conn:
        query = select(account_seats.c.seat).where(account_seats.c.table_id == table_id)
        return sorted(r.seat for r in await conn.execute(query))
