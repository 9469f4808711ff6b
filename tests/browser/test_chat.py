"""Table chat in Chromium (issue 17, item 7): what people write is shown as
text, never as HTML; players' and spectators' channels; quick phrases in the
reader's language; the unread badge of the phone's drawer; mute and chat off
remembered by the browser; the chat beside the replay. Screenshots of a live
table and of a replay with chat, desktop and phone."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot

DESKTOP = {"width": 1280, "height": 800}
ATTACK = '<img src=x onerror="window.__pwned = 1"><b>bold</b> & <script>window.__pwned = 2</script>'
LINES_JS = """() => [...document.querySelectorAll('#chat-lines .chat-line')].map((li) => ({
  who: li.querySelector('.chat-who').textContent,
  text: li.querySelector('.chat-text').textContent,
  channel: li.dataset.channel,
}))"""
INJECTED_JS = """() => ({
  elements: document.querySelectorAll('#panel-chat img, #panel-chat b, #panel-chat script').length,
  pwned: window.__pwned ?? null,
})"""


def post(server: Server, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def get(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path) as response:
        return json.load(response)


SLOW_REPLAY_JS = """
const fetched = window.fetch;
window.fetch = (input, init) => String(input).includes("/replay?")
  ? new Promise((done) => setTimeout(done, 1000)).then(() => fetched(input, init))
  : fetched(input, init);
