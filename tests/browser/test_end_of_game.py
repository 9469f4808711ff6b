"""The end of a game (issue 29, item 3; docs/browser.md, "The end of a game"):
the final standings, the round that decided them and the ways on (rematch,
replay, analysis, download) on the first screen of a desktop and a phone, for
Marshmallow Test, MyRummy 111 and a plugin game on the generic board; the
replay and the analysis each on a screen of its own that the browser's Back
leaves for the standings; the replay stepped by ← → Home End without a click
into it first; German and French pages without English; axe-core clean."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.core import registry
from tests.browser.helpers import PHONE, Person, Server, play_until_finished, run_axe, shoot
from tests.fixtures.plugin import registered

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": PHONE}
BUTTONS = ("#rematch", "#open-replay", "#open-analysis", "#download-record")
STEP_JS = "() => Number(document.querySelector('.replay-board')?.dataset.step ?? -1)"
END_TIMEOUT_MS = 300_000  # a bound on a game of bots, never a check of its speed


def post(server: Server, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def deciding_round(round_scores: list[list[int]], winners: list[int]) -> tuple[int, str]:
    """The rule of docs/browser.md, written again here: the first round after
    which the winners stayed ahead of every other seat to the end (fewer points
    being ahead where the winners end with fewer); the last round where they
    are not ahead at the end."""
    seats = range(len(round_scores[0]))
    others = [s for s in seats if s not in winners]
    totals, running = [], [0 for _ in seats]
    for row in round_scores:
        running = [a + b for a, b in zip(running, row, strict=True)]
        totals.append(running)
    rounds = len(totals)
    if not others:
        return rounds, "last"
    final = totals[-1]
    sign = -1 if max(final[w] for w in winners) < min(final[o] for o in others) else 1
    kept = [all(sign * (t[w] - t[o]) > 0 for w in winners for o in others) for t in totals]
    first = rounds  # the first round of the lead kept to the end (rounds: none)
    while first > 0 and kept[first - 1]:
        first -= 1
    if first == rounds:
        return rounds, "last"
    how = "only" if rounds == 1 else "first" if first == 0 else "lead"
    return first + 1, how


def play_marshmallow(person: Person, made: int) -> None:
    page = person.page
    if page.locator(".mt-trump-choice").count():
        page.locator(".mt-trump-choice button").first.click()
    else:
        page.locator(".mt-hand button.is-playable").first.click()


def catalog(lang: str) -> dict[str, Any]:
    path = Path(__file__).resolve().parents[2] / "cardtable/server/web/static/i18n" / f"{lang}.json"
    words: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return words


@pytest.fixture(scope="module")
def finished_duel(
    tmp_path_factory: pytest.TempPathFactory, browser: Any
) -> Iterator[tuple[Server, str, Any, dict[str, Any]]]:
    """A short Marshmallow Test (target 4) Ann played to its end against an
    easy bot: the server, the table, Ann's browser storage (her seat, so her
    Rematch) and the last view she was sent."""
    server = Server(tmp_path_factory.mktemp("end") / "tables.sqlite3")
    server.start()
    table = post(server, "/api/tables", {
        "game": "marshmallow-test", "options": {"target": 4},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], "bot_delay_ms": 0,
    })["id"]  # fmt: skip
    ann = Person.open(browser, "Ann")
    ann.page.goto(f"{server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()
    play_until_finished([ann], play_marshmallow)
    storage = ann.page.context.storage_state()
    last = ann.states()[-1]
    ann.close()
    yield server, str(table), storage, last
    server.stop()


def open_as(browser: Any, storage: Any, lang: str, viewport: str) -> Person:
    phone = viewport == "phone"
    return Person.open(
        browser, "Ann", viewport=VIEWPORTS[viewport], locale=lang,
        storage_state=storage, is_mobile=phone, has_touch=phone,
    )  # fmt: skip


def check_first_screen(
    page: Any, frame: dict[str, Any], buttons: tuple[str, ...], label: str
) -> None:
    """Standings, the deciding round and every way on, whole inside the first screen."""
    page.wait_for_selector("#end-panel:not([hidden])")
    assert page.evaluate("scrollY") == 0, label
    size = page.viewport_size
    shown = ["#end-heading", ".winners", ".standings", "#end-decided", *buttons]
    for selector in shown:
        box = page.locator(selector).bounding_box()
        assert box is not None, (label, selector)
        inside = box["x"] >= 0 and box["y"] >= 0
        assert inside and box["x"] + box["width"] <= size["width"], (label, selector, box)
        assert box["y"] + box["height"] <= size["height"], (label, selector, box)
    # Totals as the engine sent them, best first, and the round that decided it.
    scores = [int(s) for s in frame["scores"]]
    points = page.locator(".standings .score").all_inner_texts()
    assert [int(p.split()[0]) for p in points] == sorted(scores, reverse=True), label
    round_, how = deciding_round(frame["view"]["round_scores"], frame["winners"])
    decided = page.locator("#end-decided")
    assert decided.get_attribute("data-round") == str(round_), label
    assert decided.get_attribute("data-how") == how, label
    row = frame["view"]["round_scores"][round_ - 1]
    shown_points = page.locator(".standing-round").evaluate_all(
        "(spans) => spans.map((s) => Number(s.dataset.points))"
    )
    assert sorted(shown_points) == sorted(row), label
    # The literal text a null child would leave (drawEnd hands replaceChildren nodes only).
    assert "null" not in page.locator("#end-panel").inner_text(), label


def no_english(page: Any, lang: str, label: str) -> None:
    # Imported here: test_languages imports helpers this module imports too.
    from tests.browser.test_languages import english_left

    if lang != "en":
        assert english_left(page, lang) == [], label


def test_the_standings_the_deciding_round_and_the_ways_on_fit_the_first_screen(
    browser: Any, finished_duel: tuple[Server, str, Any, dict[str, Any]],
    axe_source: str, screenshots: Path,
) -> None:  # fmt: skip
    server, table, storage, last = finished_duel
    for lang in ("en", "de", "fr"):
        words = catalog(lang)
        for viewport in VIEWPORTS:
            label = f"{lang}-{viewport}"
            ann = open_as(browser, storage, lang, viewport)
            page = ann.page
            page.goto(f"{server.url}/t/{table}")
            check_first_screen(page, last, BUTTONS, label)
            for selector, key in zip(
                BUTTONS, ("end.rematch", "end.replay", "end.analysis", "end.download"), strict=True
            ):
                assert page.locator(selector).inner_text() == words[key], (label, selector)
            no_english(page, lang, label)
            assert (
                page.evaluate("document.documentElement.scrollWidth")
                <= VIEWPORTS[viewport]["width"]
            )
            assert run_axe(page, axe_source) == [], label
            shoot(page, screenshots, f"end-{label}")
            assert ann.errors == [], (label, ann.errors)
            ann.close()


def test_the_replay_is_a_screen_of_its_own_stepped_by_keys(
    browser: Any, finished_duel: tuple[Server, str, Any, dict[str, Any]], axe_source: str
) -> None:
    server, table, storage, _ = finished_duel
    for lang, viewport in (("en", "desktop"), ("de", "phone")):
        label = f"{lang}-{viewport}"
        ann = open_as(browser, storage, lang, viewport)
        page = ann.page
        page.goto(f"{server.url}/t/{table}")
        page.wait_for_selector("#end-panel:not([hidden])")
        page.locator("#open-replay").click()
        page.wait_for_function(f"() => ({STEP_JS})() === 0")
        assert page.url.endswith("#replay")
        assert page.locator("#replay").is_visible() and page.locator("#replay-chat").is_visible()
        assert not page.locator("#end-panel").is_visible(), label  # not below the standings
        assert not page.locator("#analysis").is_visible(), label
        steps = int(page.locator("#replay-step").get_attribute("max") or 0)
        assert steps > 2

        # The keys, with no click into the replay first.
        for key, expected in (
            ("ArrowRight", 1),
            ("ArrowRight", 2),
            ("ArrowLeft", 1),
            ("End", steps),
            ("Home", 0),
        ):
            page.keyboard.press(key)
            page.wait_for_function(f"() => ({STEP_JS})() === {expected}")
            assert int(page.locator("#replay-step").input_value()) == expected, (label, key)
            assert str(expected) in page.locator(".replay-position").inner_text(), (label, key)
        # Still so after a click outside it (on the page's title): the whole screen hears them.
        page.locator(".table-head h1").click()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => ({STEP_JS})() === 1")
        # Each control says what it does and which key does it; focus shows.
        for control, key in (("#replay-first", "Home"), ("#replay-back", "ArrowLeft"),
                             ("#replay-next", "ArrowRight"), ("#replay-last", "End")):  # fmt: skip
            button = page.locator(control)
            assert button.get_attribute("aria-label"), (label, control)
            assert button.get_attribute("aria-keyshortcuts") == key, (label, control)
        page.locator("#replay-back").focus()
        for _ in range(2):
            page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.id")
        assert focused == "replay-last", (label, focused)
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("none", ""), (label, outline)
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => ({STEP_JS})() === {steps}")
        no_english(page, lang, label)
        assert run_axe(page, axe_source) == [], label

        page.go_back()  # the browser's Back: the standings again
        page.wait_for_selector("#end-panel:not([hidden])")
        assert not page.locator("#replay").is_visible(), label
        assert "#" not in page.url
        # Pressed on the standings, the keys leave the replay alone.
        page.keyboard.press("Home")
        assert page.evaluate(STEP_JS) == steps, label
        assert ann.errors == [], (label, ann.errors)
        ann.close()


def test_the_analysis_is_a_screen_of_its_own_and_back_returns_to_the_standings(
    browser: Any, finished_duel: tuple[Server, str, Any, dict[str, Any]], axe_source: str
) -> None:
    server, table, storage, _ = finished_duel
    for lang, viewport in (("fr", "desktop"), ("en", "phone")):
        label = f"{lang}-{viewport}"
        ann = open_as(browser, storage, lang, viewport)
        page = ann.page
        page.goto(f"{server.url}/t/{table}")
        page.locator("#open-analysis").click()
        page.wait_for_selector("#analysis[data-status='none']")
        assert page.url.endswith("#analysis")
        assert page.locator("#analyze").is_visible(), label
        assert not page.locator("#end-panel").is_visible(), label
        assert not page.locator("#replay-chat").is_visible(), label  # the replay's, not here
        assert page.locator("#replay-heading").inner_text() == catalog(lang)["analysis.heading"]
        page.keyboard.press("ArrowRight")  # its board steps by the same keys
        page.wait_for_function(f"() => ({STEP_JS})() === 1")
        no_english(page, lang, label)
        assert run_axe(page, axe_source) == [], label

        # Switching to the replay is no page further: Back still returns to the standings.
        page.locator("#screen-replay").click()
        page.wait_for_selector("#replay-chat:not([hidden])")
        assert page.url.endswith("#replay")
        page.go_back()
        page.wait_for_selector("#end-panel:not([hidden])")
        assert not page.locator("#replay").is_visible(), label

        # Opened from an address (My games links to #analysis), its own button returns.
        page.goto(f"{server.url}/t/{table}#analysis")
        page.wait_for_selector("#analysis:not([hidden])")
        page.locator("#replay-close").click()
        page.wait_for_selector("#end-panel:not([hidden])")
        assert "#" not in page.url and not page.locator("#replay").is_visible(), label
        assert ann.errors == [], (label, ann.errors)
        ann.close()


@pytest.fixture(scope="module")
def plugin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``cardtable serve`` with the fixture game (no board of its own) installed as a plugin."""
    with registered():
        running = Server(tmp_path_factory.mktemp("end-plugin") / "tables.sqlite3")
        running.start()
        yield running
        running.stop()


