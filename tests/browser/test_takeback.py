"""A take-back in two browsers (issue 29, item 5; docs/server.md, "Take-backs"):
at a friendly Marshmallow Test table Ann plays a card, asks to take it back,
Bob accepts, and the card is in Ann's hand again; in English, German and
French (no English left on the other languages' pages). Ann sits at a desktop, Bob at a phone.
Screenshots go to test-artifacts/ and /tmp/shots/takeback/."""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import PHONE, Person, Server, shoot
from tests.browser.test_languages import catalog, english_left

SHOTS = Path("/tmp/shots/takeback")


def friendly_table(server: Server) -> str:
    body = {
        "game": "marshmallow-test", "options": {"target": 30}, "private": True,
        "rated": False, "bot_delay_ms": 0, "seats": [{"kind": "human"}, {"kind": "human"}],
    }  # fmt: skip
    request = urllib.request.Request(
        server.url + "/api/tables", data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request) as response:
        table_id: str = json.load(response)["id"]
    return table_id


def seat(person: Person, server: Server, table: str, seat: int) -> None:
    page = person.page
    page.goto(f"{server.url}/t/{table}")
    page.locator("#join-name").fill(person.name)
    page.locator(f"#join-panel button[data-seat='{seat}']").click()
    page.wait_for_selector("#join-panel", state="hidden")
    person.wait_connected()


def move(person: Person, other: Person, touch: bool) -> None:
    """One decision for ``person``, whose turn it is (a trump, or a card);
    until both pages show the state after it."""
    page = person.page
    seq = person.status()["seq"]
    if page.locator(".mt-trump-choice button").count():
        page.locator(".mt-trump-choice button").first.click()
    else:
        page.locator(".mt-hand button.is-playable").first.click()
        if touch:  # a touch screen confirms each card: the second tap plays it
            page.locator(".mt-hand button.is-selected").click()
    person.wait_past(seq)
    other.wait_past(seq)


def save(page: Any, screenshots: Path, name: str) -> None:
    path = shoot(page, screenshots, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_ann_takes_back_a_card_and_bob_accepts(
    browser: Any, server: Server, screenshots: Path, lang: str
) -> None:
    words = catalog(lang)
    table = friendly_table(server)
    ann = Person.open(browser, "Ann", locale=lang)
    bob = Person.open(browser, "Bob", viewport=PHONE, locale=lang, is_mobile=True, has_touch=True)
    seat(ann, server, table, 0)
    seat(bob, server, table, 1)
    # Play on until Ann is to play a card (a trump is chosen first, by whoever chooses).
    for _ in range(12):
        if ann.status()["mine"] and ann.page.locator(".mt-hand button.is-playable").count():
            break
        if ann.status()["mine"]:
            move(ann, bob, touch=False)
        else:
            move(bob, ann, touch=True)
    card = ann.page.locator(".mt-hand button.is-playable").first.get_attribute("data-card")
    assert card
    hand = ann.page.locator(".mt-hand button.card").count()
    assert ann.page.locator("#takeback-ask").is_hidden()
    move(ann, bob, touch=False)
    assert ann.page.locator(f".mt-hand button[data-card='{card}']").count() == 0
    ask = ann.page.locator("#takeback-ask")
    ask.wait_for(state="visible")
    assert ask.inner_text() == words["takeback.ask"]
    save(ann.page, screenshots, f"takeback-{lang}-offer-desktop")
    ask.click()
    prompt = bob.page.locator("#takeback-prompt")
    prompt.wait_for(state="visible")
    question = words["takeback.prompt"].replace("{name}", "Ann")
    assert bob.page.locator("#takeback-question").inner_text() == question
    ann.page.locator("#takeback-waiting").wait_for(state="visible")
    save(ann.page, screenshots, f"takeback-{lang}-asking-desktop")
    save(bob.page, screenshots, f"takeback-{lang}-prompt-phone")
    if lang != "en":
        assert english_left(ann.page, lang) == [] and english_left(bob.page, lang) == []
    seq = ann.status()["seq"]
    bob.page.locator("#takeback-accept").click()
    ann.wait_past(seq)
    # The card is in Ann's hand again, it is her turn, and the log says so.
    ann.page.locator(f".mt-hand button[data-card='{card}']").wait_for()
    assert ann.page.locator(".mt-hand button.card").count() == hand
    assert ann.status()["mine"]
    done = words["takeback.done"].replace("{name}", "Ann")
    ann.page.locator(".table-events li", has_text=done).wait_for(state="attached")
    assert prompt.is_hidden() and ann.page.locator("#takeback-waiting").is_hidden()
    save(ann.page, screenshots, f"takeback-{lang}-done-desktop")
    if lang != "en":
        assert english_left(ann.page, lang) == []
    assert not ann.errors and not bob.errors
    ann.close()
    bob.close()
