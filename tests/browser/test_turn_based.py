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


def table_facts(server: Server, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}", timeout=10) as response:
        facts: dict[str, Any] = json.load(response)
    return facts


def test_a_turn_based_table_is_set_up_in_the_lobby_and_counts_hours(
    browser: Any, server: Server, axe_source: str
) -> None:
    ann = Person.open(browser, "Ann", locale="de-DE")
    page = ann.page
    page.goto(server.url + "/")
    page.locator("#set-up > summary").click()
    page.locator("#new-game").select_option("marshmallow-test")
    page.locator("#new-players").select_option("2")
    page.locator("#seat-1").select_option("bot:easy")
    assert page.locator("#new-timer").is_visible()
    assert page.locator("#new-on-timeout").is_hidden()
    page.locator("#new-speed").select_option("24")
    assert page.locator("#new-timer").is_hidden()  # seconds make no sense at a day a move
    assert page.locator("#new-speed option:checked").inner_text() == "Rundenbasiert: 1 Tag pro Zug"
    page.locator("#new-on-timeout").select_option("drop")
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
