"""E-mail notices in the browser (issue 30, item 3): on the account page a
person gives an address, opens the link of the mail that arrives at a real
SMTP server on 127.0.0.1, chooses what they are told of, and stops it all
from the mail's unsubscribe page without signing in; a server started
without ``--smtp`` says it sends no mail. English and German, desktop and phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot
from tests.browser.test_accounts import sign_up
from tests.server.accounts.smtp_helpers import Inbox, link_in, smtp_server

ADDRESS = "ann@example.org"


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as found:
        yield found


@pytest.fixture
def mailing(tmp_path: Path, inbox: Inbox) -> Iterator[Server]:
    """``cardtable serve --smtp`` sending to the test's SMTP server."""
    running = Server(tmp_path / "tables.sqlite3", "--smtp", inbox.url, "--mail-from", "c@x.org")
    running.start()
    yield running
    running.stop()


def switches(page: Any, channel: str = "mail") -> dict[str, bool]:
    """The switches of one column of the kinds' table: ``mail`` or ``browser``."""
    column = 2 if channel == "mail" else 3
    boxes = page.locator(f"#notices .notices-grid tbody td:nth-child({column}) input")
    return {box.get_attribute("name"): box.is_checked() for box in boxes.all()}


def open_account(page: Any, server: Server) -> None:
    page.goto(server.url + "/account")
    page.wait_for_selector("#notices-state")


def test_an_address_verified_by_its_mail_chosen_kinds_and_one_click_unsubscribe(
    browser: Any, mailing: Server, inbox: Inbox, axe_source: str, screenshots: Path
) -> None:
    page = Person.open(browser, "Ann").page
    page.goto(mailing.url + "/account")
    sign_up(page, "Ann", "**/me")
    open_account(page, mailing)
    assert page.locator("#notices-state").inner_text() == "No address yet: you get no e-mail."
    assert page.locator("#notices [name=your_turn]").is_disabled()  # no switch without an address
    page.locator("#notices-email").fill("not an address")
    page.locator("#notices button[type=submit]").click()
    assert page.locator("#notices-email:invalid").count() == 1  # the browser refuses it first
    page.locator("#notices-email").fill(ADDRESS)
    page.locator("#notices button[type=submit]").click()
    page.wait_for_selector("#notices-state:has-text('We sent a link to ann@example.org')")
    (mail,) = inbox.wait_for(ADDRESS, 1)
    shoot(page, screenshots, "notices-sent-desktop")

    page.goto(mailing.url + link_in(mail, "/verify-email/"))
    assert page.locator("h1").inner_text() == "Address confirmed"
    shoot(page, screenshots, "notices-verified-page-desktop")
    open_account(page, mailing)
    assert page.locator("#notices-state").inner_text() == f"Confirmed: notices go to {ADDRESS}."
    assert switches(page) == dict.fromkeys(
        ["your_turn", "deadline_soon", "finished", "invite"], True
    )
    page.get_by_role("switch", name="when a game of mine ends By e-mail").uncheck()
    page.wait_for_function("() => !document.querySelector('#notices [name=finished]').checked")
    open_account(page, mailing)  # what the server keeps
    assert switches(page)["finished"] is False and switches(page)["your_turn"] is True
    shoot(page, screenshots, "notices-verified-desktop")
    assert run_axe(page, axe_source) == []
    page.set_viewport_size(PHONE)
    shoot(page, screenshots, "notices-verified-phone")

    # The mail's unsubscribe page, in a browser that never signed in.
    stranger = Person.open(browser, "Stranger").page
    stranger.goto(mailing.url + link_in(mail, "/unsubscribe/"))
    shoot(stranger, screenshots, "notices-unsubscribe-page-desktop")
    stranger.get_by_role("button", name="Stop all e-mails").click()
    stranger.wait_for_selector("text=cardtable sends you no more notices by e-mail")
    shoot(stranger, screenshots, "notices-unsubscribed-desktop")
    open_account(page, mailing)
    assert not any(switches(page).values())
    assert all(switches(page, "browser").values())  # the mail's link stops mail only


