"""Friends in the browser (issue 29, item 2): Ann follows Bob from his name at
the table (the profile card), sees him online at his table in her friends
list, invites him to her table in one click, and Bob sees the invitation on
his next page load, with Join. In English and in German (no English left on
the pages); the card and the friends list shot at 1280x800 and 390x844; the
profile page carries the same Follow / Block buttons."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import PHONE, Person, Server, run_axe
from tests.browser.test_accounts import sign_up
from tests.browser.test_languages import english_left

SHOTS = Path("/tmp/shots/friends")
DESKTOP = {"width": 1280, "height": 800}


def waiting_table(server: Server) -> str:
    """A two-person Marshmallow Test table, both seats free (made over HTTP)."""
    body = {"game": "marshmallow-test", "seats": [{"kind": "human"}, {"kind": "human"}]}
    request = urllib.request.Request(
        f"{server.url}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(json.load(response)["id"])


def signed_up(browser: Any, server: Server, name: str, lang: str) -> Person:
    person = Person.open(browser, name, viewport=DESKTOP, locale=lang)
    person.page.goto(server.url + "/account")
    sign_up(person.page, name, "**/me")
    return person


def sit(person: Person, server: Server, table: str) -> None:
    """Take seat 0 of ``table`` (the account's name is the seat's)."""
    person.page.goto(f"{server.url}/t/{table}")
    person.page.locator("#join-panel button[data-seat='0']").click()
    person.page.wait_for_function("() => document.querySelector('#board .is-me') !== null")


def shots(page: Any, name: str, lang: str) -> None:
    """The page at 1280x800 and at 390x844, then back."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{lang}-desktop.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SHOTS / f"{name}-{lang}-phone.png"))
    page.set_viewport_size(DESKTOP)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ann_follows_bob_from_the_table_sees_him_online_and_invites_him(
    browser: Any, server: Server, axe_source: str, lang: str
) -> None:
    words = json.loads(
        (Path(__file__).parents[2] / f"cardtable/server/web/static/i18n/{lang}.json").read_text()
    )
    bob = signed_up(browser, server, "Bob", lang)
    ann = signed_up(browser, server, "Ann", lang)
    bobs = waiting_table(server)
    sit(bob, server, bobs)

    # Ann watches Bob's table and opens his card from his name.
    page = ann.page
    page.goto(f"{server.url}/t/{bobs}")
    name = page.locator("#board [data-seat='0'] .seat-name[data-card]")
    name.click()
    card = page.locator("#profile-card")
    card.wait_for()
    assert card.locator("h2").inner_text() == "Bob"
    follow = card.locator("button[data-verb='follow']")
    assert follow.inner_text() == words["friends.follow"]
    follow.click()
    card.locator("button[data-verb='unfollow']").wait_for()
    assert words["friends.done.follow"].replace("{name}", "Bob") in card.inner_text()
    shots(page, "card", lang)
    assert run_axe(page, axe_source) == []
    if lang != "en":
        assert english_left(page, lang) == []
    page.keyboard.press("Escape")
    card.wait_for(state="detached")

    # Her own table, waiting: its invite panel offers Bob in one click.
    anns = waiting_table(server)
    sit(ann, server, anns)
    offered = page.locator(
        f"#invite-friends button.invite-friend[data-name='Bob'][data-table='{anns}']"
    )
    assert offered.inner_text() == words["friends.table.invite"]
    page.locator("#invite-friends").scroll_into_view_if_needed()
    shots(page, "table-invite", lang)

    # Her friends list: Bob online at his table; the invitation from there.
    page.locator("#nav-friends").click()
    page.wait_for_url("**/friends")
    friend = page.locator("#following .friend[data-name='Bob']")
    friend.wait_for()
    assert friend.get_attribute("data-online") == "yes"
    place = friend.locator(f".friend-place[data-table='{bobs}']")
    waiting = words["friends.status.waiting"].replace("{title}", "Marshmallow Test")
    assert waiting in place.inner_text()
    assert place.locator("a").get_attribute("href") == f"/t/{bobs}"
    invite = friend.locator(f"button.invite-friend[data-table='{anns}']")
    invite.click()
    page.wait_for_function(
        "([button, done]) => document.querySelector(button)?.textContent === done",
        arg=[
            f"#following .friend[data-name='Bob'] button.invite-friend[data-table='{anns}']",
            words["friends.table.invited"],
        ],
    )
    shots(page, "list", lang)
    assert run_axe(page, axe_source) == []
    if lang != "en":
        assert english_left(page, lang) == []

    # His profile page has the same buttons, as she stands with him now.
    page.goto(f"{server.url}/players/Bob")
    page.locator("main .relation button[data-verb='unfollow']").wait_for()
    block = page.locator("main .relation button[data-verb='block']")
    assert block.inner_text() == words["friends.block"]
    shots(page, "profile", lang)

    # Bob's next page load shows the invitation, with Join.
    bob.page.reload()
    offer = bob.page.locator(f"#invites-banner .invite[data-table='{anns}']")
    offer.wait_for()
    bob.wait_connected()
    line = words["friends.invites.line"].replace("{name}", "Ann")
    assert line.replace("{title}", "Marshmallow Test") in offer.inner_text()
    shots(bob.page, "invite", lang)
    assert run_axe(bob.page, axe_source) == []
    if lang != "en":
        assert english_left(bob.page, lang) == []
    offer.locator("a.button").click()
    bob.page.wait_for_url(f"**/t/{anns}")
    assert ann.errors == [] and bob.errors == []


def test_a_signed_in_phone_header_has_the_switch_beside_the_brand_and_links_below(
    browser: Any, server: Server
) -> None:
    """On a 390-wide phone the signed-in header (My games, Friends, the name and
    the language switch) cannot be one row: the language switch stays on the
    brand's row and the account's links take the second, whole."""
    person = signed_up(browser, server, "Marguerite", "de-DE")
    page = person.page
    page.set_viewport_size(PHONE)
    page.goto(server.url + "/")
    page.wait_for_selector("#nav-friends")
    # friends.css comes with the invitations (signed-in pages only), after the page draws.
    page.wait_for_function(
        "() => [...document.styleSheets].some((s) => s.href?.endsWith('/static/friends.css'))"
    )
    box = {
        part: page.locator(selector).bounding_box()
        for part, selector in (
            ("brand", "#brand"),
            ("switch", "#language"),
            ("links", ".account-links"),
        )
    }
    assert box["switch"]["y"] < box["brand"]["y"] + box["brand"]["height"], box
    assert box["links"]["y"] >= box["brand"]["y"] + box["brand"]["height"], box
    assert box["switch"]["x"] + box["switch"]["width"] <= PHONE["width"], box
    person.close()
