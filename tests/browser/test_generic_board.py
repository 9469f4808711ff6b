"""A game that brings no browser drawing (the plugin fixture game, Fixture
Trick: no ``web_client``) played in the browser through the generic board:
one click in the lobby against its bots, then whole games — at a desktop by
keys alone, on a phone in dark mode by taps — with the engine's refusals beside the cards
(FT-1, FT-2), axe-core clean, nothing wider than a phone, and no card a seat
may not see on its page or in its frames."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import helpers
from tests.browser.helpers import PAGE_JS, PHONE, Person, Server, run_axe, shoot
from tests.fixtures.plugin import registered

CARD = r"\b[ABC][1-4]\b"
TITLE = "Fixture Trick"
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def visible(view: dict[str, Any]) -> set[str]:
    """What a Fixture Trick view shows: its own hand and this round's plays."""
    return {*view["hand"], *(card for _, card in [*view["played"], *view["trick"]])}


CARDS = helpers.Cards(
    visible=visible,
    in_text=lambda text: set(re.findall(CARD, text)),
    on_page=lambda html: set(re.findall(CARD, html)),
    in_move=lambda move: move.get("play"),
)


@pytest.fixture(scope="module")
def plugin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``cardtable serve`` with the fixture game installed as a plugin."""
    with registered():
        running = Server(tmp_path_factory.mktemp("generic") / "tables.sqlite3")
        running.start()
        yield running
        running.stop()


def record_of(server: Server, page: Any) -> dict[str, Any]:
    table_id = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}/record", timeout=10) as r:
        record: dict[str, Any] = json.load(r)
    return record


def play_on_the_generic_board(person: Person, server: Server) -> None:
    """The lobby's one click, for a game without a board of its own."""
    page = person.page
    person.play_against_bots(server, TITLE)
    assert page.locator("#board .gb-table").count() == 1  # the generic board draws it
    assert page.locator("#board .gb-seat.is-me .seat-name").inner_text().startswith(person.name)


def read_refusals(page: Any, notes: dict[str, int]) -> None:
    """The refused moves listed now: each with the engine's reason and its FT rule."""
    for reason in page.locator(".gb-refused li").all_text_contents():
        assert re.search(r"\(FT-[12]\)$", reason), reason
        notes["refusals"] += 1


def logged_rows(page: Any) -> list[str]:
    """The log's lines that give a round's points ("Round 1: Ann 2, Bot 1.")."""
    lines = page.locator(".log-lines:not(.table-events) li").all_text_contents()
    return [line for line in lines if re.match(r"Round \d+: ", line)]


def no_row_for_the_round_in_play(page: Any) -> None:
    """The view's ``round_scores`` holds finished rounds only (docs/browser.md),
    so no "Round 2: Ann 0, Bot 0." is said as round 2 starts."""
    in_play = page.locator(".gb-round").inner_text()  # "Round 2"
    said = [*logged_rows(page), page.locator("#last-event").text_content() or ""]
    assert not [line for line in said if line.startswith(f"{in_play}:")], said


def tap_a_refused_card(page: Any) -> None:
    """A card of the hand that may not be played says why when tapped (FT-2: follow suit)."""
    refused = page.locator(".gb-hand-cards button[aria-disabled='true']")
    if refused.count():
        refused.first.tap(force=True)
        reason = page.locator(".gb-reason").inner_text()
        assert reason.endswith("(FT-2)") and reason in (refused.first.get_attribute("title") or "")


def test_a_game_without_a_board_is_played_by_keys_alone_through_the_generic_board(
    browser: Any, plugin_server: Server, axe_source: str, screenshots: Path
) -> None:
    ann = Person.open(browser, "Ann", viewport={"width": 1280, "height": 800})
    play_on_the_generic_board(ann, plugin_server)
    page = ann.page
    pages: list[tuple[int, int, str]] = []
    notes = {"refusals": 0}

    def act(person: Person, made: int) -> None:
        pages.append((0, *page.evaluate(PAGE_JS)))
        read_refusals(page, notes)
        no_row_for_the_round_in_play(page)
        if made == 1:
            shoot(page, screenshots, "generic-board-desktop")
            assert run_axe(page, axe_source) == []
        # Keys only: Tab into the hand, arrows to a playable card, Enter plays it.
        for _ in range(40):
            if page.evaluate("() => document.activeElement?.closest('.gb-hand-cards') !== null"):
                break
            page.keyboard.press("Tab")
        for _ in range(6):
            if page.evaluate("() => document.activeElement.classList.contains('is-playable')"):
                break
            page.keyboard.press("ArrowRight")
        played = page.evaluate("() => document.activeElement.dataset.card")
        assert played in page.evaluate("() => [...document.querySelectorAll('.is-playable')]"
                                       ".map((b) => b.dataset.card)")  # fmt: skip
        page.keyboard.press("Enter")

    moves = helpers.play_until_finished([ann], act)
    assert moves == 6  # FT-1: two rounds of three cards each
    assert notes["refusals"], "no turn showed a refused move with its reason"
    assert page.locator("#end-panel .standings li").count() == 2
    assert page.locator(".gb-final").count() == 1
    assert page.locator(".gb-last").inner_text() == "The game is over"
    # Each finished round in the log once, with the engine's points (FT-3).
    names = page.locator(".gb-sheet thead th").all_inner_texts()
    rows = record_of(plugin_server, page)["result"]["round_scores"]
    assert len(rows) == 2 and logged_rows(page) == [
        f"Round {n}: " + ", ".join(f"{name} {v}" for name, v in zip(names, row, strict=True)) + "."
        for n, row in enumerate(rows, start=1)
    ]
    assert ann.errors == []
    shoot(page, screenshots, "generic-board-final-desktop")
    helpers.check_pages_and_frames(record_of(plugin_server, page), {0: ann}, pages, CARDS)
    ann.close()


def test_a_game_without_a_board_is_played_on_a_phone_by_taps(
    browser: Any, plugin_server: Server, axe_source: str, screenshots: Path
) -> None:
    bob = Person.open(
        browser, "Bob", viewport=PHONE, is_mobile=True, has_touch=True, color_scheme="dark"
    )
    play_on_the_generic_board(bob, plugin_server)
    page = bob.page
    pages: list[tuple[int, int, str]] = []
    notes = {"refusals": 0}

    def act(person: Person, made: int) -> None:
        pages.append((0, *page.evaluate(PAGE_JS)))
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        if made == 1:
            shoot(page, screenshots, "generic-board-phone")
            assert run_axe(page, axe_source) == []
        read_refusals(page, notes)
        tap_a_refused_card(page)
        page.locator(".gb-hand-cards button.is-playable").first.tap()

    assert helpers.play_until_finished([bob], act) == 6
    assert notes["refusals"], "no turn showed a refused move with its reason"
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert page.locator("#end-panel .standings li").count() == 2
    assert bob.errors == []
    helpers.check_pages_and_frames(record_of(plugin_server, page), {0: bob}, pages, CARDS)

    # The replay draws with the generic board too, every hand open.
    page.locator("#open-replay").click()
    page.get_by_label("Show").select_option("all")
    page.wait_for_selector("#replay .gb-seat .gb-cards")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert bob.errors == []
    bob.close()
