"""The generic board's cards that ask a further choice, its number cards and
its refusals, on Fixture Shed (the second plugin game: integer cards 1-60, a
turn card played with the pile's new direction, ``{"play": 30, "direction":
"down"}``, FS-3.2) — docs/browser.md, "The generic board".

- A card whose moves name it plus more fields is one playable button; choosing
  it offers the rest of each move beside it, by keys too (focus moves in,
  Escape closes and goes back to the card), and no such move is repeated
  among the moves below.
- Number cards are buttons when a move names them ({"play": 27}).
- An engine's reason names seats as the page does ("your seat", a name), never
  "seat 0", in English, German and French.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.registry import load
from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot
from tests.browser.test_boards import message, sent
from tests.browser.test_languages import english_left
from tests.fixtures.plugin import SHED_DIST, SHED_NAME, SHED_SOURCE, registered

SHOTS = Path("/tmp/shots/generic")
FOCUSED_JS = "() => document.activeElement?.textContent ?? ''"
NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"
# test_boards.RENDER_JS in a language of the page: the generic board drawn with
# the shell's catalog of `lang`, as the table draws a game without a board.
RENDER_JS = """async ([msg, lang]) => {
  const host = await import('/static/board-host.js');
  const { translator, loadCatalog } = await import('/static/i18n.js');
  const { h, announce } = await import('/static/dom.js');
  const shell = await loadCatalog((c) => new URL(`/static/i18n/${c}.json`, location.href), [lang]);
  const { GENERIC_BOARD } = await import('/static/api.js');
  const board = await host.loadBoard(msg.game, [lang], GENERIC_BOARD);
  const t = translator(lang, board.strings, shell.strings);
  document.documentElement.lang = lang;
  const root = document.createElement('div');
  root.className = 'board';
  root.tabIndex = -1;
  document.querySelector('main').replaceChildren(root);
  window.sent = [];
  const ctx = {
    t, h, announce, reducedMotion: true, pending: false,
    names: msg.seats.map((s) => s.name),
    send: (move) => { window.sent.push(move); return true; },
    redraw: () => host.drawBoard(board, root, msg, ctx),
  };
  host.drawBoard(board, root, msg, ctx);
}"""


def shed_position() -> dict[str, Any]:
    """Seat 0's first turn of a seeded Fixture Shed deal holding a turn card,
    cards that continue the pile and one that does not (FS-3.1, FS-3.2)."""
    with registered(SHED_SOURCE, SHED_NAME, SHED_DIST):
        game = load(SHED_NAME)
        for seed in range(100):
            state = game.new_game(random.Random(seed))
            seat = state.to_move
            assert seat is not None
            msg = message(SHED_NAME, state, seat, 1)
            turns = [m for m in msg["legal"] if "direction" in m]
            plain = [m for m in msg["legal"] if "play" in m and "direction" not in m]
            held = set(msg["view"]["hand"])
            stuck = [r for r in msg["refused"] if r["move"].get("play") in held]
            if turns and plain and stuck:
                return msg
    raise AssertionError("no seed of 100 deals a turn card, a playable card and a stuck one")


def show(person: Person, server: Server, msg: dict[str, Any], lang: str = "en") -> Any:
    page = person.page
    if not page.url.startswith(server.url):
        page.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")  # the whole page
        page.goto(server.url + "/")
        page.wait_for_selector("#set-up", state="attached")
    page.evaluate(RENDER_JS, [msg, lang])
    return page


def turn_card(msg: dict[str, Any]) -> int:
    card: int = next(m["play"] for m in msg["legal"] if "direction" in m)
    return card


def test_a_turn_card_is_one_button_whose_choices_keys_reach_and_send(
    browser: Any, server: Server, axe_source: str
) -> None:
    msg = shed_position()
    person = Person.open(browser, "Ann", viewport={"width": 1280, "height": 800})
    page = show(person, server, msg)
    ten = turn_card(msg)
    button = page.locator(f".gb-hand-cards button[data-card='{ten}']")
    # A playable button, not greyed: its name says it asks a choice.
    assert button.get_attribute("aria-disabled") is None
    assert button.get_attribute("aria-label") == f"{ten}, playable: 2 ways"
    assert button.get_attribute("aria-expanded") == "false"
    choices = page.locator(f"#{button.get_attribute('aria-controls')}")
    assert choices.is_hidden()
    # The moves below are those naming no card: the turn card's are not repeated.
    below = page.locator(".gb-moves button").all_inner_texts()
    assert below == [" ".join(m) for m in msg["legal"] if "play" not in m] == ["draw"]
    assert not any("direction" in words for words in below)

    # Keys: Enter opens the choices and focuses the first; arrows walk them;
    # Escape closes them and goes back to the card; Space opens them again.
    button.focus()
    page.keyboard.press("Enter")
    assert choices.is_visible() and button.get_attribute("aria-expanded") == "true"
    assert choices.get_attribute("aria-label") == f"Ways to play {ten}"
    assert choices.locator("button").all_inner_texts() == ["direction up", "direction down"]
    assert page.evaluate(FOCUSED_JS) == "direction up"
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED_JS) == "direction down"
    page.keyboard.press("Escape")
    assert choices.is_hidden() and button.get_attribute("aria-expanded") == "false"
    assert page.evaluate("() => document.activeElement.dataset.card") == str(ten)
    assert sent(page) == []
    page.keyboard.press(" ")
    assert page.evaluate(FOCUSED_JS) == "direction up"
    assert run_axe(page, axe_source) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(page, SHOTS, "shed-choice-desktop")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert sent(page) == [{"play": ten, "direction": "down"}]
    assert person.errors == []
    person.close()


def test_number_cards_are_buttons_and_the_choices_fit_a_phone(
    browser: Any, server: Server, axe_source: str
) -> None:
    msg = shed_position()
    person = Person.open(browser, "Ann", viewport=PHONE, is_mobile=True, has_touch=True)
    page = show(person, server, msg)
    plain = [m["play"] for m in msg["legal"] if "play" in m and "direction" not in m]
    shown = page.locator(".gb-hand-cards button.is-playable:not(.has-choices)")
    assert shown.all_inner_texts() == [str(c) for c in msg["view"]["hand"] if c in plain]
    assert shown.first.get_attribute("aria-label") == f"play {plain[0]}, playable"
    # A card that does not continue the pile says why (FS-3.1), and plays nothing.
    stuck = next(r for r in msg["refused"] if r["move"].get("play") in msg["view"]["hand"])
    refused = page.locator(f".gb-hand-cards button[data-card='{stuck['move']['play']}']")
    assert refused.get_attribute("aria-disabled") == "true"
    refused.tap(force=True)
    assert page.locator(".gb-reason").inner_text() == f"{stuck['reason']} ({stuck['rule']})"
    shown.first.tap()
    assert sent(page) == [{"play": plain[0]}]  # a number, as the move names it
    page.locator(f".gb-hand-cards button[data-card='{turn_card(msg)}']").tap()
    page.get_by_role("button", name=f"play {turn_card(msg)}, direction up").wait_for()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert run_axe(page, axe_source) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(page, SHOTS, "shed-choice-phone")
    assert person.errors == []
    person.close()


# The engine's words for FS-3.4 around the page's words for the seat.
YOUR_SEAT = {"en": "your seat", "de": "dein Platz", "fr": "votre place"}


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_a_refusal_names_the_seat_as_the_page_does(
    browser: Any, server: Server, axe_source: str, lang: str
) -> None:
    msg = shed_position()
    person = Person.open(browser, "Ann", viewport={"width": 1280, "height": 800})
    page = show(person, server, msg, lang)
    passing = next(r for r in msg["refused"] if r["move"] == {"pass": True})
    assert passing["reason"] == "seat 0 may pass only after drawing"  # the engine's words
    page.locator(".gb-refused summary").click()
    listed = page.locator(".gb-refused li").all_inner_texts()
    assert f"pass {YOUR_SEAT[lang]} may pass only after drawing (FS-3.4)" in listed
    assert not re.search(r"\bseat \d", page.locator("main").inner_text())
    page.locator(f".gb-hand-cards button[data-card='{turn_card(msg)}']").click()
    assert english_left(page, lang) == []
    assert run_axe(page, axe_source) == []
    if lang != "en":
        SHOTS.mkdir(parents=True, exist_ok=True)
        shoot(page, SHOTS, f"shed-choice-desktop-{lang}")
    # Another seat reads as its player's name (the page's names, counted from 0).
    named = page.evaluate("""async () => {
        const { namedSeats } = await import('/static/refusal.js');
        const t = (key) => ({ 'generic.yourSeat': 'your seat' })[key];
        t.has = (key) => key === 'generic.yourSeat';
        const names = ['Ann', 'Bob'];
        return namedSeats('seat 1 leads, not seat 0 or seat 7', t, { names, me: 0 });
    }""")
    assert named == "Bob leads, not your seat or seat 7"  # seat 7 is no seat of the table
    assert person.errors == []
    person.close()


@pytest.fixture(scope="module")
def shed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``cardtable serve`` with Fixture Shed installed as a plugin."""
    with registered(SHED_SOURCE, SHED_NAME, SHED_DIST):
        running = Server(tmp_path_factory.mktemp("shed") / "tables.sqlite3")
        running.start()
        yield running
        running.stop()