"""


def table(server: Server, humans: int, **settings: Any) -> str:
    body = {
        "game": "marshmallow-test", "options": {"target": 4}, "private": True,
        "bot_delay_ms": 0,
        "seats": [{"kind": "human"}] * humans + [{"kind": "bot", "bot": "random"}] * (3 - humans),
        **settings,
    }  # fmt: skip
    table_id: str = post(server, "/api/tables", body)["id"]
    return table_id


def lines(person: Person) -> list[dict[str, str]]:
    found: list[dict[str, str]] = person.page.evaluate(LINES_JS)
    return found


def wait_lines(person: Person, count: int) -> None:
    person.page.wait_for_function(
        f"() => document.querySelectorAll('#chat-lines .chat-line').length >= {count}"
    )


def say(person: Person, text: str) -> None:
    person.page.locator("#chat-input").fill(text)
    person.page.locator("#chat-send").click()


def test_chat_is_text_never_html_and_each_channel_reaches_its_readers(
    browser: Any, server: Server, screenshots: Path, axe_source: str
) -> None:
    table_id = table(server, 2)
    ann = Person.open(browser, "Ann", viewport=DESKTOP)
    bob = Person.open(browser, "Bob", viewport=PHONE, is_mobile=True, has_touch=True)
    rail = Person.open(browser, "Rail", viewport=DESKTOP, locale="de-DE")
    for seat, person in enumerate((ann, bob)):
        person.page.goto(f"{server.url}/t/{table_id}")
        person.join(seat)
        person.wait_connected()
    rail.page.goto(f"{server.url}/t/{table_id}")
    rail.wait_connected()

    say(ann, ATTACK)
    for person in (ann, bob, rail):
        wait_lines(person, 1)
        assert lines(person) == [{"who": "Ann", "text": ATTACK, "channel": "players"}]
        assert person.page.evaluate(INJECTED_JS) == {"elements": 0, "pwned": None}
    assert ann.page.locator("#chat-input").input_value() == ""

    # Bob's chat is a drawer on his phone: the line waits behind a badge.
    badge = bob.page.locator("#chat-unread")
    assert badge.is_visible() and badge.inner_text().startswith("1")
    shoot(bob.page, screenshots, "chat-table-phone-unread")
    bob.page.locator("#tab-chat").click()
    assert bob.page.locator("#panel-chat").is_visible() and not badge.is_visible()
    bob.page.locator("#panel-chat [data-phrase='wp']").click()
    wait_lines(rail, 2)
    # A quick phrase reads in each reader's language.
    assert lines(rail)[1] == {"who": "Bob", "text": "Gut gespielt", "channel": "players"}
    wait_lines(ann, 2)
    assert lines(ann)[1]["text"] == "Well played"
    assert run_axe(bob.page, axe_source) == []
    shoot(bob.page, screenshots, "chat-table-phone")

    # The spectators' channel: the rail reads it, the players do not.
    say(rail, "Schöner Zug!")
    wait_lines(rail, 3)
    assert lines(rail)[2] == {"who": "Zuschauer", "text": "Schöner Zug!", "channel": "spectators"}
    assert rail.page.locator("#chat-lines .chat-line .chat-channel").inner_text() == "Zuschauer"
    say(ann, "ready?")
    wait_lines(bob, 3)
    assert [line["text"] for line in lines(bob)] == [ATTACK, "Well played", "ready?"]

    # Too long for the server (the page's own limit bypassed): its sentence, nothing shown.
    ann.page.evaluate("() => document.querySelector('#chat-input').removeAttribute('maxlength')")
    say(ann, "x" * 201)
    ann.page.wait_for_function("() => document.querySelector('#chat-error').textContent !== ''")
    assert "at most 200" in ann.page.locator("#chat-error").inner_text()
    assert len(lines(ann)) == 3

    assert run_axe(ann.page, axe_source) == []
    # The chat fits the one-screen table: the page does not scroll.
    assert ann.page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight")
    shoot(ann.page, screenshots, "chat-table-desktop")

    # Bob mutes Ann: her lines go, and stay gone after a reload (and her new ones too).
    bob.page.locator("#chat-lines .chat-line", has_text="ready?").locator(".chat-mute").click()
    assert [line["who"] for line in lines(bob)] == ["Bob"]
    bob.page.reload()
    bob.wait_connected()
    wait_lines(bob, 1)
    assert [line["who"] for line in lines(bob)] == ["Bob"]
    assert bob.page.locator("#chat-muted button").inner_text() == "Unmute Ann"

    # Chat off: nothing to read or write, remembered by this browser.
    rail.page.locator("#chat-on").uncheck()
    assert not rail.page.locator("#chat-form").is_visible()
    rail.page.reload()
    rail.wait_connected()
    assert rail.page.locator("#chat-off-note").is_visible()
    assert not rail.page.locator("#chat-lines").is_visible()
    for person in (ann, bob, rail):
        assert person.errors == []
        person.close()


def test_the_replay_shows_the_chat_said_up_to_its_step(
    browser: Any, server: Server, screenshots: Path, axe_source: str
) -> None:
    # A one-second turn timer: a stand-in soon plays Ann's seat, so the game ends by itself.
    table_id = table(server, 1, turn_seconds=1)
    ann = Person.open(browser, "Ann", viewport=DESKTOP)
    ann.page.goto(f"{server.url}/t/{table_id}")
    ann.join(0)
    say(ann, "good luck <3")
    wait_lines(ann, 1)
    ann.page.wait_for_selector("#end-panel:not([hidden])", timeout=120_000)
    ann.page.locator("#panel-chat [data-phrase='gg']").click()
    wait_lines(ann, 2)
    said = get(server, f"/api/tables/{table_id}/replay?step=0")
    steps = said["steps"]
    final = get(server, f"/api/tables/{table_id}/replay?step={steps}")["chat"]
    assert [line["text"] or line["phrase"] for line in final] == ["good luck <3", "gg"]
    assert final[1]["move"] == steps
    replay_lines = "#replay-chat-lines .chat-line .chat-text"

    ann.page.locator("#open-replay").click()
    ann.page.wait_for_selector("#replay-chat")
    at_start = [line["text"] for line in final if line["move"] == 0]
    ann.page.wait_for_function(
        f"() => document.querySelectorAll('{replay_lines}').length === {len(at_start)}"
    )
    assert ann.page.locator(replay_lines).all_inner_texts() == at_start
    ann.page.locator("#replay-last").click()
    ann.page.wait_for_function(f"() => document.querySelectorAll('{replay_lines}').length === 2")
    assert ann.page.locator(replay_lines).all_inner_texts() == ["good luck <3", "Good game"]
    assert run_axe(ann.page, axe_source) == []
    ann.page.locator("#replay").scroll_into_view_if_needed()
    shoot(ann.page, screenshots, "chat-replay-desktop")

    phone = Person.open(browser, "Pia", viewport=PHONE, is_mobile=True, has_touch=True)
    # A slow network: the replay's answers take a second, so "last" is tapped
    # before the first one says how many steps there are; it still goes there.
    phone.page.add_init_script(SLOW_REPLAY_JS)
    phone.page.goto(f"{server.url}/t/{table_id}")
    phone.page.locator("#open-replay").click()
    phone.page.locator("#replay-last").click()
    phone.page.wait_for_function(f"() => document.querySelectorAll('{replay_lines}').length === 2")
    assert run_axe(phone.page, axe_source) == []
    shoot(phone.page, screenshots, "chat-replay-phone")
    for person in (ann, phone):
        assert person.errors == []
        person.close()


def test_a_reported_line_removed_by_the_operator_leaves_every_page(
    browser: Any, server: Server, screenshots: Path, axe_source: str
) -> None:
    """Issue 27, item 10: the report button, the thanks in the reader's language,
    and the operator's removal (``cardtable admin chat``, another process)
    reaching every open page within the server's watch."""
    table_id = table(server, 2)
    ann = Person.open(browser, "Ann", viewport=DESKTOP)
    bob = Person.open(browser, "Bob", viewport=DESKTOP)
    rail = Person.open(browser, "Rail", viewport=DESKTOP, locale="de-DE")
    fan = Person.open(
        browser, "Fan", viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR"
    )
    for seat, person in enumerate((ann, bob)):
        person.page.goto(f"{server.url}/t/{table_id}")
        person.join(seat)
        person.wait_connected()
    for person in (rail, fan):
        person.page.goto(f"{server.url}/t/{table_id}")
        person.wait_connected()
    say(ann, "you all play like potatoes")
    say(ann, "ready?")
    for person in (ann, bob, rail, fan):
        wait_lines(person, 2)
    # One's own lines carry no report button; somebody else's do.
    assert ann.page.locator("#chat-lines .chat-report").count() == 0
    fan.page.locator("#tab-chat").click()
    potatoes = fan.page.locator("#chat-lines .chat-line", has_text="potatoes")
    assert potatoes.locator(".chat-report").get_attribute("aria-label") == (
        "Signaler le message de Ann aux modérateurs"
    )
    potatoes.locator(".chat-report").click()
    fan.page.wait_for_function("() => document.querySelector('#chat-note').textContent !== ''")
    assert fan.page.locator("#chat-note").inner_text().startswith("Merci")
    flag = fan.page.locator("#chat-lines .chat-line", has_text="potatoes").locator(".chat-report")
    assert flag.is_disabled() and flag.get_attribute("title") == "Signalé"
    assert run_axe(fan.page, axe_source) == []
    shoot(fan.page, screenshots, "chat-reported-phone")

    operator = [sys.executable, "-m", "cardtable", "admin", "chat"]
    waiting = subprocess.run(
        [*operator, "list", "--db", server.db_url], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(waiting) == 1 and "reports=1" in waiting[0] and "potatoes" in waiting[0]
    subprocess.run(
        [*operator, "remove", table_id, waiting[0].split()[3], "--db", server.db_url], check=True
    )
    removed = [
        (ann, "removed by a moderator"),
        (bob, "removed by a moderator"),
        (rail, "von einem Moderator entfernt"),
        (fan, "supprimé par un modérateur"),
    ]
    for person, words in removed:
        person.page.wait_for_function(
            "() => document.querySelector('#chat-lines .chat-line[data-removed]') !== null"
        )
        assert [line["text"] for line in lines(person)] == [words, "ready?"]
        assert "potatoes" not in person.page.content()
    assert rail.page.locator("#chat-lines .chat-line[data-removed] button").count() == 0
    shoot(ann.page, screenshots, "chat-removed-desktop")
    shoot(fan.page, screenshots, "chat-removed-phone")
    shoot(rail.page, screenshots, "chat-removed-desktop-de")
    ann.page.reload()  # the history a new page gets says it too
    ann.wait_connected()
    wait_lines(ann, 2)
    assert [line["text"] for line in lines(ann)] == ["removed by a moderator", "ready?"]
    for person in (ann, bob, rail, fan):
        assert person.errors == []
        person.close()
