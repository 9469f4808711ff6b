"""The table as a card game (issue 16): one screen at every viewport, motion,
sound, misclick protection and round summaries, each in a live game of each
game against bots — a person at the real server in Chromium.

Each check asserts what the page shows, not how fast: waits are bounds on
waiting for the page's own state, never timings."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.replay import load_record
from tests.browser.helpers import STATUS_JS, Person, Server, run_axe, shoot

VIEWPORTS = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "phone-portrait": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
}
TOUCH = {"phone-portrait", "phone-landscape"}

# Every rectangle a decision needs, and whether it lies inside the viewport;
# each hand card's tappable part: the strip its right-hand neighbour leaves.
GEOMETRY_JS = """() => {
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.left >= -0.5 && r.top >= -0.5
      && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  };
  const hand = [...document.querySelectorAll('.mt-hand .card, .mr-hand .mr-cell .card')];
  const taps = hand.map((card, i) => {
    const r = card.getBoundingClientRect();
    const next = hand[i + 1]?.getBoundingClientRect();
    const covered = next && next.left < r.right && Math.abs(next.top - r.top) < r.height;
    const width = covered ? next.left - r.left : r.width;
    return [Math.round(width * 10) / 10, Math.round(r.height * 10) / 10];
  });
  const need = [
    ...hand,
    ...document.querySelectorAll('.mt-trick .card, .mr-middle .card'),
    ...document.querySelectorAll('#board .seat:not(.is-me)'),
    document.querySelector('#turn-status'),
  ];
  return {
    scroll: document.scrollingElement.scrollHeight, height: innerHeight,
    outside: need.filter((el) => !inside(el))
      .map((el) => el.className + ' ' + (el.dataset.card ?? el.dataset.seat ?? '')),
    hand: hand.length, taps, seats: document.querySelectorAll('#board .seat:not(.is-me)').length,
  };
}"""

# Counts the page's sounds: every AudioContext made and every tone started.
AUDIO_STUB = """(() => {
  window.__sound = { contexts: 0, tones: 0 };
  class FakeParam { setValueAtTime() {} exponentialRampToValueAtTime() {} }
  class FakeNode { constructor() { this.gain = new FakeParam(); this.frequency = { value: 0 }; }
    connect(next) { return next; } start() { window.__sound.tones += 1; } stop() {} }
  window.AudioContext = class {
    constructor() { window.__sound.contexts += 1; this.currentTime = 0; this.destination = {}; }
    createOscillator() { return new FakeNode(); } createGain() { return new FakeNode(); } };
})();"""

# Counts Element.animate calls and whether the animated element then had a running animation.
ANIMATE_SPY = """(() => {
  window.__anim = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    window.__anim.push({ cls: this.className, running: this.getAnimations().length });
    return animation;
  };
})();"""


# Until it is this person's turn, or a round's summary or the game's end shows.
NEXT_JS = (
    "() => document.querySelector('#turn-status')?.dataset.mine === 'true'"
    " || !document.querySelector('#summary').hidden"
    " || document.querySelector('#end-panel')?.hidden === false"
)


# Whether every cell of the score table lies inside the part of its panel one
# sees (a column cut off at the right edge is the fault this looks for).
SCORES_JS = """() => {
  const panel = document.querySelector('#panel-scores');
  const box = panel.getBoundingClientRect();
  const cells = [...panel.querySelectorAll('th, td')];
  const cut = cells.filter((c) => { const r = c.getBoundingClientRect();
    return r.left < box.left - 0.5 || r.right > box.right + 0.5; });
  return { cells: cells.length, cut: cut.map((c) => c.innerText),
                    // A scroller wider inside than out hides a column (screen-reader text aside).
           overflow: [...panel.querySelectorAll('*:not(.visually-hidden)')]
             .filter((e) => e.scrollWidth > e.clientWidth + 1
               && getComputedStyle(e).overflowX !== 'visible').map((e) => e.className) };
}"""


def create(server: Server, game: str, options: dict[str, Any], players: int, delay: int) -> str:
    body = {
        "game": game, "options": options, "private": True, "turn_seconds": None,
        "bot_delay_ms": delay,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1),
    }  # fmt: skip
    request = urllib.request.Request(
        server.url + "/api/tables", data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request) as response:
        table_id: str = json.load(response)["id"]
    return table_id


def sit(browser: Any, server: Server, table_id: str, viewport: str, **options: Any) -> Person:
    touch = viewport in TOUCH
    person = Person.open(
        browser, "Ann", viewport=VIEWPORTS[viewport], is_mobile=touch, has_touch=touch, **options
    )
    person.page.goto(f"{server.url}/t/{table_id}")
    person.join(0)
    person.wait_connected()
    return person


def my_turn(person: Person) -> None:
    """Until it is this person's turn (past any summary) or the game is over."""
    page = person.page
    for _ in range(200):
        state = person.status()
        if state["mine"] or state["finished"]:
            return
        page.wait_for_function(NEXT_JS)
    raise AssertionError("never this person's turn")


