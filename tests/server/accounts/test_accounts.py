"""Accounts: signing up, in and out (here and everywhere), passwords, deleting, login limits."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
from http.cookies import Morsel, SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from httpx2 import ASGITransport, AsyncClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from cardtable.core.errors import CardtableError
from cardtable.server.accounts.accounts import Accounts
from cardtable.server.accounts.secret import SECRET_FILE, load_or_create_secret
from cardtable.server.accounts.signin_delays import (
    ADDRESS,
    FORGET_MS,
    MAX_DELAY_MS,
    NAME,
    PAIR,
    delay_ms,
)
from cardtable.server.db.schema import login_limits
from cardtable.server.settings import Limits
from tests.server.accounts_helpers import AccountServer, Clock, account_server

# The test client's own address is the trusted proxy: X-Forwarded-For names the client.
BEHIND_PROXY = Limits(trusted_proxies=frozenset({"testclient", "127.0.0.1"}))

pytestmark = pytest.mark.timeout(300, method="thread")


def test_sign_up_in_out_and_out_everywhere(any_db: str, tmp_path: Path) -> None:
    with account_server(any_db, data_dir=str(tmp_path)) as server:
        assert server.who() is None  # a guest until signing up
        assert server.sign_up("Ann") == {"account": {"name": "Ann"}}
        assert server.who() == "Ann"
        cookie = server.client.cookies.get("ct_session")
        assert cookie and "ct_session" in server.client.post(
            "/api/account/signout", json={}
        ).headers.get("set-cookie", "")
        assert server.who() is None
        server.client.cookies.set("ct_session", cookie)  # the old cookie no longer signs in
        assert server.who() is None
        phone, laptop = server.browser(), server.browser()
        phone.sign_in("ann")  # names are case-insensitive
        laptop.sign_in("Ann")
        assert phone.who() == laptop.who() == "Ann"
        phone.post("/api/account/signout-everywhere")
        assert phone.who() is None and laptop.who() is None


def cookie_of(response: Any) -> Morsel[str]:
    """The ``ct_session`` cookie a response sets, parsed."""
    jar: SimpleCookie = SimpleCookie()
    jar.load(response.headers["set-cookie"])
    return jar["ct_session"]


def test_the_session_cookie_is_httponly_secure_lax_and_lasts_as_long_as_a_session(
    db_url: str,
) -> None:
    with account_server(db_url) as server:
        response = server.client.post(
            "/api/account/signup", json={"name": "Ann", "password": "correct horse"}
        )
        set_cookie = cookie_of(response)
        assert set_cookie.value and set_cookie["path"] == "/"
        assert set_cookie["max-age"] == str(60 * 24 * 3600)  # Accounts.SESSION_MS, in seconds
        assert set_cookie["secure"] and set_cookie["httponly"]
        # Attribute values are case-insensitive (RFC 6265): "LAX" would be the same cookie.
        assert set_cookie["samesite"].lower() == "lax"
        # Signing out clears that very cookie: same name, path and flags, expired now.
        response = server.client.post("/api/account/signout", json={})
        assert response.json() == {"account": None}
        cleared = cookie_of(response)
        assert (cleared.value, cleared["max-age"], cleared["path"]) == ("", "0", "/")
        assert cleared["secure"] and cleared["httponly"]
        assert cleared["samesite"].lower() == "lax"


def test_a_route_for_the_signed_in_says_so_to_a_stranger(db_url: str) -> None:
    with account_server(db_url) as server:
        for path in ("/api/account/password", "/api/account/signout-everywhere"):
            response = server.client.post(path, json={})
            assert response.status_code == 401
            assert response.json()["error"] == f"{path}: sign in first"


def test_names_are_unique_case_insensitively_and_follow_the_name_rules(db_url: str) -> None:
    with account_server(db_url) as server:
        server.sign_up("Ann")
        taken = server.browser().sign_up("ANN", status=409)
        assert taken["error"] == "the name 'ANN' is taken; choose another"
        assert "1 to 32 characters" in server.sign_up("  ", status=400)["error"]
        assert "control characters" in server.sign_up("A\x07nn", status=400)["error"]
        assert "8 to 200 characters" in server.sign_up("Bea", "short", status=400)["error"]
        assert "reserved" in server.sign_up("Deleted Player", status=409)["error"]


def test_change_password_ends_other_sessions(any_db: str) -> None:
    with account_server(any_db) as server:
        server.sign_up("Ann")
        other = server.browser()
        other.sign_in("Ann")
        wrong = server.post(
            "/api/account/password", {"old": "not it at all", "new": "battery staple"}, 403
        )
        assert wrong["error"] == "the password is wrong"
        server.post("/api/account/password", {"old": "correct horse", "new": "battery staple"})
        assert server.who() == "Ann"  # this browser got a new session
        assert other.who() is None
        other.sign_in("Ann", "correct horse", status=401)
        other.sign_in("Ann", "battery staple")


def test_wrong_passwords_make_the_name_wait_longer_and_longer(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, clock) as server:
        server.sign_up("Ann")
        guesser = server.browser()  # no session of Ann's: one her failures hold up
        for _ in range(PAIR.free):
            assert guesser.sign_in("Ann", "wrong password", 401)["error"] == (
                "the name or the password is wrong"
            )
        response = guesser.client.post(
            "/api/account/signin", json={"name": "Ann", "password": "correct horse"}
        )
        # Limited even with the right password: the limit guards the guess, not the answer.
        assert response.status_code == 429
        assert response.headers["Retry-After"] == str(delay_ms(PAIR.free, PAIR) // 1000)
        clock.ms += delay_ms(PAIR.free, PAIR)
        guesser.sign_in("Ann", "wrong again", 401)
        response = guesser.client.post(
            "/api/account/signin", json={"name": "Ann", "password": "correct horse"}
        )
        assert response.headers["Retry-After"] == str(delay_ms(PAIR.free + 1, PAIR) // 1000)
        assert delay_ms(PAIR.free + 1, PAIR) == 2 * delay_ms(PAIR.free, PAIR)
        clock.ms += delay_ms(PAIR.free + 1, PAIR)
        guesser.sign_in("Ann")  # waited enough: the right password works


def test_an_attempt_that_read_the_clock_before_another_still_gets_its_free_failure(
    db_url: str,
) -> None:
    # Two requests at once: the one that read the clock first may be counted second.
    clock = Clock()
    with account_server(db_url, clock) as server:
        server.sign_up("Ann")
        guesser = server.browser()
        guesser.sign_in("Ann", "wrong password", 401)
        clock.ms -= 1
        guesser.sign_in("Ann", "wrong password", 401)


def sign_in_from(server: AccountServer, address: str, name: str, password: str) -> int:
    """A sign-in from ``address`` (through the trusted proxy): its status."""
    response = server.client.post(
        "/api/account/signin",
        json={"name": name, "password": password},
        headers={"X-Forwarded-For": address},
    )
    assert response.status_code in (200, 401, 429), response.text
    return response.status_code


def test_a_stranger_cannot_lock_the_owner_out(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, clock, limits=BEHIND_PROXY) as server:
        owner = server.browser()
        owner.client.post(  # from home, which becomes an address she signed in from
            "/api/account/signup",
            json={"name": "Bobby", "password": "correct horse"},
            headers={"X-Forwarded-For": "10.0.0.1"},
        )
        stranger = server.browser()
        codes = [sign_in_from(stranger, "10.6.6.6", "Bobby", "guess") for _ in range(30)]
        assert codes == [401] * PAIR.free + [429] * (30 - PAIR.free)
        # Her right password from a new address is not held up by the stranger's guesses.
        assert sign_in_from(server.browser(), "10.0.0.2", "Bobby", "correct horse") == 200
        # Guesses from many places use up the name's own, larger budget ...
        for i in range(NAME.free - PAIR.free):
            assert sign_in_from(stranger, f"10.7.{i // 200}.{i % 200}", "Bobby", "guess") == 401
        assert sign_in_from(stranger, "10.8.0.1", "Bobby", "guess") == 429
        assert sign_in_from(server.browser(), "10.0.0.3", "Bobby", "correct horse") == 429
        # ... but not for her at home, nor on a device she is signed in on.
        assert sign_in_from(server.browser(), "10.0.0.1", "Bobby", "correct horse") == 200
        assert sign_in_from(owner, "10.9.9.9", "Bobby", "correct horse") == 200
        # Her session does not let others through, nor her home the others' guesses.
        assert sign_in_from(stranger, "10.0.0.1", "Bobby", "guess") == 401


def test_one_address_guessing_many_names_waits(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, clock, limits=BEHIND_PROXY) as server:
        for name, address in (("Ann", "10.0.0.1"), ("Bea", "10.0.0.2")):
            server.browser().client.post(
                "/api/account/signup",
                json={"name": name, "password": "correct horse"},
                headers={"X-Forwarded-For": address},
            )
        guesser = server.browser()
        for i in range(ADDRESS.free):
            assert sign_in_from(guesser, "10.0.0.1", f"nobody{i}", "guess") == 401
        assert sign_in_from(guesser, "10.0.0.1", "nobody else", "guess") == 429
        assert sign_in_from(server.browser(), "10.0.0.1", "Bea", "correct horse") == 429
        # Ann signed in from there before; and another address is not held up.
        assert sign_in_from(server.browser(), "10.0.0.1", "Ann", "correct horse") == 200
        assert sign_in_from(server.browser(), "10.0.0.3", "Bea", "correct horse") == 200
        clock.ms += MAX_DELAY_MS
        assert sign_in_from(guesser, "10.0.0.1", "nobody else", "guess") == 401


def count_checks(server: AccountServer) -> list[str]:
    """The hashes each password check compares with, from now on (a list filled in place)."""
    passwords = server.accounts.passwords
    checked: list[str] = []
    real = passwords.hasher

    class Spy:
        def verify(self, hashed: str, password: str) -> bool:
            checked.append(hashed)
            return real.verify(hashed, password)

    passwords.hasher = Spy()  # type: ignore[assignment]
    return checked


def test_a_burst_of_wrong_guesses_checks_no_more_than_one_after_another(any_db: str) -> None:
    with account_server(any_db, Clock()) as server:
        server.sign_up("Ann")
        checked = count_checks(server)

        async def burst() -> list[int]:
            # 30 requests at once into the app, on its own event loop.
            transport = ASGITransport(app=server.client.app)
            async with AsyncClient(transport=transport, base_url="https://testserver") as client:
                answers = await asyncio.gather(
                    *(
                        client.post("/api/account/signin", json={"name": "Ann", "password": "x"})
                        for _ in range(30)
                    )
                )
            return [a.status_code for a in answers]

        codes = server.client.portal.call(burst)  # type: ignore[union-attr]
        assert sorted(codes) == [401] * PAIR.free + [429] * (30 - PAIR.free)
        assert len(checked) == PAIR.free


def test_two_processes_share_the_count_of_a_burst(any_db: str) -> None:
    with account_server(any_db, Clock()) as server:
        server.sign_up("Ann")
        checked = count_checks(server)
        here = server.accounts

        async def burst() -> list[str]:
            # Another process: its own engine (connections) on the same database.
            engine = create_async_engine(any_db)
            there = Accounts(engine, here.secret, here.passwords, here.clock)

            async def attempt(accounts: Accounts, i: int) -> str:
                try:
                    await accounts.sign_in("Ann", f"guess {i}", "10.0.0.1")
                except Exception as exc:  # BadInput: its status is what we compare
                    return str(getattr(exc, "status", exc))
                return "ok"

            try:
                return list(
                    await asyncio.gather(*(attempt((here, there)[i % 2], i) for i in range(30)))
                )
            finally:
                await engine.dispose()

        codes = server.client.portal.call(burst)  # type: ignore[union-attr]
        assert sorted(codes) == ["401"] * PAIR.free + ["429"] * (30 - PAIR.free)
        assert len(checked) == PAIR.free


def limit_keys(server: AccountServer) -> list[str]:
    """The keys of ``ct_login_limits``."""

    async def read() -> list[str]:
        async with server.accounts.engine.connect() as conn:
            return list((await conn.execute(select(login_limits.c.key))).scalars())

    return server.client.portal.call(read)  # type: ignore[union-attr]


def test_unknown_names_are_checked_against_a_dummy_hash(db_url: str) -> None:
    with account_server(db_url) as server:
        checked = count_checks(server)
        server.sign_in("Nobody", "whatever it is", 401)
        assert checked == [server.accounts.passwords.dummy]  # the same argon2 work as a check


def test_deleting_an_account_keeps_its_games_under_deleted_player(any_db: str) -> None:
    with account_server(any_db) as server:
        server.sign_up("Ann")
        assert [key for key in limit_keys(server) if key.startswith("known:")]
        table = server.create("marshmallow-test", ["human", "random"])
        server.join(table, 0, "ignored: the account's name is used")
        assert server.client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == "Ann"
        assert server.post("/api/account/delete", {"password": "wrong one"}, 403)
        server.post("/api/account/delete", {"password": "correct horse"})
        assert server.who() is None
        assert server.client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == (
            "deleted player"
        )
        assert server.client.get("/api/players/Ann").status_code == 404
        assert not [key for key in limit_keys(server) if key.startswith("known:")]
        server.sign_in("Ann", status=401)
        server.sign_up("Ann")  # the name is free again
    with account_server(any_db) as server:  # and the rename was stored
        assert server.client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == (
            "deleted player"
        )


def test_sessions_survive_a_restart_and_the_secret_is_private(db_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    with account_server(db_url, data_dir=str(folder)) as server:
        server.sign_up("Ann")
        cookie = server.client.cookies.get("ct_session")
    secret = folder / SECRET_FILE
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    first = secret.read_bytes()
    with account_server(db_url, data_dir=str(folder)) as server:
        assert secret.read_bytes() == first
        server.client.cookies.set("ct_session", str(cookie))
        assert server.who() == "Ann"
    with account_server(db_url, data_dir=str(tmp_path / "elsewhere")) as server:
        server.client.cookies.set("ct_session", str(cookie))
        assert server.who() is None  # another secret: the stored session does not match


def test_admin_reset_password(db_url: str, tmp_path: Path) -> None:
    with account_server(db_url) as server:
        server.sign_up("Ann")
    run = ["cardtable", "admin", "reset-password"]
    url = db_url.replace("+aiosqlite", "")
    done = subprocess.run([*run, "ann", "--db", url], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    password = done.stdout.split(" is ")[1].split()[0]
    missing = subprocess.run(
        [*run, "Zed", "--db", url], capture_output=True, text=True, check=False
    )
    assert missing.returncode == 2
    assert missing.stderr.strip() == "error: reset-password 'Zed': there is no account named 'Zed'"
    with account_server(db_url) as server:
        server.sign_in("Ann", status=401)
        server.sign_in("Ann", password)


def test_a_session_ends_when_its_cookie_would(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, clock) as server:
        server.sign_up("Ann")
        clock.ms += server.accounts.SESSION_MS - 1
        assert server.who() == "Ann"
        clock.ms += 1
        assert server.who() is None


def test_failures_are_forgotten_after_a_quiet_spell(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, clock) as server:
        server.sign_up("Ann")
        guesser = server.browser()
        for _ in range(PAIR.free + 3):
            guesser.sign_in("Ann", "wrong password", 401)
            clock.ms += MAX_DELAY_MS
        guesser.sign_in("Ann", "wrong password", 401)
        guesser.sign_in("Ann", "wrong password", 429)
        clock.ms += FORGET_MS
        guesser.sign_in("Ann", "wrong password", 401)  # counts as the first failure again
        for _ in range(PAIR.free - 2):
            guesser.sign_in("Ann", "wrong password", 401)
        guesser.sign_in("Ann", "correct horse")


def test_a_damaged_secret_is_refused_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / SECRET_FILE).write_text("not hex\n")
    with pytest.raises(CardtableError, match=r"not a session secret .* delete it"):
        load_or_create_secret(tmp_path)
