"""The live table and its round summary in German and French (issue 16): no
English left, axe-core clean, the score table whole in its panel with four
players, and the one-screen layout kept — desktop 1280x800 and a 390x844
phone, for both games. Screenshots go to test-artifacts/ and SHOTS."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import STATUS_JS, Person, Server, run_axe, shoot
from tests.browser.test_languages import catalog, english_left
from tests.browser.test_table_feel import NEXT_JS, check_one_screen, check_scores, create, play_one

SHOTS = Path("/work/wt/screens16t")  # where the reviewer looks; test-artifacts/ gets a copy too
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
# Nothing is wider than the screen: the page, and the board (which would
# scroll sideways inside itself).
NARROW_JS = """() => { const board = document.querySelector('#board');
  return document.documentElement.scrollWidth <= innerWidth
    && board.scrollWidth <= board.clientWidth + 1; }"""
GAMES = {"marshmallow-test": {"target": 30}, "myrummy-111": {"turn_limit": 4, "rounds": 2}}


def sit(browser: Any, server: Server, table: str, lang: str, viewport: str) -> Person:
    phone = viewport == "phone"
    person = Person.open(
        browser, "Ann", viewport=VIEWPORTS[viewport], locale=lang, is_mobile=phone, has_touch=phone
    )
    page = person.page
    page.goto(f"{server.url}/t/{table}")
    page.locator("#join-name").fill("Ann")  # its label is in the page's language
    page.locator("#join-panel button[data-seat='0']").click()
    page.wait_for_selector("#join-panel", state="hidden")
    page.wait_for_function("() => document.querySelector('#board .is-me') !== null")
    person.wait_connected()
    assert page.evaluate("document.documentElement.lang") == lang
    return person


def save(page: Any, screenshots: Path, name: str) -> None:
    path = shoot(page, screenshots, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def check_letters(page: Any, lang: str) -> None:
    """Marshmallow Test's corner letters are the language's initials of the colours."""
    words = catalog(lang, "marshmallow-test")
    for card in page.locator(".mt-hand button.card").all():
        colour = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}[
            (card.get_attribute("data-card") or "?")[0]
        ]
        assert card.locator(".mt-corner").first.inner_text().strip() == words[f"letter.{colour}"]


def check_out_places(page: Any, lang: str) -> None:
    """Who went out first says so in words, with no "1." (a numbered list to the
    eye, and in German a full stop in the middle of the line of facts)."""
    facts = page.locator("#summary").inner_text()
    assert catalog(lang, "marshmallow-test")["summary.outFirst"] in facts, facts
    assert not re.search(r"\d\.(?!\d)", facts), facts  # "1." but not "MT-6.2"


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_live_table_and_its_summary_in_german_and_french(
    browser: Any, server: Server, axe_source: str, screenshots: Path, game: str, lang: str
) -> None:
    for viewport in VIEWPORTS:
        # Four players, the bots at a pace the page sees every state of.
        table = create(server, game, GAMES[game], 4, 250)
        person = sit(browser, server, table, lang, viewport)
        page = person.page
        label = f"{game}-{lang}-{viewport}"
        table_seen = summary_seen = False
        for _ in range(400):
            if page.locator("#summary:not([hidden])").count():
                assert page.evaluate(NARROW_JS), (label, "summary")
                assert english_left(page, lang) == [], (label, "summary")
                assert run_axe(page, axe_source) == [], (label, "summary")
                if game == "marshmallow-test":
                    check_out_places(page, lang)
                save(page, screenshots, f"table16-{game}-summary-{lang}-{viewport}")
                summary_seen = True
                break
            state = page.evaluate(STATUS_JS)
            assert not state["finished"], label
            if state["mine"]:
                if not table_seen:
                    save(page, screenshots, f"table16-{game}-table-{lang}-{viewport}")
                    check_one_screen(person, label, seats=3)
                    assert page.evaluate(NARROW_JS), (label, "table")
                    assert english_left(page, lang) == [], (label, "table")
                    assert run_axe(page, axe_source) == [], (label, "table")
                    if game == "marshmallow-test":
                        check_letters(page, lang)
                    check_scores(page, viewport == "phone", label)
                    table_seen = True
                play_one(person, game)
            else:
                page.wait_for_function(NEXT_JS)
        assert table_seen and summary_seen, label
        assert person.errors == [], person.errors
        person.close()
