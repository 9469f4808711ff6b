"""Quick match in the browser: two people press Play now for the same game and
number of players and land at one table, each in a seat of their own; the
lobby shows how many wait for each game, and the waiting panel can be cancelled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot

GAME = "marshmallow-test"


def press_play_now(person: Person, server: Server, players: int, bots: str = "") -> None:
    """In the lobby: this person's name, the choices, then Play now (bots "": people only)."""
    page = person.page
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill(person.name)
    page.locator(f"#quick-players-{GAME}").select_option(str(players))
    page.locator(f"#quick-then-{GAME}").select_option(bots)
    page.get_by_role("button", name="Play now Marshmallow Test").click()


def seat_of(person: Person, table: str) -> dict[str, Any]:
    saved = person.page.evaluate(f"() => localStorage.getItem('cardtable.seat.{table}')")
    seat: dict[str, Any] = json.loads(saved)
    return seat


def test_two_people_press_play_now_and_land_at_one_table(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    ann = Person.open(browser, "Ann")
    bea = Person.open(browser, "Bea", viewport=PHONE)
    press_play_now(ann, server, 2)
    panel = ann.page.locator(".quick-waiting")
    panel.wait_for()
    assert "1 of 2 players here" in panel.inner_text()
    assert "People only" in panel.inner_text()
    shoot(ann.page, screenshots, "quick-match-waiting-desktop")
    assert run_axe(ann.page, axe_source) == []
    # Bea's lobby counts Ann among those waiting (the lobby refreshes every few seconds).
    bea.page.goto(server.url + "/")
    badge = bea.page.locator(f"[data-waiting-for='{GAME}']")
    badge.filter(has_text="1 waiting").wait_for()
    players = bea.page.locator(f"#quick-players-{GAME} option[value='2']")
    assert "1 waiting" in players.inner_text()
    shoot(bea.page, screenshots, "quick-match-lobby-phone")
    assert run_axe(bea.page, axe_source) == []
    press_play_now(bea, server, 2)
    for person in (ann, bea):
        person.wait_seated()
    tables = {p.page.url.rsplit("/", 1)[1] for p in (ann, bea)}
    assert len(tables) == 1
    (table,) = tables
    seats = {seat_of(p, table)["seat"] for p in (ann, bea)}
    assert seats == {0, 1}
    names = bea.page.locator("#board").inner_text()
    assert "Ann" in names and "Bea" in names
    shoot(bea.page, screenshots, "quick-match-seated-phone")
    assert ann.errors == [] and bea.errors == []
    ann.close()
    bea.close()


def test_waiting_can_be_cancelled_and_leaves_nobody_in_the_queue(
    browser: Any, server: Server, screenshots: Path
) -> None:
    cy = Person.open(browser, "Cy", viewport=PHONE)
    press_play_now(cy, server, 3, bots="easy")
    panel = cy.page.locator(".quick-waiting")
    panel.wait_for()
    assert "bots (easy)" in panel.inner_text()
    shoot(cy.page, screenshots, "quick-match-waiting-phone")
    cy.page.get_by_role("button", name="Cancel").click()
    panel.wait_for(state="detached")
    waiting = cy.page.evaluate("async () => (await (await fetch('/api/quick')).json()).waiting")
    assert waiting == []
    assert cy.page.get_by_role("button", name="Play now Marshmallow Test").is_enabled()
    assert cy.errors == []
    cy.close()