def play_one(person: Person, game: str) -> None:
    """One decision, by taps or clicks (confirming a card where the page asks)."""
    page = person.page
    seq = page.evaluate(STATUS_JS)["seq"]
    if game == "marshmallow-test":
        if page.locator(".mt-trump-choice button").count():
            page.locator(".mt-trump-choice button").first.click()
        else:
            page.locator(".mt-hand button.is-playable").first.click()
            if page.locator(".mt-hand button.is-selected").count():
                page.locator(".mt-hand button.is-selected").click()
    elif page.locator("button.mr-take").count():
        page.locator("button.mr-take").first.click()
    else:
        page.locator("button.mr-gap:not(:disabled)").first.click()
        page.locator("#mr-confirm").click()
    person.wait_past(seq)


def check_scores(page: Any, drawer: bool, label: str) -> None:
    """The score table shows every column: in the side panel on a desktop, in
    its drawer on a phone (opened from the toolbar, then closed again)."""
    if drawer:
        page.locator("#tab-scores").click()
        page.wait_for_selector("#panel-scores table", state="visible")
    scores = page.evaluate(SCORES_JS)
    assert scores["cells"] >= 5 and not scores["cut"] and not scores["overflow"], (label, scores)
    if drawer:
        page.locator("#tab-scores").click()


def check_one_screen(person: Person, label: str, seats: int = 2) -> None:
    geometry = person.page.evaluate(GEOMETRY_JS)
    assert geometry["scroll"] <= geometry["height"], (label, geometry)
    assert geometry["outside"] == [], (label, geometry["outside"])
    assert geometry["hand"] >= 10 and geometry["seats"] == seats, (label, geometry)
    small = [tap for tap in geometry["taps"] if tap[0] < 24 or tap[1] < 44]
    assert small == [], (label, small)


GAMES = [
    ("marshmallow-test", {"target": 40}),
    ("myrummy-111", {"turn_limit": 30}),
]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_everything_a_decision_needs_fits_one_screen_at_every_viewport(
    browser: Any, server: Server, screenshots: Path, game: str, options: dict[str, Any]
) -> None:
    for viewport in VIEWPORTS:
        person = sit(browser, server, create(server, game, options, 3, 0), viewport)
        my_turn(person)
        check_one_screen(person, f"{game} {viewport} start")
        play_one(person, game)
        my_turn(person)
        if game == "myrummy-111" and person.page.locator("button.mr-take").count():
            # The place phase too: the hand with its gaps, then a chosen gap's preview.
            person.page.locator("button.mr-take").first.click()
            person.page.wait_for_selector("button.mr-gap")
            check_one_screen(person, f"{game} {viewport} place")
            person.page.locator("button.mr-gap:not(:disabled)").first.click()
            assert person.page.locator("#mr-confirm").is_visible()
        else:
            check_one_screen(person, f"{game} {viewport} mid-round")
        shoot(person.page, screenshots, f"table16-{game}-{viewport}")
        if VIEWPORTS[viewport]["width"] >= 1100:  # the side panel beside the table
            check_scores(person.page, False, f"{game} {viewport}")
        if viewport == "phone-portrait":
            # The score table, a drawer on a phone, fits it: no column cut off (issue 16, item 9).
            person.page.locator("#tab-scores").click()
            table = person.page.locator("#panel-scores table")
            box = table.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
            scores = person.page.evaluate(SCORES_JS)
            assert not scores["cut"] and not scores["overflow"], scores
            shoot(person.page, screenshots, f"table16-{game}-{viewport}-scores")
        assert person.errors == []
        person.close()


