"""The generic board against state messages the server's own code builds from
engine states (``cardtable.server.tables.messages.game_part``): a Fixture Trick
position where the suit must be followed (FT-2), and — since it must draw any
view — positions of the two built-in games, whose views it was not written for."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cardtable.core.registry import load
from tests.browser import test_boards as boards
from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot
from tests.browser.test_boards import message, sent
from tests.fixtures.plugin import NAME, registered

GENERIC = "/static/generic-board.js"
# A page loads each game's board once (board-host.js): loading the generic board
# first makes it the one test_boards.show draws with.
PRELOAD_JS = """async ([game, url]) => {
  const host = await import('/static/board-host.js');
  await host.loadBoard(game, ['en'], url);
}"""


def show(person: Person, server: Server, msg: dict[str, Any]) -> Any:
    """:func:`tests.browser.test_boards.show`, drawing with the generic board."""
    page = person.page
    if not page.url.startswith(server.url):
        page.goto(server.url + "/")
        page.wait_for_selector("#set-up", state="attached")
    page.evaluate(PRELOAD_JS, [msg["game"], GENERIC])
    return boards.show(person, server, msg)


def following_position() -> dict[str, Any]:
    """A Fixture Trick message for a seat that must follow suit and holds another (FT-2)."""
    with registered():
        game = load(NAME)
        for seed in range(100):
            state = game.new_game(random.Random(seed))
            state.apply(state.legal_moves()[0])
            seat = state.to_move
            assert seat is not None
            msg = message(NAME, state, seat, 1)
            if 0 < len(msg["legal"]) < len(msg["view"]["hand"]):
                return msg
    raise AssertionError("no seed of 100 deals a hand that must follow suit")


def test_each_card_says_whether_it_plays_and_why_not_and_keys_play_it(
    browser: Any, server: Server, axe_source: str
) -> None:
    msg = following_position()
    person = Person.open(browser, "Bob")
    page = show(person, server, msg)
    playable = {m["play"] for m in msg["legal"]}
    # The engine says "seat 1 must follow suit"; the page says the seat its way (docs/browser.md).
    engine = f"seat {msg['seat']}"
    assert all(engine in r["reason"] for r in msg["refused"])
    reasons = {
        r["move"]["play"]: f"{r['reason'].replace(engine, 'your seat')} ({r['rule']})"
        for r in msg["refused"]
    }
    for card in msg["view"]["hand"]:
        button = page.locator(f".gb-hand-cards button[data-card='{card}']")
        label = button.get_attribute("aria-label") or ""
        if card in playable:
            assert label == f"play {card}, playable"
        else:
            assert label.endswith(reasons[card]) and reasons[card].endswith("(FT-2)")
            assert button.get_attribute("aria-disabled") == "true"
    refused = next(c for c in msg["view"]["hand"] if c not in playable)
    page.locator(f".gb-hand-cards button[data-card='{refused}']").click(force=True)
    assert page.locator(".gb-reason").inner_text() == reasons[refused]
    assert sent(page) == []
    # The card led is on the felt under its player's name; the last event says so.
    (leader, led), name = msg["view"]["trick"][0], msg["seats"][0]["name"]
    assert leader == 0
    figure = page.locator(".gb-pile[data-field='trick'] figure").inner_text()
    assert figure.split() == [led, name]
    assert page.locator(".gb-last").inner_text() == f"{name} played {led}"
    assert run_axe(page, axe_source) == []
    # Keys: the shell focuses the first playable card; arrows walk the hand; Enter plays.
    page.locator("[data-autofocus]").focus()
    first = page.evaluate("() => document.activeElement.dataset.card")
    assert first in playable
    hand = msg["view"]["hand"]
    page.keyboard.press("End")
    assert page.evaluate("() => document.activeElement.dataset.card") == hand[-1]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == hand[1]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    assert sent(page) == ([{"play": hand[0]}] if hand[0] in playable else [])
    assert person.errors == []
    person.close()


def test_views_it_was_not_written_for_are_drawn_with_every_legal_move_a_button(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    """MyRummy 111 (cards are numbers, moves name slots: every move a button, the
    options and last round folded sections) and Marshmallow Test (a trick of
    {seat, card}), on a phone: nothing wider than the screen, axe-core clean."""
    person = Person.open(browser, "Ann", viewport=PHONE, is_mobile=True, has_touch=True)
    rummy = load("myrummy-111", players=3)
    state = rummy.new_game(random.Random(1))
    state.apply(state.legal_moves()[0])  # a take: a place is due (MR-4)
    seat = state.to_move
    assert seat is not None
    msg = message("myrummy-111", state, seat, 1)
    page = show(person, server, msg)
    buttons = page.locator(".gb-moves button")
    assert buttons.count() == len(msg["legal"])
    assert buttons.first.inner_text() == "place 0, discard right"
    buttons.nth(1).click()
    assert sent(page) == [msg["legal"][1]]
    hand = page.locator(".gb-hand-cards li").all_inner_texts()
    assert hand == [str(c) for c in msg["view"]["hand"]]
    assert "Rules options" in page.locator(".gb-section summary").all_inner_texts()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert run_axe(page, axe_source) == []
    shoot(page, screenshots, "generic-board-myrummy-phone")

    trick = load("marshmallow-test", players=3)
    state = trick.new_game(random.Random(2))
    state.apply(state.legal_moves()[0])
    seat = state.to_move
    assert seat is not None
    msg = message("marshmallow-test", state, seat, 1)
    page = show(person, server, msg)
    lead = msg["view"]["current_trick"][0]
    figure = page.locator(".gb-pile[data-field='current_trick'] figure").first.inner_text()
    assert figure.split()[0] == lead["card"] and msg["seats"][lead["seat"]]["name"] in figure
    playable = page.locator(".gb-hand-cards button.is-playable").all_inner_texts()
    assert sorted(playable) == sorted(m["play"] for m in msg["legal"])
    sheet = page.locator(".gb-sheet tbody th").all_inner_texts()
    assert sheet == ["Round 1", "Tricks taken", "Points"]
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert run_axe(page, axe_source) == []
    shoot(page, screenshots, "generic-board-marshmallow-phone")
    assert person.errors == []
    person.close()
