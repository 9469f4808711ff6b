"""A turn-based table from the lobby (issue 30, item 1), in German: the
set-up form offers hours per move and what their end does (the real-time
turn timer folds away), and the table counts the mover's time in hours and
minutes, not seconds."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser.helpers import DESKTOP, PHONE, Person, Server, run_axe
from tests.browser.test_friends import signed_up
from tests.server.helpers import running
from tests.server.live.test_lobby_lifecycle import Clock, sweep
from tests.server.live.test_turn_based import HOUR, MT, limits, mover, play_some


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


SHOTS = Path("/tmp/shots/records")
ENDED_WORDS = {
    "en-GB": "The game ended when Ann’s move time ran out",
    "de-DE": "Das Spiel endete, als die Zugzeit von Ann ablief",
    "fr-FR": "La partie s’est arrêtée quand le temps de jeu de Ann s’est écoulé",
}


def test_the_lobby_offers_ending_the_game_when_time_runs_out(browser: Any, server: Server) -> None:
    """Issue 30, item 1's third choice: "or the game ends with that person last"."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for locale, words in (("en-GB", "The game ends"), ("de-DE", "Das Spiel endet")):
        ann = Person.open(browser, "Ann", locale=locale)
        page = ann.page
        page.goto(server.url + "/")
        turn_based_table(page)
        page.locator("#new-on-timeout").select_option("end")
        chosen = page.locator("#new-on-timeout option:checked").inner_text()
        assert chosen.startswith(words), chosen
        page.locator("#player-name").fill("Ann")
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            page.locator("#new-on-timeout").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"lobby-on-timeout-{locale}-{name}.png"))
        page.locator("#create-table").click()
        ann.wait_seated()
        facts = table_facts(server, page.url.rsplit("/", 1)[1])
        assert (facts["move_hours"], facts["on_timeout"]) == (24, "end")
        assert ann.errors == []
        ann.close()


def test_a_game_ended_on_time_says_why_on_its_end_screen(
    browser: Any, tmp_path: Path, axe_source: str
) -> None:
    """The deadline passes on the test's clock (in-process), then the real
    server starts on the same database (a restart) and Bea's page shows the
    final standings: Ann, who ran out of time, last and the reason said."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "tables.sqlite3"
    clock = Clock()
    with running(f"sqlite+aiosqlite:///{db}", limits=limits(clock)) as made:
        table = made.create(MT, ["human", "human"], move_hours=1, on_timeout="end")
        tokens = [made.join(table, 0, "Ann"), made.join(table, 1, "Bea")]
        seat, _ = mover(made, table, tokens)
        if seat != 0:  # Ann is the one to run out: Bea moves first
            play_some(made, table, tokens, 1, seed=3)
        late, _ = mover(made, table, tokens)
        assert late == 0
        clock.now += HOUR
        sweep(made)
    served = Server(db)
    served.start()
    try:
        for locale, words in ENDED_WORDS.items():
            bea = Person.open(browser, "Bea", locale=locale)
            page = bea.page
            saved = json.dumps(json.dumps({"seat": 1, "token": tokens[1]}))
            page.add_init_script(f"localStorage.setItem('cardtable.seat.{table}', {saved})")
            page.goto(f"{served.url}/t/{table}")
            page.wait_for_selector("#end-panel:not([hidden])")
            ended = page.locator("#end-ended")
            assert ended.inner_text().startswith(words), ended.inner_text()
            assert ended.get_attribute("data-seat") == "0"
            standings = page.locator(".standings .standing-name").all_inner_texts()
            assert standings == ["Bea", "Ann"]  # the late person last
            assert page.locator("#end-decided").count() == 0
            assert run_axe(page, axe_source) == []
            for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
                page.set_viewport_size(size)
                page.screenshot(path=str(SHOTS / f"ended-{locale}-{name}.png"), full_page=True)
            assert bea.errors == []
            bea.close()
    finally:
        served.stop()