def test_a_card_played_travels_and_nothing_moves_under_reduced_motion(
    browser: Any, server: Server
) -> None:
    for reduce in (False, True):
        person = Person.open(browser, "Ann", reduced_motion="reduce" if reduce else "no-preference")
        person.page.add_init_script(ANIMATE_SPY)
        table_id = create(server, "marshmallow-test", {"target": 40}, 3, 300)
        person.page.goto(f"{server.url}/t/{table_id}")
        person.join(0)
        person.wait_connected()
        for _ in range(4):
            my_turn(person)
            play_one(person, "marshmallow-test")
        animated = person.page.evaluate("() => window.__anim")
        if reduce:
            assert animated == []
            assert person.page.evaluate("() => document.getAnimations().length") == 0
        else:
            # Cards played to the trick travel there, each with a running animation.
            played = [a for a in animated if "mt-card" in a["cls"]]
            assert played and all(a["running"] > 0 for a in played), animated
        assert person.errors == []
        person.close()


def test_sound_plays_only_after_the_toggle_and_is_remembered(browser: Any, server: Server) -> None:
    person = Person.open(browser, "Ann")
    person.page.add_init_script(AUDIO_STUB)
    table_id = create(server, "marshmallow-test", {"target": 40}, 3, 200)
    person.page.goto(f"{server.url}/t/{table_id}")
    person.join(0)
    person.wait_connected()
    page = person.page
    assert not page.locator("#sound-toggle").is_checked()  # off by default
    for _ in range(2):
        my_turn(person)
        play_one(person, "marshmallow-test")
    assert page.evaluate("() => window.__sound") == {"contexts": 0, "tones": 0}
    page.locator("#sound-toggle").check()
    for _ in range(2):
        my_turn(person)
        play_one(person, "marshmallow-test")
    heard = page.evaluate("() => window.__sound")
    assert heard["contexts"] == 1 and heard["tones"] > 0, heard
    page.reload()
    person.wait_connected()
    assert page.locator("#sound-toggle").is_checked()  # remembered
    assert person.errors == []
    person.close()


def test_a_touch_screen_confirms_each_card_and_a_desktop_may_turn_it_on(
    browser: Any, server: Server
) -> None:
    table_id = create(server, "marshmallow-test", {"target": 40}, 3, 200)
    person = sit(browser, server, table_id, "phone-portrait")
    page = person.page
    assert page.locator("#confirm-toggle").is_checked()  # on by default where fingers tap
    my_turn(person)
    if page.locator(".mt-trump-choice button").count():
        play_one(person, "marshmallow-test")
        my_turn(person)
    seq = person.status()["seq"]
    card = page.locator(".mt-hand button.is-playable").first
    name = card.get_attribute("data-card")
    card.click()
    # The first tap chooses and says why the card may be played, citing the rule.
    chosen = page.locator(f".mt-hand button[data-card='{name}']")
    assert "is-selected" in (chosen.get_attribute("class") or "")
    assert "(MT-5." in page.locator("#mt-reason").inner_text()
    assert person.status()["seq"] == seq and person.states()[-1]["seq"] == seq  # nothing sent
    chosen.click()
    person.wait_past(seq)
    assert page.locator(f".mt-hand button[data-card='{name}']").count() == 0
    person.close()

    desktop = sit(
        browser, server, create(server, "marshmallow-test", {"target": 40}, 3, 200), "1280x800"
    )
    assert not desktop.page.locator("#confirm-toggle").is_checked()
    desktop.close()