def table_against_a_bot(server: Server) -> str:
    body = {
        "game": SHED_NAME, "private": True, "turn_seconds": None, "bot_delay_ms": 0,
        "options": {"hand_size": 10},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
    }  # fmt: skip
    request = urllib.request.Request(
        server.url + "/api/tables", data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        table_id: str = json.load(response)["id"]
    return table_id


def test_a_turn_card_played_by_keys_at_a_live_table_turns_the_pile(
    browser: Any, shed_server: Server
) -> None:
    """At the table, against the shed's bot: the person plays on (a number card,
    else a draw or a pass) until a turn card is in hand, then plays it by keys
    with the direction the pile does not go; the server's next view goes that way."""
    table = table_against_a_bot(shed_server)
    ann = Person.open(browser, "Ann", viewport={"width": 1280, "height": 800})
    page = ann.page
    page.goto(f"{shed_server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()
    for _ in range(200):
        status = ann.status()
        assert not status["finished"], "the game ended before a turn card was in hand"
        if not status["mine"]:
            ann.wait_past(status["seq"])
            continue
        ten = page.locator(".gb-hand-cards button.has-choices")
        if ten.count():
            break
        playable = page.locator(".gb-hand-cards button.is-playable")
        (playable.first if playable.count() else page.locator(".gb-moves button").first).click()
        ann.wait_past(status["seq"])
    else:
        raise AssertionError("no turn card came to hand in 200 turns")
    view = ann.states()[-1]["view"]
    other = "down" if view["direction"] == "up" else "up"
    card = int(ten.first.get_attribute("data-card") or -1)
    ten.first.focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name=f"play {card}, direction {other}").focus()
    page.keyboard.press("Enter")
    ann.wait_past(status["seq"])
    after = [s["view"] for s in ann.states() if s["seq"] > status["seq"]]
    assert after[0]["top"] == card and after[0]["direction"] == other
    assert page.locator(f".gb-hand-cards button[data-card='{card}']").count() == 0
    assert ann.errors == []
    ann.close()
