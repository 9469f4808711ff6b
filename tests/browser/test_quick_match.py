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


def test_turn_based_play_now_seats_at_once_and_the_next_person_joins(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    """Issue 30, item 1: Play now at a day a move takes a seat at once at a
    table that waits for the others (no queue, no wait, no bots); the next
    person who asks for the same lands at that table. A guest is asked to
    sign in, in their language, with the link."""
    from tests.browser.test_friends import signed_up  # the accounts' own helper

    guest = Person.open(browser, "Gus", locale="fr-FR")
    guest.page.goto(server.url + "/")
    guest.page.locator(f"#quick-speed-{GAME}").select_option("24")
    guest.page.get_by_role("button", name="Jouer maintenant Marshmallow Test").click()
    refused = guest.page.locator(".quick-error", has_text="Connectez-vous")
    refused.get_by_role("link", name="Se connecter").wait_for()
    assert refused.inner_text().startswith("Connectez-vous pour jouer au tour par tour")
    guest.close()

    ann = signed_up(browser, server, "Ann Paced", "en-US")
    page = ann.page
    page.goto(server.url + "/")
    page.locator(f"#quick-players-{GAME}").select_option("2")
    page.locator(f"#quick-speed-{GAME}").select_option("24")
    assert page.locator(f"#quick-wait-{GAME}").is_hidden()  # nobody waits in a queue
    assert page.locator(f"#quick-then-{GAME}").is_hidden()
    assert (
        "others join over the coming hours" in page.locator(".quick-pace-hint").first.inner_text()
    )
    assert run_axe(page, axe_source) == []
    shoot(page, screenshots, "quick-turn-based-desktop")
    page.get_by_role("button", name="Play now Marshmallow Test").click()
    ann.wait_seated()
    table = page.url.rsplit("/", 1)[1]
    facts = json.loads(
        page.evaluate(
            f"async () => JSON.stringify(await (await fetch('/api/tables/{table}')).json())"
        )
    )
    assert (facts["status"], facts["move_hours"]) == ("waiting", 24)

    bea = signed_up(browser, server, "Bea Paced", "de-DE")
    bea.page.set_viewport_size(PHONE)
    bea.page.goto(server.url + "/")
    bea.page.locator(f"#quick-players-{GAME}").select_option("2")
    bea.page.locator(f"#quick-speed-{GAME}").select_option("24")
    shoot(bea.page, screenshots, "quick-turn-based-de-phone")
    bea.page.get_by_role("button", name="Jetzt spielen Marshmallow Test").click()
    bea.wait_seated()
    assert bea.page.url.rsplit("/", 1)[1] == table
    assert {seat_of(p, table)["seat"] for p in (ann, bea)} == {0, 1}
    bea.page.wait_for_function(
        "() => ['Ann Paced', 'Bea Paced']"
        ".every((n) => document.querySelector('#board').innerText.includes(n))"
    )
    shoot(bea.page, screenshots, "quick-turn-based-seated-de-phone")
    assert ann.errors == [] and bea.errors == []
    ann.close()
    bea.close()