def test_german_words_and_a_server_without_smtp(
    browser: Any, server: Server, mailing: Server, inbox: Inbox, screenshots: Path
) -> None:
    page = Person.open(browser, "Bea", viewport=PHONE).page
    page.goto(mailing.url + "/account")
    page.evaluate("() => localStorage.setItem('cardtable.lang', 'de')")
    sign_up(page, "Bea", "**/me")
    open_account(page, mailing)
    assert page.locator("#notices-heading").inner_text() == "Benachrichtigungen"
    page.locator("#notices-email").fill("bea@example.org")
    page.locator("#notices button[type=submit]").click()
    page.wait_for_selector("#notices-state:has-text('Wir haben einen Link an bea@example.org')")
    (mail,) = inbox.wait_for("bea@example.org", 1)
    assert mail["Subject"] == "Bestätige deine Adresse für cardtable"  # the page's language
    shoot(page, screenshots, "notices-sent-de-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    shoot(page, screenshots, "notices-sent-de-desktop")

    plain = Person.open(browser, "Cy").page  # `cardtable serve` without --smtp
    plain.goto(server.url + "/account")
    sign_up(plain, "Cy", "**/me")
    plain.goto(server.url + "/account")
    shown = plain.locator("#notices-unavailable")
    shown.wait_for()
    assert shown.inner_text() == "This server sends no e-mail."
    assert plain.locator("#notices-email").count() == 0


def account_page(browser: Any, server: Server, name: str, lang: str = "en", **options: Any) -> Any:
    """``name``'s account page, signed up in ``lang``, once the push part is drawn."""
    page = Person.open(browser, name, **options).page
    page.goto(server.url + "/account")
    page.evaluate(f"() => localStorage.setItem('cardtable.lang', '{lang}')")
    sign_up(page, name, "**/me")
    page.goto(server.url + "/account")
    page.wait_for_selector("#notices-push-state")
    return page


def test_notifications_in_this_browser_ask_subscribe_or_say_why_not(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    """Web Push on the account page (issue 30, item 3; docs/server.md,
    "Notifications"). 127.0.0.1 is a secure context, so Chromium offers the
    switch; with the permission given, switching it on registers the service
    worker at the site's root and asks the push service for a subscription,
    which fails here (no push service can be reached from this machine), and
    the page says so. A browser without Push or a page not on HTTPS is told why."""
    page = account_page(browser, server, "Ann")
    page.context.grant_permissions(["notifications"], origin=server.url)
    switch = page.get_by_role("switch", name="Notifications in this browser")
    page.wait_for_function("() => !document.querySelector('#notices-push').disabled")
    assert not switch.is_checked()
    assert page.locator("#notices-push-state").inner_text() == (
        "A notice pops up at once, even with no cardtable tab open."
    )
    assert page.locator("#notices [name=push_finished]").is_disabled()  # not subscribed yet
    assert page.locator("#notices [name=finished]").count() == 0  # no mail on this server
    shoot(page, screenshots, "notices-push-desktop")
    assert run_axe(page, axe_source) == []
    worker = page.request.get(server.url + "/push-sw.js")
    assert worker.status == 200 and "javascript" in worker.headers["content-type"]
    assert "showNotification" in worker.text()

    switch.click()
    page.wait_for_selector("#notices-push-state:has-text('could not be signed up')")
    assert not switch.is_checked() and switch.is_enabled()
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration('/'))?.scope")
    assert scope == server.url + "/"  # the worker's scope is the whole site
    shoot(page, screenshots, "notices-push-failed-desktop")
    page.set_viewport_size(PHONE)
    shoot(page, screenshots, "notices-push-failed-phone")

    # A browser without the Push API, in German; a page not served over HTTPS, in French.
    bea = account_page(browser, server, "Bea", "de", viewport=PHONE)
    bea.add_init_script("delete window.PushManager")
    bea.reload()
    bea.wait_for_selector("#notices-push-state")
    assert bea.locator("#notices-push-state").inner_text() == (
        "Dieser Browser kann keine Benachrichtigungen von Websites anzeigen."
    )
    assert bea.locator("#notices-push").count() == 0
    shoot(bea, screenshots, "notices-push-unsupported-de-phone")
    cy = account_page(browser, server, "Cy", "fr")
    cy.add_init_script("Object.defineProperty(window, 'isSecureContext', { value: false })")
    cy.reload()
    cy.wait_for_selector("#notices-push-state")
    assert cy.locator("#notices-push-state").inner_text() == (
        "Les notifications du navigateur exigent un site servi en HTTPS ;"
        " ce n’est pas le cas de cette page."
    )
    shoot(cy, screenshots, "notices-push-insecure-fr-desktop")
