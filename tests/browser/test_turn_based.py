"""A turn-based table from the lobby (issue 30, item 1), in German: the
set-up form offers hours per move and what their end does (the real-time
turn timer folds away), and the table counts the mover's time in hours and
minutes, not seconds."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from tests.browser.helpers import PHONE, Person, Server, run_axe
from tests.browser.test_friends import signed_up


def table_facts(server: Server, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}", timeout=10) as response:
        facts: dict[str, Any] = json.load(response)
    return facts


def turn_based_table(page: Any) -> None:
    """Set up a two-seat Marshmallow Test against an easy bot, a day a move,
    the person dropped when their time runs out, from the lobby's form."""
    page.locator("#set-up > summary").click()
    page.locator("#new-game").select_option("marshmallow-test")
    page.locator("#new-players").select_option("2")
    page.locator("#seat-1").select_option("bot:easy")
    page.locator("#new-speed").select_option("24")
    page.locator("#new-on-timeout").select_option("drop")


def test_a_turn_based_table_is_set_up_in_the_lobby_and_counts_hours(
    browser: Any, server: Server, axe_source: str
) -> None:
    ann = Person.open(browser, "Ann", locale="de-DE")
    page = ann.page
    page.goto(server.url + "/")
    assert page.locator("#new-timer").is_hidden()  # folded with the set-up form
    turn_based_table(page)
    assert page.locator("#new-timer").is_hidden()  # seconds make no sense at a day a move
    assert page.locator("#new-speed option:checked").inner_text() == "Rundenbasiert: 1 Tag pro Zug"
    page.locator("#new-speed").select_option("")
    assert page.locator("#new-timer").is_visible() and page.locator("#new-on-timeout").is_hidden()
    page.locator("#new-speed").select_option("24")
    page.locator("#player-name").fill("Ann")
    assert run_axe(page, axe_source) == []
    page.locator("#create-table").click()
    ann.wait_seated()
    table = page.url.rsplit("/", 1)[1]
    facts = table_facts(server, table)
    assert (facts["move_hours"], facts["on_timeout"], facts["turn_seconds"]) == (24, "drop", None)
    page.wait_for_function(
        "() => document.querySelector('#board .is-me') !== null"
        " && !document.querySelector('#turn-timer').hidden"
        " && document.querySelector('#turn-timer').textContent.startsWith('Ann')"
    )
    text = page.locator("#turn-timer").inner_text()
    assert re.fullmatch(r"Ann: noch (23 Std\. \d+ Min\.|24 Std\.) für den Zug", text), text
    page.set_viewport_size(PHONE)
    page.screenshot(path="/tmp/shots/turn-based-table-de-phone.png")
    assert ann.errors == []
    ann.close()


def test_games_waiting_for_you_are_counted_on_every_page_and_listed_with_their_time(
    browser: Any, server: Server, axe_source: str
) -> None:
    """Issue 30, item 2: away from the table, the header says how many games
    wait for the person's move and links to /my/turns, which lists them with
    the time left; the tab's title counts them too."""
    lea = signed_up(browser, server, "Lea Turn", "de-DE")
    page = lea.page
    page.goto(server.url + "/")
    turn_based_table(page)
    page.locator("#create-table").click()
    page.wait_for_function(
        "() => document.querySelector('#turn-status[data-mine=\"true\"]') !== null"
    )
    table = page.url.rsplit("/", 1)[1]
    page.goto(server.url + "/friends")  # any other page
    page.wait_for_selector("#nav-turns:not([hidden])")
    assert page.locator("#nav-turns").inner_text() == "Du bist dran: 1"
    assert page.title().startswith("(1) Du bist dran ")
    page.locator("#nav-turns").click()
    page.wait_for_url("**/my/turns")
    item = page.locator(f"#your-turns [data-table='{table}']")
    item.wait_for()
    left = item.locator(".time-left").inner_text()
    assert re.fullmatch(r"noch (23 Std\. \d+ Min\.|24 Std\.)", left), left
    assert page.locator("h1").inner_text() == "Spiele, die auf dich warten"
    assert run_axe(page, axe_source) == []
    for name, size in (("desktop", {"width": 1280, "height": 800}), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.screenshot(path=f"/tmp/shots/my-turns-de-{name}.png")
    assert lea.errors == []
    lea.close()