@pytest.mark.parametrize(("game", "bot"), [("fixture-trick", "lowest"), ("myrummy-111", "easy")])
def test_a_watched_game_of_bots_ends_on_one_screen_without_null(
    browser: Any,
    plugin_server: Server,
    axe_source: str,
    game: str,
    bot: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Watched (no seat, so no rematch): the standings, the deciding round and
    replay, analysis and download in the first screen; the generic board's
    page shows no "null" where a board would draw the last round."""
    # English is looked for in the shell's and the boards' catalogs: the plugin brings none.
    every = registry.game_names
    monkeypatch.setattr(
        registry,
        "game_names",
        lambda: [n for n in every() if registry.manifest(n).web_client],
    )
    table = post(plugin_server, "/api/tables", {
        "game": game, "seats": [{"kind": "bot", "bot": bot}] * 2, "bot_delay_ms": 0,
    })["id"]  # fmt: skip
    for viewport in VIEWPORTS:
        for lang in ("en", "de"):
            label = f"{game}-{lang}-{viewport}"
            person = Person.open(browser, "Zoe", viewport=VIEWPORTS[viewport], locale=lang)
            page = person.page
            page.goto(f"{plugin_server.url}/t/{table}")
            page.wait_for_selector("#end-panel:not([hidden])", timeout=END_TIMEOUT_MS)
            last = person.states()[-1]
            assert last["finished"]
            check_first_screen(page, last, BUTTONS[1:], label)
            assert page.locator("#rematch").count() == 0
            no_english(page, lang, label)
            assert run_axe(page, axe_source) == [], label
            assert person.errors == [], (label, person.errors)
            person.close()


def test_the_deciding_round_follows_its_rule(browser: Any, plugin_server: Server) -> None:
    """end.js's decidingRound against the rule (docs/browser.md) on games made
    up to reach each case, and the same rule written in Python above."""
    page = Person.open(browser, "Zoe").page
    page.goto(plugin_server.url + "/")
    cases: list[tuple[list[list[int]], list[int], tuple[int, str]]] = [
        ([[0, 2], [3, 0], [1, 0]], [0], (2, "lead")),  # behind, ahead after round 2, stays
        # Lost the lead in round 2, took it back for good in round 3.
        ([[2, 0], [0, 3], [5, 0]], [0], (3, "lead")),
        ([[4, 0], [1, 1]], [0], (1, "first")),  # ahead from the start
        ([[3, 1]], [0], (1, "only")),
        ([[2, 2], [1, 1]], [1], (2, "last")),  # level at the end: a tie-break decided it
        ([[2, 2]], [0, 1], (1, "last")),  # every seat shares the win
        ([[5, 0, 5], [0, 9, 0], [5, 0, 5]], [0, 2], (3, "lead")),  # shared: both ahead of seat 1
        ([[9, 1], [0, 5], [0, 0]], [1], (1, "first")),  # fewer points win: seat 1 low all along
        ([[1, 3], [9, 0]], [1], (2, "lead")),  # fewer points win: seat 1 ahead only after round 2
    ]
    for rounds, winners, expected in cases:
        assert deciding_round(rounds, winners) == expected, (rounds, winners)
        got = page.evaluate(
            """async ([rounds, winners]) => {
                const { decidingRound } = await import('/static/end.js');
                const d = decidingRound(rounds, winners);
                return d && [d.round, d.how, d.points];
            }""",
            [rounds, winners],
        )
        assert got == [expected[0], expected[1], rounds[expected[0] - 1]], (rounds, winners)
    # No rounds' points in the view: no deciding round is made up.
    for bad in (None, [], [[1, "2"]], [[1, 2], [3]]):
        got = page.evaluate(
            "async (rounds) => (await import('/static/end.js')).decidingRound(rounds, [0])", bad
        )
        assert got is None, bad
    page.context.close()
