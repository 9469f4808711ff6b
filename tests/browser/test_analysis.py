"""A finished game's analysis beside its replay: a person plays a short
Marshmallow Test game against a bot, opens the replay, asks for the analysis
from the keyboard, sees each decision's class beside the board, and jumps to
a costly decision; a phone shows the same analysis, stored, at once. And the
analysis as a player reads it (issue 29, item 4) in English, German and
French, desktop and phone: the move called best tops its table, a better
move is named only beside an inaccuracy or worse, accuracy has its unit, the
legend says the classes in words with the statistics in a fold, and no
English is left on a German or French page."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import (
    PHONE,
    Person,
    Server,
    play_until_finished,
    run_axe,
    shoot,
)

CLASS_WORDS = {"best", "fine", "inaccuracy", "mistake", "blunder"}
NAMED = ("inaccuracy", "mistake", "blunder")  # the classes that name a better move
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": PHONE}
DONE_TIMEOUT_MS = 240_000  # a bound on the whole analysis, never a check of its speed


@pytest.fixture
def analyzing_server(tmp_path: Path) -> Iterator[Server]:
    """``cardtable serve`` with a tiny analysis budget, so a game takes seconds."""
    running = Server(tmp_path / "tables.sqlite3", "--analysis-budget", "0.02")
    running.start()
    yield running
    running.stop()


def post(server: Server, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def get(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.load(response)


def play(person: Person, made: int) -> None:
    page = person.page
    if page.locator(".mt-trump-choice").count():
        page.locator(".mt-trump-choice button").first.click()
    else:
        page.locator(".mt-hand button.is-playable").first.click()


def step_shown(person: Person) -> int:
    return int(person.page.locator("#replay-step").input_value())


def short_duel(server: Server) -> str:
    """A short Marshmallow Test table (target 4): Ann's seat 0 against an easy bot."""
    return str(
        post(
            server,
            "/api/tables",
            {
                "game": "marshmallow-test",
                "options": {"target": 4},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                "bot_delay_ms": 0,
            },
        )["id"]
    )