@pytest.mark.parametrize(
    ("game", "options"),
    [("marshmallow-test", {"target": 6}), ("myrummy-111", {"turn_limit": 4, "rounds": 2})],
    ids=["marshmallow-test", "myrummy-111"],
)
def test_round_summaries_explain_the_engines_scores(
    browser: Any,
    server: Server,
    axe_source: str,
    screenshots: Path,
    game: str,
    options: dict[str, Any],
) -> None:
    for viewport in ("1280x800", "phone-portrait"):
        # Bots at a pace a person can follow: the page sees every state (at 0 ms
        # the server may send only the newest, and a round can pass unseen).
        table_id = create(server, game, options, 3, 250)
        person = sit(browser, server, table_id, viewport)
        page = person.page
        summaries: list[list[tuple[int, str]]] = []
        axed = False
        for _ in range(400):
            if page.locator("#end-panel").is_visible():
                break
            if page.locator("#summary:not([hidden])").count():
                summaries.append(shown_points(page, "#summary"))
                if not axed:
                    assert run_axe(page, axe_source) == [], viewport
                    shoot(page, screenshots, f"table16-{game}-summary-{viewport}")
                    axed = True
                page.locator("#summary-continue").click()
                continue
            # Not person.status(): that would continue past a summary unseen.
            state = page.evaluate(STATUS_JS)
            if state["finished"]:
                break
            if state["mine"]:
                if not axed and viewport == "1280x800":
                    assert run_axe(page, axe_source) == [], "table"
                play_one(person, game)
            else:
                page.wait_for_function(NEXT_JS)
        page.wait_for_selector("#end-panel:not([hidden])")
        summaries.append(shown_points(page, "#end-panel"))
        record = json.load(urllib.request.urlopen(f"{server.url}/api/tables/{table_id}/record"))
        engine = [list(row) for row in load_record(record).round_scores]
        # One summary per round, each seat's points the engine's with a reason citing a rule.
        assert [[points for points, _ in rows] for rows in summaries] == engine
        assert all("(M" in why for rows in summaries for _, why in rows), summaries
        if viewport == "phone-portrait":
            assert run_axe(page, axe_source) == [], "end"
        assert person.errors == []
        person.close()


def shown_points(page: Any, where: str) -> list[tuple[int, str]]:
    rows = page.locator(f"{where} .summary-row")
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        points = row.locator(".summary-points")
        why = row.locator(".summary-why").inner_text()
        out.append((int(points.get_attribute("data-points") or -1), why))
    seats = [int(rows.nth(i).get_attribute("data-seat") or -1) for i in range(rows.count())]
    return [out[seats.index(seat)] for seat in range(len(seats))]


