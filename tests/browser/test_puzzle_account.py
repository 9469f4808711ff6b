"""Puzzles of a signed-in person in Chromium: a guest's try moves into the
account on sign-in (by the server's receipt), the rating shown is the
server's and survives a reload and another browser, and the page passes
axe-core on desktop and phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardtable.learn.puzzles import load_puzzles
from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot
from tests.browser.test_accounts import sign_up
from tests.browser.test_learn import click_move

GAME = "marshmallow-test"


def solve_the_puzzle_shown(page: Any) -> str:
    """Play the solution of the puzzle on the board; its id."""
    page.wait_for_selector("#board[data-puzzle] .mt-hand")
    puzzle = load_puzzles(GAME).by_id(page.locator("#board").get_attribute("data-puzzle"))
    click_move(page, puzzle.legal[puzzle.solution[0]])
    page.wait_for_selector("#puzzle-verdict[data-solved='true']")
    return puzzle.id


def test_a_guests_puzzle_rating_moves_into_the_account_and_stays_on_the_server(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    pia = Person.open(browser, "Pia")
    page = pia.page
    page.goto(f"{server.url}/puzzles/{GAME}")
    solve_the_puzzle_shown(page)
    guest_rating = page.locator("#puzzle-rating").inner_text()
    assert "1500" not in guest_rating  # rated in the browser, as before
    assert page.locator("#puzzle-note a[href='/account']").count() == 1
    shoot(page, screenshots, "puzzles-guest-desktop")

    page.goto(f"{server.url}/account")
    sign_up(page, "Pia Puzzle", "**/me*")
    page.goto(f"{server.url}/puzzles/{GAME}")
    page.wait_for_selector("#board[data-puzzle] .mt-hand")
    assert "the puzzle you tried as a guest now counts" in page.locator("#puzzle-note").inner_text()
    assert page.locator("#puzzle-rating").inner_text() == guest_rating  # replayed by the server
    assert page.evaluate(f"() => localStorage.getItem('cardtable.puzzles.{GAME}')") is None

    solve_the_puzzle_shown(page)
    signed_in_rating = page.locator("#puzzle-rating").inner_text()
    assert signed_in_rating != guest_rating
    shoot(page, screenshots, "puzzles-signed-in-desktop")
    assert run_axe(page, axe_source) == []

    page.reload()
    page.wait_for_selector("#board[data-puzzle] .mt-hand")
    assert page.locator("#puzzle-rating").inner_text() == signed_in_rating
    assert "kept with your account" in page.locator("#puzzle-note").inner_text()
    assert not pia.errors, pia.errors

    # The same account on a phone: the server's rating, not this browser's (it has none).
    phone = Person.open(browser, "Pia", viewport=PHONE)
    phone.page.goto(f"{server.url}/account")
    phone.page.locator("#sign-in-name").fill("Pia Puzzle")
    phone.page.locator("#sign-in-password").fill("correct horse")
    phone.page.locator("#sign-in button[type=submit]").click()
    phone.page.wait_for_url("**/me*")
    phone.page.goto(f"{server.url}/puzzles/{GAME}")
    phone.page.wait_for_selector("#board[data-puzzle] .mt-hand")
    assert phone.page.locator("#puzzle-rating").inner_text() == signed_in_rating
    shoot(phone.page, screenshots, "puzzles-signed-in-phone")
    assert run_axe(phone.page, axe_source) == []
    assert not phone.errors, phone.errors