def test_the_replay_shows_the_analysis_beside_each_decision(
    browser: Any, analyzing_server: Server, axe_source: str, screenshots: Path
) -> None:
    server = analyzing_server
    table = short_duel(server)
    ann = Person.open(browser, "Ann")
    page = ann.page
    page.goto(f"{server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()
    play_until_finished([ann], play)

    page.locator("#open-analysis").click()
    page.wait_for_selector("#analysis[data-status='none']")
    analyze = page.locator("#analyze")
    analyze.focus()
    page.keyboard.press("Enter")  # from the keyboard
    page.wait_for_selector("#analysis[data-status='done']", timeout=DONE_TIMEOUT_MS)
    assert analyze.is_hidden()
    served = get(server, f"/api/tables/{table}/analysis")
    decisions, notes = served["analysis"]["decisions"], served["notes"]
    by_step = {note["step"]: d for d, note in zip(decisions, notes, strict=True)}
    steps = int(page.locator("#replay-step").get_attribute("max") or 0)
    assert len(decisions) == steps  # every seat, every decision

    # Beside each decision: who moves, its class as colour and word, the move played.
    names = {0: "Ann", 1: "Bot 2 (easy)"}  # seats counted from 1 for people
    page.locator("#replay-first").click()
    for step in range(min(steps, 8)):
        page.wait_for_function(
            f"() => document.querySelector('.replay-board').dataset.step === '{step}'"
        )
        decision = by_step[step]
        current = page.locator("#analysis-current")
        assert names[decision["seat"]] in current.locator("h4").inner_text()
        if decision["class"] is None:
            assert "only legal move" in current.inner_text()
        else:
            mark = current.locator(".an-verdict .an-class")
            assert mark.get_attribute("data-class") == decision["class"]
            assert decision["class"] in mark.inner_text()  # the word, not colour alone
            assert current.locator(".an-alternatives tbody tr").count() >= 2
            assert decision["class"] in page.locator(".replay-position").inner_text()
        page.locator("#replay-next").click()

    # The list of decisions: one tab stop, arrows move the replay along it.
    first = page.locator("#analysis-moves button.an-move").first
    first.click()
    page.keyboard.press("ArrowDown")
    page.wait_for_function(
        f"() => document.querySelector('.replay-board').dataset.step === '{notes[1]['step']}'"
    )
    assert page.locator("#analysis-moves button[aria-current='step']").get_attribute(
        "data-step"
    ) == str(notes[1]["step"])
    badges = page.locator("#analysis-moves .an-class").all_inner_texts()
    assert len(badges) == steps
    assert all(any(w in b for w in (*CLASS_WORDS, "forced")) for b in badges)

    # Each player's summary; a costly decision (the bot's if it made one),
    # clicked, shows the replay at that step as its seat saw it.
    summaries = page.locator(".an-player")
    assert summaries.count() == 2
    for player in served["analysis"]["players"]:
        summary = page.locator(f".an-player[data-seat='{player['seat']}']")
        assert f"{player['accuracy']:.1f}%" in summary.locator(".an-accuracy").inner_text()
        assert summary.locator(".an-jump").count() == len(player["costliest"])
    costly_seats = [p["seat"] for p in served["analysis"]["players"] if p["costliest"]]
    assert costly_seats, "at this budget someone makes an inaccuracy or worse"
    seat = max(costly_seats)
    costly = page.locator(f".an-player[data-seat='{seat}'] .an-jump").first
    target = int(costly.get_attribute("data-step") or -1)
    costly.click()
    page.wait_for_function(
        f"() => document.querySelector('.replay-board').dataset.step === '{target}'"
    )
    assert step_shown(ann) == target
    assert page.locator("#replay-seat").input_value() == str(seat)
    assert page.locator(".replay-position").inner_text().startswith(f"Decision {target} of")
    assert page.evaluate("() => document.activeElement.id") == "analysis-current"
    assert names[seat] in page.locator("#analysis-current h4").inner_text()
    shoot(page, screenshots, "analysis-desktop")
    assert run_axe(page, axe_source) == []
    assert ann.errors == []

    # On a phone (a spectator): stored, so shown at once; tapping works the same.
    phone = Person.open(
        browser, "Pia", viewport=PHONE, is_mobile=True, has_touch=True, color_scheme="dark"
    )
    phone.page.goto(f"{server.url}/t/{table}")
    phone.page.locator("#open-analysis").click()
    phone.page.wait_for_selector("#analysis[data-status='done']")
    assert phone.page.locator("#analyze").is_hidden()
    tap = phone.page.locator(f".an-player[data-seat='{seat}'] .an-jump").first
    target = int(tap.get_attribute("data-step") or -1)
    tap.tap()
    phone.page.wait_for_function(
        f"() => document.querySelector('.replay-board').dataset.step === '{target}'"
    )
    width = phone.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing wider than the phone
    phone.page.locator("#analysis").screenshot(
        path=str(screenshots / "analysis-phone-panel.png"), animations="disabled"
    )
    shoot(phone.page, screenshots, "analysis-phone")
    assert run_axe(phone.page, axe_source) == []
    assert phone.errors == []
    ann.close()
    phone.close()


def finished_and_analyzed(browser: Any, server: Server) -> tuple[str, dict[str, Any]]:
    """A short game, Ann (first playable card) against an easy bot, played to
    its end and analyzed for both seats; the table and the served analysis."""
    table = short_duel(server)
    ann = Person.open(browser, "Ann")
    ann.page.goto(f"{server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()
    play_until_finished([ann], play)
    ann.close()
    post(server, f"/api/tables/{table}/analysis", {"seat": None})
    ann = Person.open(browser, "Ann")
    ann.page.goto(f"{server.url}/t/{table}")
    ann.page.locator("#open-analysis").click()
    ann.page.wait_for_selector("#analysis[data-status='done']", timeout=DONE_TIMEOUT_MS)
    ann.close()
    served: dict[str, Any] = get(server, f"/api/tables/{table}/analysis")
    return str(table), served


def show_decision(page: Any, step: int) -> Any:
    """The decision made at ``step``, shown from the list; its block."""
    page.locator(f"#analysis-moves button.an-move[data-step='{step}']").click()
    page.wait_for_function(
        f"() => document.querySelector('.replay-board').dataset.step === '{step}'"
    )
    return page.locator("#analysis-current")


def check_decision(current: Any, decision: dict[str, Any]) -> None:
    """The move called best tops its table; a better move and a cost only
    beside a decision named a loss, and never a cost of nothing."""
    rows = current.locator(".an-alternatives tbody tr")
    assert rows.first.get_attribute("data-best") == "true", decision
    assert current.locator(".an-alternatives tbody tr[data-best='true']").count() == 1
    if decision["class"] == "best":
        assert rows.first.get_attribute("data-played") == "true", decision
    named = decision["class"] in NAMED
    assert current.locator(".an-better").count() == int(named), decision
    assert current.locator(".an-cost").count() == int(named), decision
    if named:
        assert not re.search(r"(?<![\d.])0\.0%", current.locator(".an-cost").inner_text())


def test_the_analysis_reads_plainly_in_each_language(
    browser: Any, analyzing_server: Server, axe_source: str, screenshots: Path
) -> None:
    # Imported here: test_languages imports this module's helpers.
    from tests.browser.test_languages import catalog, english_left

    server = analyzing_server
    table, served = finished_and_analyzed(browser, server)
    decisions, notes = served["analysis"]["decisions"], served["notes"]
    judged = [(d, n["step"]) for d, n in zip(decisions, notes, strict=True) if d["class"]]
    assert judged
    players = served["analysis"]["players"]
    named_steps = {s for d, s in judged if d["class"] in NAMED}
    fine = next((s for d, s in judged if d["class"] == "fine"), None)
    for lang in ("en", "de", "fr"):
        words = catalog(lang)
        for viewport, size in VIEWPORTS.items():
            phone = viewport == "phone"
            person = Person.open(
                browser, "Ann", viewport=size, locale=lang, is_mobile=phone, has_touch=phone
            )
            page = person.page
            page.goto(f"{server.url}/t/{table}")
            page.locator("#open-analysis").click()
            page.wait_for_selector("#analysis[data-status='done']")
            assert page.evaluate("document.documentElement.lang") == lang
            label = f"{lang}-{viewport}"

            # Every decision in English on the desktop; in the others one named
            # a loss (the costliest) and one fine.
            if (lang, viewport) == ("en", "desktop"):
                shown = judged
            else:
                costly = [s for s in (min(named_steps, default=None), fine) if s is not None]
                shown = [(d, s) for d, s in judged if s in costly]
            for decision, step in shown:
                current = show_decision(page, step)
                check_decision(current, decision)
                mark = current.locator(".an-verdict .an-class")
                assert words[f"class.{decision['class']}"] in mark.inner_text(), label

            # Accuracy with its unit and its meaning; costliest only if named.
            for player in players:
                summary = page.locator(f".an-player[data-seat='{player['seat']}']")
                value = words["analysis.accuracyValue"].format(value=f"{player['accuracy']:.1f}")
                assert "%" in value
                assert value in summary.locator(".an-accuracy").inner_text(), label
                meaning = summary.locator(".an-accuracy-meaning").inner_text()
                assert meaning == words["analysis.accuracyMeaning"], label
                costly_named = player["costliest"]
                assert summary.locator(".an-jump").count() == len(costly_named)
                assert summary.locator("h5").count() == int(bool(costly_named))
                for better in summary.locator(".an-costly-better").all_inner_texts():
                    assert not re.search(r"\+0\.0%", better), (label, better)

            # The legend: the classes in words, the statistics folded away.
            legend = page.locator("#analysis-legend")
            assert legend.locator("dt .an-class").count() == len(CLASS_WORDS)
            stats = legend.locator("details.an-stats")
            assert stats.count() == 1 and stats.get_attribute("open") is None
            assert not legend.locator(".an-stats p").first.is_visible()
            assert words["analysis.legendInaccuracy"].format(inaccuracy="3") in legend.inner_text()
            stats.locator("summary").click()
            assert legend.locator(".an-stats p").first.is_visible()

            step = min(named_steps) if named_steps else judged[0][1]
            show_decision(page, step)
            if lang != "en":
                assert english_left(page, lang) == [], label
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], label
            assert run_axe(page, axe_source) == [], label
            page.locator("#analysis").scroll_into_view_if_needed()
            shoot(page, screenshots, f"analysis-read-{label}")
            page.locator("#analysis").screenshot(
                path=str(screenshots / f"analysis-read-{label}-panel.png"), animations="disabled"
            )
            assert person.errors == [], (label, person.errors)
            person.close()
