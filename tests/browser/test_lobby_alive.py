"""A lobby that is alive (issue 29, item 1): the games in play to watch in one
click, your own unfinished tables first (marked "Your turn"), and the set-up
form folded, its bots named in words in every language."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.browser.helpers import Person, Server, run_axe
from tests.browser.test_analysis import post
from tests.browser.test_languages import VIEWPORTS, catalog, english_left

BOTS_ONLY = [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]
LEVELS = ("easy", "medium", "hard", "expert")


def marshmallow_levels(server: Server) -> list[dict[str, Any]]:
    """The levels ``GET /api/games`` offers for Marshmallow Test."""
    with urllib.request.urlopen(server.url + "/api/games") as answer:
        games = json.load(answer)
    levels: list[dict[str, Any]] = next(g for g in games if g["name"] == "marshmallow-test")[
        "levels"
    ]
    return levels


def bots_table(server: Server, private: bool) -> str:
    """A Marshmallow Test table of two bots (listed while it moves, unless private)."""
    body = {"game": "marshmallow-test", "options": {"players": 2}, "seats": BOTS_ONLY,
            "private": private, "rated": False, "bot_delay_ms": 1500}  # fmt: skip
    table: str = post(server, "/api/tables", body)["id"]
    return table


def test_a_game_in_play_is_listed_and_watch_opens_it_as_a_spectator(
    browser: Any, server: Server, axe_source: str
) -> None:
    public, private = bots_table(server, False), bots_table(server, True)
    ann = Person.open(browser, "Ann", viewport=VIEWPORTS["desktop"])
    page = ann.page
    page.goto(server.url + "/")
    item = page.locator(f"#in-play .play-item[data-table='{public}']")
    item.wait_for()
    assert page.locator(f"#in-play [data-table='{private}']").count() == 0  # never listed
    text = item.inner_text()
    assert "Round 1" in text and "Easy bot: 0" in text and "Medium bot: 0" in text
    # The first screen at 1280x800 holds play now and the games in play.
    assert item.bounding_box()["y"] < 800
    assert page.locator("#quick-heading").bounding_box()["y"] < 800
    assert run_axe(page, axe_source) == []
    item.get_by_role("link", name="Watch").click()
    page.wait_for_url(f"**/t/{public}")
    ann.wait_connected()
    assert page.locator("#turn-status").inner_text().startswith("You are watching")
    assert ann.errors == []
    ann.close()


def test_your_unfinished_tables_come_first_marked_your_turn(
    browser: Any, server: Server, axe_source: str
) -> None:
    ann = Person.open(browser, "Ann", viewport=VIEWPORTS["phone"])
    page = ann.page
    # First a public table that waits for a second person (not Ann's turn)...
    two = [{"kind": "human"}, {"kind": "human"}]
    waiting = post(server, "/api/tables", {"game": "marshmallow-test", "options": {"players": 2},
                                           "seats": two, "rated": False})["id"]  # fmt: skip
    page.goto(f"{server.url}/t/{waiting}")
    ann.join(0)
    # ...then a game against bots where it is Ann's turn.
    mine = ann.play_against_bots(server, "MyRummy 111")
    assert page.locator("#turn-status").inner_text() == "Your turn"
    page.goto(server.url + "/")
    items = page.locator("#your-tables .game-item")
    items.nth(1).wait_for()
    assert items.evaluate_all("els => els.map(e => e.dataset.table)") == [mine, waiting]
    assert "Your turn" in items.nth(0).inner_text()
    assert "Waiting for players" in items.nth(1).inner_text()
    # On a phone, your tables come first of all.
    assert (
        page.locator("#your-tables").bounding_box()["y"]
        < page.locator("#quick-heading").bounding_box()["y"]
    )
    assert run_axe(page, axe_source) == []
    items.nth(0).get_by_role("link").click()
    page.wait_for_url(f"**/t/{mine}")
    assert ann.errors == []
    ann.close()


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_set_up_form_is_folded_and_names_its_bots_in_words(
    browser: Any, server: Server, axe_source: str, lang: str
) -> None:
    words = catalog(lang)
    ann = Person.open(browser, "Ann", viewport=VIEWPORTS["desktop"], locale=lang)
    page = ann.page
    page.goto(server.url + "/")
    page.locator("#set-up").wait_for()
    assert page.locator("#set-up").get_attribute("open") is None
    assert not page.locator("#create-table").is_visible()
    page.locator("#set-up > summary").click()
    page.locator("#create-table").wait_for()  # the form's code comes when it is first opened
    assert page.locator("#create-table").is_visible()
    seat = page.locator("#seat-2")
    offered = seat.locator("option").all_inner_texts()
    assert offered == [words["lobby.seatHuman"]] + [words[f"lobby.bot.{level}"] for level in LEVELS]
    assert seat.locator("option:checked").inner_text() == words["lobby.bot.medium"]
    # Under the seats, what each level does and its published rating (issue 26, item 3).
    levels = {lv["name"]: lv for lv in marshmallow_levels(server)}
    legend = page.locator("#new-levels li").all_inner_texts()
    assert len(legend) == len(LEVELS)
    for line, level in zip(legend, LEVELS, strict=True):
        assert line.startswith(words[f"lobby.bot.{level}"]), line
        rating = levels[level]["rating"]
        assert rating is not None and str(rating) in line, (line, levels[level])
    decimal = "0.1" if lang == "en" else "0,1"  # the language's own numbers
    assert words["lobby.levelThinks"].split("{")[0].strip() in legend[1]
    assert decimal in legend[1] and "2" in legend[3], legend
    # The research bots by their names only under Advanced.
    assert page.locator("#new-research-bots").is_visible() is False
    page.locator(".create-form details.advanced > summary").click()
    page.locator("#new-research-bots").check()
    research = seat.locator("optgroup option").all_inner_texts()
    assert any("pimc" in name for name in research)
    assert seat.locator("option:checked").inner_text() == words["lobby.bot.medium"]
    if lang != "en":
        assert english_left(page, lang) == []
    assert run_axe(page, axe_source) == []
    assert ann.errors == []
    ann.close()
