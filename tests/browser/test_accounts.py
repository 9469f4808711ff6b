"""Accounts in the browser: a guest plays, signs up and keeps the seat; My games
shows the game (your turn first, and the tab says so elsewhere on the site);
the profile counts games; signing out; every page passes axe-core."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser.helpers import PHONE, Person, Server, play_until_finished, run_axe, shoot
from tests.browser.test_analysis import play


def sign_up(page: Any, name: str, lands_on: str) -> None:
    """Fill in the account page's sign-up form; wait for the page it leads to."""
    page.locator("#sign-up-name").fill(name)
    page.locator("#sign-up-password").fill("correct horse")
    page.locator("#sign-up button[type=submit]").click()
    page.wait_for_url(lands_on)


def test_a_guest_signs_up_keeps_the_seat_and_finds_it_in_my_games(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    ann = Person.open(browser, "Ann")
    page = ann.page
    table_id = ann.play_against_bots(server, "Marshmallow Test")
    # Leave when the bots have played up to her: her turn stays hers while she is away
    # (for the grace period before a stand-in plays for her).
    page.wait_for_selector("#turn-status[data-mine='true']")
    assert page.locator("#nav-sign-in").inner_text() == "Sign in"  # a guest, as before

    page.locator("#nav-sign-in").click()
    page.wait_for_selector("#sign-up")
    shoot(page, screenshots, "account-guest-desktop")
    assert run_axe(page, axe_source) == []
    sign_up(page, "Ann Lee", "**/me?claimed=1")
    item = page.locator(f"#in-progress [data-table='{table_id}']")
    item.wait_for()
    assert "1 seat you held as a guest is now in your account." in page.inner_text("main")
    assert page.locator("#nav-account").inner_text() == "Ann Lee"
    # Away from the table, with the game waiting for her: the tab says so.
    page.wait_for_selector("body[data-your-turn='yes']")
    assert page.title().startswith("(1) Your turn ")
    assert item.locator(".badge").inner_text() == "Your turn"
    assert page.locator("#nav-turns").inner_text() == "Your turn: 1"  # on every page
    shoot(page, screenshots, "my-games-desktop")
    assert run_axe(page, axe_source) == []

    # The table now shows her account's name at her seat.
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}", timeout=10) as response:
        assert json.load(response)["seats"][0]["name"] == "Ann Lee"

    page.goto(server.url + "/players/ann%20lee")
    page.wait_for_selector("#played-heading")
    assert page.locator("h1").inner_text() == "Ann Lee"
    assert page.title() in ("Ann Lee — cardtable", "(1) Your turn Ann Lee — cardtable")
    shoot(page, screenshots, "profile-desktop")
    assert run_axe(page, axe_source) == []

    phone = page.context.new_page()
    phone.set_viewport_size(PHONE)
    for path, ready, name in (
        ("/me", "#in-progress", "my-games-phone"),
        ("/account", "#sign-out", "account-phone"),
    ):
        phone.goto(server.url + path)
        phone.wait_for_selector(ready)
        shoot(phone, screenshots, name)
    assert run_axe(phone, axe_source) == []
    phone.close()

    page.goto(server.url + "/account")
    page.locator("#sign-out").click()
    page.wait_for_url(server.url + "/")
    page.wait_for_selector("#nav-sign-in")
    assert ann.errors == []
    ann.close()


def test_a_wrong_password_is_worded_by_the_catalog(browser: Any, server: Server) -> None:
    bea = Person.open(browser, "Bea", viewport=PHONE)
    page = bea.page
    page.goto(server.url + "/account")
    page.locator("#sign-in-name").fill("Nobody Here")
    page.locator("#sign-in-password").fill("not a password")
    page.locator("#sign-in button[type=submit]").click()
    error = page.locator("#sign-in .error:not(:empty)")
    error.wait_for()
    assert error.inner_text() == "The name or the password is wrong."
    bea.close()


def test_a_finished_game_is_listed_with_its_result_replay_and_record(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    cleo = Person.open(browser, "Cleo")
    page = cleo.page
    page.goto(server.url + "/account")
    sign_up(page, "Cleo", "**/me")
    created = page.request.post(
        server.url + "/api/tables",
        data={
            "game": "marshmallow-test",
            "options": {"target": 4},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "bot_delay_ms": 0,
        },
    ).json()
    page.goto(f"{server.url}/t/{created['id']}")
    cleo.join(0)
    cleo.wait_connected()
    play_until_finished([cleo], play)

    page.goto(server.url + "/me")
    item = page.locator(f"#finished [data-table='{created['id']}']")
    item.wait_for()
    with urllib.request.urlopen(f"{server.url}/api/tables/{created['id']}", timeout=10) as r:
        assert json.load(r)["status"] == "finished"
    result = item.locator(".badge").inner_text()
    assert result in ("Won", "Shared win", "Lost")
    assert item.get_by_role("link", name="Download record").get_attribute("href") == (
        f"/api/tables/{created['id']}/record"
    )
    shoot(page, screenshots, "my-games-finished-desktop")
    assert run_axe(page, axe_source) == []
    page.goto(server.url + "/players/Cleo")
    page.wait_for_selector("#played")
    assert page.locator("#played li .game-item-text").inner_text().split() == [
        "Marshmallow",
        "Test",
        "1",
        "game",
    ]
    assert page.locator("#recent .badge").inner_text() == result
    shoot(page, screenshots, "profile-played-desktop")
    page.goto(server.url + "/me")
    page.locator(f"#finished [data-table='{created['id']}']").get_by_role(
        "link", name="Replay"
    ).click()
    page.wait_for_selector("#replay:not([hidden])")  # the replay opens by itself
    assert cleo.errors == []
    cleo.close()
