"""Rated or friendly tables in the browser: the create form's "Rated" box is
ticked for a signed-in creator and unavailable to a guest, the table's header
and the open tables say which a table is, and the lobby filters on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot
from tests.browser.test_accounts import sign_up


def create_from_the_form(person: Person, server: Server, rated: bool) -> str:
    """Set up a Marshmallow Test table in the lobby's form; its id."""
    page = person.page
    page.goto(server.url + "/")
    page.locator("#set-up > summary").click()  # the set-up form is folded (issue 29)
    box = page.locator("#new-rated")
    page.wait_for_function("() => document.querySelector('#new-rated')?.disabled === false")
    assert box.is_checked()  # a signed-in creator's tables are rated unless they say not
    box.set_checked(rated)
    page.get_by_role("button", name="Create table").click()
    person.wait_seated()
    badge = page.locator(".table-head [data-rated]")
    assert badge.inner_text() == ("Rated" if rated else "Friendly")
    return str(page.url.rsplit("/", 1)[1])


def test_a_table_is_made_rated_or_friendly_and_the_lobby_filters_on_it(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    ann = Person.open(browser, "Ann")
    ann.page.goto(server.url + "/account")
    sign_up(ann.page, "Ann", "**/me")
    friendly = create_from_the_form(ann, server, rated=False)
    rated = create_from_the_form(ann, server, rated=True)

    cy = Person.open(browser, "Cy", viewport=PHONE)
    page = cy.page
    page.goto(server.url + "/")
    page.wait_for_selector(f".table-list a[href='/t/{rated}']")
    page.locator("#set-up > summary").click()  # the set-up form is folded (issue 29)
    box = page.locator("#new-rated")
    assert box.is_disabled() and not box.is_checked()  # a guest has no rating to play for
    assert "Sign in to make a rated table" in page.locator("#new-rated-help").inner_text()
    item = page.locator(".table-item")
    assert (
        item.filter(has=page.locator(f"a[href='/t/{friendly}']"))
        .locator("[data-rated='false']")
        .inner_text()
        == "Friendly"
    )
    assert (
        item.filter(has=page.locator(f"a[href='/t/{rated}']"))
        .locator("[data-rated='true']")
        .inner_text()
        == "Rated"
    )
    shoot(page, screenshots, "lobby-rated-phone")
    assert run_axe(page, axe_source) == []
    filter_by = page.get_by_label("Rated or friendly", exact=True)
    filter_by.select_option("false")
    page.wait_for_selector(f".table-list a[href='/t/{rated}']", state="detached")
    assert page.locator(f".table-list a[href='/t/{friendly}']").count() == 1
    filter_by.select_option("true")
    page.wait_for_selector(f".table-list a[href='/t/{friendly}']", state="detached")
    assert page.locator(f".table-list a[href='/t/{rated}']").count() == 1

    ann.page.goto(server.url + "/")
    ann.page.wait_for_selector(f".table-list a[href='/t/{friendly}']")
    shoot(ann.page, screenshots, "lobby-rated-desktop")
    assert ann.errors == [] and cy.errors == []
    ann.close()
    cy.close()
