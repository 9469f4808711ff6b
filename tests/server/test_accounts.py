"""Accounts: signing up, in and out (here and everywhere), passwords, deleting, login limits."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from cardtable.core.errors import CardtableError
from cardtable.server.login_limits import FORGET_MS, FREE_FAILURES, MAX_DELAY_MS, delay_ms
from cardtable.server.secret import SECRET_FILE, load_or_create_secret
from tests.server.accounts_helpers import Clock, account_server

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


def test_the_session_cookie_is_httponly_secure_and_lax(db_url: str) -> None:
    with account_server(db_url) as server:
        response = server.client.post(
            "/api/account/signup", json={"name": "Ann", "password": "correct horse"}
        )
        header = response.headers["set-cookie"].lower()
        assert "httponly" in header and "secure" in header and "samesite=lax" in header


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
        for _ in range(FREE_FAILURES):
            assert server.sign_in("Ann", "wrong password", 401)["error"] == (
                "the name or the password is wrong"
            )
        response = server.client.post(
            "/api/account/signin", json={"name": "Ann", "password": "correct horse"}
        )
        # Limited even with the right password: the limit guards the guess, not the answer.
        assert response.status_code == 429
        assert response.headers["Retry-After"] == str(delay_ms(FREE_FAILURES) // 1000)
        clock.ms += delay_ms(FREE_FAILURES)
        server.sign_in("Ann", "wrong again", 401)
        response = server.client.post(
            "/api/account/signin", json={"name": "Ann", "password": "correct horse"}
        )
        assert response.headers["Retry-After"] == str(delay_ms(FREE_FAILURES + 1) // 1000)
        assert delay_ms(FREE_FAILURES + 1) == 2 * delay_ms(FREE_FAILURES)
        clock.ms += delay_ms(FREE_FAILURES + 1)
        server.sign_in("Ann")  # waited enough: the right password works


def test_limits_hold_per_name_and_per_address(db_url: str) -> None:
    clock = Clock()
    with account_server(db_url, clock) as server:
        server.sign_up("Ann")
        server.browser().sign_up("Bea")
        accounts = server.accounts

        def attempt(name: str, password: str, address: str) -> str:
            async def go() -> str:
                try:
                    await accounts.sign_in(name, password, address)
                except Exception as exc:  # BadInput: its status is what we compare
                    return str(getattr(exc, "status", exc))
                return "ok"

            # On the server's own event loop, where its database connections live.
            return server.client.portal.call(go)  # type: ignore[union-attr]

        for i in range(FREE_FAILURES):  # one address guessing many names
            assert attempt(f"nobody{i}", "guess", "10.0.0.1") == "401"
        assert attempt("Bea", "correct horse", "10.0.0.1") == "429"
        assert attempt("Bea", "correct horse", "10.0.0.2") == "ok"
        for i in range(FREE_FAILURES):  # many addresses guessing one name
            assert attempt("Ann", "guess", f"10.1.0.{i}") == "401"
        assert attempt("Ann", "correct horse", "10.2.0.1") == "429"


def test_unknown_names_are_checked_against_a_dummy_hash(db_url: str) -> None:
    with account_server(db_url) as server:
        passwords = server.accounts.passwords
        checked: list[str] = []
        real = passwords.hasher

        class Spy:
            def verify(self, hashed: str, password: str) -> bool:
                checked.append(hashed)
                return real.verify(hashed, password)

        passwords.hasher = Spy()  # type: ignore[assignment]
        server.sign_in("Nobody", "whatever it is", 401)
        assert checked == [passwords.dummy]  # the same argon2 work as a real account's check


def test_deleting_an_account_keeps_its_games_under_deleted_player(any_db: str) -> None:
    with account_server(any_db) as server:
        server.sign_up("Ann")
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
        for _ in range(FREE_FAILURES + 3):
            server.sign_in("Ann", "wrong password", 401)
            clock.ms += MAX_DELAY_MS
        clock.ms += FORGET_MS
        server.sign_in("Ann", "wrong password", 401)  # counts as the first failure again
        server.sign_in("Ann", "correct horse")


def test_a_damaged_secret_is_refused_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / SECRET_FILE).write_text("not hex\n")
    with pytest.raises(CardtableError, match=r"not a session secret .* delete it"):
        load_or_create_secret(tmp_path)