# Issue 29, item 6: defects seen on a first visit, each measured on the page.
# The confirm step's explanation, the hand's cards (the chosen one raised) and
# where the hand lay before the first tap.
CONFIRM_JS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const reason = box(document.querySelector('#mt-reason'));
  const cards = [...document.querySelectorAll('.mt-hand .card')].map(box);
  const hits = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  return { reason: reason.height, handTop: box(document.querySelector('.mt-hand')).top,
           bottom: Math.max(...cards.map((c) => c.bottom)), height: innerHeight,
           covered: cards.filter((c) => hits(c, reason)).length };
}"""


@pytest.mark.parametrize("viewport", ["phone-portrait", "1280x800"])
def test_the_confirm_explanation_leaves_the_hand_where_it_was(
    browser: Any, server: Server, viewport: str
) -> None:
    person = sit(
        browser, server, create(server, "marshmallow-test", {"target": 40}, 3, 200), viewport
    )
    page = person.page
    if not page.locator("#confirm-toggle").is_checked():
        page.locator("#confirm-toggle").check()
    my_turn(person)
    if page.locator(".mt-trump-choice button").count():
        play_one(person, "marshmallow-test")
        my_turn(person)
    before = page.evaluate(CONFIRM_JS)
    page.locator(".mt-hand button.is-playable").first.click()
    page.wait_for_selector(".mt-hand button.is-selected")
    shown = page.evaluate(CONFIRM_JS)
    shoot(page, Path("/tmp/visual-shots"), f"test-confirm-{viewport}")
    assert shown["reason"] > 0, shown  # the explanation is there
    assert shown["handTop"] == before["handTop"], (before, shown)  # nothing pushed down
    assert shown["bottom"] <= shown["height"] + 0.5, shown  # the hand on screen
    assert shown["covered"] == 0, shown  # and no card under the words
    assert person.errors == []
    person.close()


# The finished trick once its animations ended: whether it is still the taken
# trick, and each of its cards' opacity and size.
TAKEN_JS = """() => ({
  taken: document.querySelector('.mt-trick.is-taken') !== null,
  cards: [...document.querySelectorAll('.mt-trick .card')].map((c) => {
    const r = c.getBoundingClientRect();
    return [Number(getComputedStyle(c).opacity), Math.round(r.width), Math.round(r.height)];
  }),
  tag: document.querySelector('.mt-trick .mt-winning-tag')?.innerText ?? null,
  seq: Number(document.querySelector('#board')?.dataset.seq ?? -1),
})"""
SETTLED_JS = (
    "() => !document.querySelector('.mt-trick.is-taken') || document.getAnimations()"
    ".every((a) => a.playState !== 'running')"
)


def test_a_finished_trick_keeps_its_cards_after_a_resize(browser: Any, server: Server) -> None:
    person = sit(
        browser, server, create(server, "marshmallow-test", {"target": 40}, 3, 2500), "1280x800"
    )
    page = person.page
    seen, played = None, None
    for _ in range(40):
        my_turn(person)
        if page.locator(".mt-trick.is-taken").count():
            page.set_viewport_size({"width": 1100, "height": 800})
            page.wait_for_function(SETTLED_JS)
            seen = page.evaluate(TAKEN_JS)
            shown = next(f for f in person.states() if f["seq"] == seen["seq"])
            # One card per player still in the round: fewer once someone is out.
            played = len(shown["view"]["tricks"][-1]) if shown["view"]["tricks"] else None
            if seen["taken"]:
                shoot(page, Path("/tmp/visual-shots"), "test-taken-after-resize")
                break
            page.set_viewport_size(VIEWPORTS["1280x800"])
        play_one(person, "marshmallow-test")
    assert seen and seen["taken"], seen
    # "TOOK IT" is shown, and so is every card of the trick it names.
    assert seen["tag"] and played and len(seen["cards"]) == played, (seen, played)
    assert all(opacity >= 0.5 and w >= 30 and h >= 40 for opacity, w, h in seen["cards"]), seen
    assert person.errors == []
    person.close()


# Samples every frame: whether a card in the trick (landed or on its way)
# covers a name written in the trick.
COVER_SPY = """(() => {
  window.__covered = [];
  const hits = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const look = () => {
    const names = [...document.querySelectorAll('.mt-trick figcaption')];
    for (const card of document.querySelectorAll('.mt-trick .card')) {
      const r = card.getBoundingClientRect();
      for (const name of names) if (hits(r, name.getBoundingClientRect()))
        window.__covered.push([card.getAttribute('aria-label'), name.innerText]);
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();"""


def test_no_card_covers_a_name_in_the_trick(browser: Any, server: Server) -> None:
    person = Person.open(browser, "Ann", viewport=VIEWPORTS["1280x800"])
    person.page.add_init_script(COVER_SPY)
    person.page.goto(f"{server.url}/t/{create(server, 'marshmallow-test', {'target': 40}, 3, 300)}")
    person.join(0)
    person.wait_connected()
    page = person.page
    for _ in range(8):
        my_turn(person)
        play_one(person, "marshmallow-test")
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    shoot(page, Path("/tmp/visual-shots"), "test-trick-1280x800")
    assert page.evaluate("() => window.__covered.slice(0, 5)") == []
    assert person.errors == []
    person.close()


def test_french_on_a_phone_keeps_slot_words_whole_or_hyphenated(
    browser: Any, server: Server
) -> None:
    table_id = create(server, "myrummy-111", {"turn_limit": 4}, 3, 200)
    person = Person.open(
        browser, "Ann", viewport=VIEWPORTS["phone-portrait"], locale="fr", is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    page = person.page
    page.goto(f"{server.url}/t/{table_id}")
    page.locator("#join-name").fill("Ann")
    page.locator("#join-panel button[data-seat='0']").click()
    page.wait_for_selector("#join-panel", state="hidden")
    person.wait_connected()
    my_turn(person)
    shoot(page, Path("/tmp/visual-shots"), "test-french-phone")
    assert page.evaluate("document.documentElement.lang") == "fr"
    styles = page.evaluate("""() => [...document.querySelectorAll('.mr-slot-label, .mr-pile span')]
      .map((el) => [getComputedStyle(el).hyphens, getComputedStyle(el).overflowWrap])""")
    # Hyphenated where the browser knows French; anywhere only as a last resort.
    assert styles and all(s == ["auto", "anywhere"] for s in styles), styles
    # "emplacement" fits its slot whole: its text lies on one line box.
    lines = page.evaluate("""() => [...document.querySelectorAll('.mr-slot-label')].map((el) => {
      const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE);
      if (!text) return 0;
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, text.textContent.split(" ")[0].length);
      return range.getClientRects().length;
    })""")
    assert lines and all(n == 1 for n in lines), lines
    assert page.evaluate("getComputedStyle(document.querySelector('#board')).hyphens") == "auto"
    assert person.errors == []
    person.close()
