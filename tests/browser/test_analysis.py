"""A finished game's analysis beside its replay: a person plays a short
Marshmallow Test game against a bot, opens the replay, asks for the analysis
from the keyboard, sees each decision's class beside the board, and jumps to
a costly decision; a phone shows the same analysis, stored, at once."""

from __future__ import annotations

import json
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

CLASS_WORDS = {"best", "good", "inaccuracy", "mistake", "blunder", "unclear"}
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


def test_the_replay_shows_the_analysis_beside_each_decision(
    browser: Any, analyzing_server: Server, axe_source: str, screenshots: Path
) -> None:
    server = analyzing_server
    table = post(
        server,
        "/api/tables",
        {
            "game": "marshmallow-test",
            "options": {"target": 4},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "bot_delay_ms": 0,
        },
    )["id"]
    ann = Person.open(browser, "Ann")
    page = ann.page
    page.goto(f"{server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()
    play_until_finished([ann], play)

    page.locator("#open-replay").click()
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

    # Each player's summary; a costly decision of the bot's, clicked, shows
    # the replay at that step as the bot saw it.
    summaries = page.locator(".an-player")
    assert summaries.count() == 2
    for player in served["analysis"]["players"]:
        summary = page.locator(f".an-player[data-seat='{player['seat']}']")
        assert f"{player['accuracy']:.1f}" in summary.locator(".an-accuracy").inner_text()
        assert summary.locator(".an-jump").count() == len(player["costliest"])
    costly = page.locator(".an-player[data-seat='1'] .an-jump").first
    target = int(costly.get_attribute("data-step") or -1)
    costly.click()
    page.wait_for_function(
        f"() => document.querySelector('.replay-board').dataset.step === '{target}'"
    )
    assert step_shown(ann) == target
    assert page.locator("#replay-seat").input_value() == "1"
    assert page.locator(".replay-position").inner_text().startswith(f"Decision {target} of")
    assert page.evaluate("() => document.activeElement.id") == "analysis-current"
    assert names[1] in page.locator("#analysis-current h4").inner_text()
    shoot(page, screenshots, "analysis-desktop")
    assert run_axe(page, axe_source) == []
    assert ann.errors == []

    # On a phone (a spectator): stored, so shown at once; tapping works the same.
    phone = Person.open(
        browser, "Pia", viewport=PHONE, is_mobile=True, has_touch=True, color_scheme="dark"
    )
    phone.page.goto(f"{server.url}/t/{table}")
    phone.page.locator("#open-replay").click()
    phone.page.wait_for_selector("#analysis[data-status='done']")
    assert phone.page.locator("#analyze").is_hidden()
    tap = phone.page.locator(".an-player[data-seat='0'] .an-jump").first
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
