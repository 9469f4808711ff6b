"""A tournament's chat and a profile's tournaments in the browser (issue 31).

Cara makes a one-deal tournament; Ann and Ben enter it, and Ben blocks Cara.
Before the start the three talk (Ben never sees Cara's lines); once Cara
starts it the chat says it is closed and offers nothing to write; Ann and Ben
play their deal at tables badged "Tournament"; after the end Ben's line
reaches Ann. Guests read the chat in German and French (no English left, no
line to write), and Ann's profile names her place in the tournament in
English, German and French. Every page passes axe-core, at 1280x800 and 390x844.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.helpers import Person, Server, play_until_finished
from tests.browser.test_accounts import sign_up
from tests.browser.test_languages import catalog, play_first
from tests.browser.test_tournament_pages import (
    DEAL_OVER_TIMEOUT_MS,
    DESKTOP,
    NAME,
    checked,
    create,
    shots,
)

LINES = "#tournament-chat-lines"
# Ann's place of 4 (two tables of two: Ann, Ben and two easy bots), in each language's words.
PLACES = {
    "en": ["1st of 4", "2nd of 4", "3rd of 4", "4th of 4"],
    "de": ["1. von 4", "2. von 4", "3. von 4", "4. von 4"],
    "fr": ["1er sur 4", "2e sur 4", "3e sur 4", "4e sur 4"],
}


def signed_up(browser: Any, server: Server, name: str, **options: Any) -> Person:
    person = Person.open(browser, name, viewport=DESKTOP, **options)
    person.page.goto(server.url + "/account")
    sign_up(person.page, name, "**/me")
    return person


def say(person: Person, text: str) -> None:
    """Write a line in the tournament's chat; wait until the writer's own page shows it."""
    page = person.page
    page.locator("#tournament-chat-input").fill(text)
    page.locator("#tournament-chat-send").click()
    heard(person, text)
    assert page.locator("#tournament-chat-input").input_value() == ""


def heard(person: Person, text: str) -> None:
    """Wait until ``text`` is a line of the person's chat."""
    person.page.locator(f"{LINES} .tournament-chat-text", has_text=text).first.wait_for()


def said(person: Person) -> list[tuple[str, str]]:
    """The chat's lines on the person's page: (who, what)."""
    rows = person.page.locator(f"{LINES} .tournament-chat-line").all()
    who, what = ".tournament-chat-who", ".tournament-chat-text"
    return [(row.locator(who).inner_text(), row.locator(what).inner_text()) for row in rows]


def refusal(person: Person, tournament: str, server: Server) -> tuple[int, str]:
    """A line written past the page (which offers no way to write it): the
    server's status and refusal, whose key the catalogs word."""
    answer = person.page.request.post(
        f"{server.url}/api/tournaments/{tournament}/chat", data={"text": "Psst"}
    )
    key = str(answer.json()["key"])
    assert key in catalog("en") and key in catalog("de") and key in catalog("fr")
    return answer.status, key


def play_deal(people: list[Person]) -> None:
    """Each person goes to their table (badged "Tournament") and plays the deal to its end."""
    for person in people:
        person.page.locator("#tournament-table").click()
        person.page.wait_for_url("**/t/*")
        person.wait_connected()
        badge = person.page.locator(".table-head .badge")
        assert badge.count() == 1 and badge.inner_text() == "Tournament"
        assert badge.get_attribute("class") == "badge badge-tournament"
    # Seated together they play one game; apart, one after the other (a turn
    # left waiting past the table's timer meanwhile is a stand-in's: the deal still ends).
    together = len({p.page.url for p in people}) == 1
    for group in [people] if together else [[p] for p in people]:
        play_until_finished(group, lambda person, made: play_first(person))
    for person in people:
        person.page.locator("#back-to-tournament").click()
        person.page.wait_for_url("**/tournaments/*")


def test_a_tournaments_chat_is_open_before_closed_during_and_open_after_it(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    english = catalog("en")
    cara = signed_up(browser, server, "Cara")
    tournament = create(cara, server, deals=1)
    ann = signed_up(browser, server, "Ann")
    ben = signed_up(browser, server, "Ben")
    url = f"{server.url}/tournaments/{tournament}"
    blocked = ben.page.request.post(server.url + "/api/friends/block", data={"name": "Cara"})
    assert blocked.ok, blocked.text()

    # Before anyone enters, the chat is open but only its entrants and creator write.
    for person in (cara, ann, ben):
        person.page.goto(url)
        person.page.wait_for_selector("#tournament-chat .tournament-chat-empty")
    assert ann.page.locator("#tournament-chat-form").is_hidden()
    assert ann.page.locator("#tournament-chat-who").inner_text() == english["tournament.chatWho"]
    assert cara.page.locator("#tournament-chat-form").is_visible()  # its creator, not entered
    assert refusal(ann, tournament, server) == (403, "tournament.error.notEntrant")
    for person in (ann, ben):
        person.page.locator("#tournament-enter").click()
        person.page.wait_for_selector("#tournament-chat-form:not([hidden])")
        assert person.page.locator("#tournament-chat-who").is_hidden()

    # They talk; Ben, who blocked Cara, never sees her line, which Ann sees between theirs.
    say(ann, "Hallo Ben")
    heard(ben, "Hallo Ben")
    say(cara, "Willkommen 31")
    heard(ann, "Willkommen 31")
    say(ann, "Bis gleich")
    heard(ben, "Bis gleich")
    say(ben, "Hallo Ann")
    heard(ann, "Hallo Ann")
    assert said(ann) == [("Ann", "Hallo Ben"), ("Cara", "Willkommen 31"), ("Ann", "Bis gleich"),
                         ("Ben", "Hallo Ann")]  # fmt: skip
    assert said(ben) == [("Ann", "Hallo Ben"), ("Ann", "Bis gleich"), ("Ben", "Hallo Ann")]
    assert ann.page.locator(f"{LINES} time").first.get_attribute("datetime")

    # Started: while the deal is played the chat is closed, and says so, with nothing to write.
    cara.page.locator("#tournament-start").click()
    for person in (ann, ben):
        # A real-time tournament takes those on its page to their tables as it starts.
        person.page.wait_for_url("**/t/*")
        person.page.goto(url)
        person.page.wait_for_selector("#tournament-table")
        person.page.wait_for_selector("#tournament-chat-closed:not([hidden])")
        closed = person.page.locator("#tournament-chat-closed").inner_text()
        assert closed == english["tournament.chatClosed"]
        assert person.page.locator("#tournament-chat-form").is_hidden()
        assert person.page.locator("#tournament-chat-input").is_hidden()
    assert len(said(ann)) == 4  # what was said before stays readable
    assert refusal(ann, tournament, server) == (409, "tournament.error.chatClosed")
    checked(ann.page, "en", axe_source)
    shots(ann.page, screenshots, "tournament-chat-closed-en")

    play_deal([ann, ben])

    # Over (once the bots' table is too): the chat opens again, and Ben's line reaches Ann.
    for person in (ann, ben):
        person.page.wait_for_selector(
            ".tournament-status[data-status='finished']", timeout=DEAL_OVER_TIMEOUT_MS
        )
        person.page.wait_for_selector("#tournament-chat-form:not([hidden])")
        assert person.page.locator("#tournament-chat-closed").is_hidden()
    say(ben, "Danke 31")
    heard(ann, "Danke 31")
    assert said(ann)[-1] == ("Ben", "Danke 31")
    checked(ann.page, "en", axe_source)
    shots(ann.page, screenshots, "tournament-chat-en")
    assert [p.errors for p in (ann, ben, cara)] == [[], [], []]
    for person in (ann, ben, cara):
        person.close()

    # Guests read it in German and French: every line (nobody blocked), nothing to write.
    for lang in ("de", "fr"):
        words = catalog(lang)
        reader = Person.open(browser, "Reader", viewport=DESKTOP, locale=lang)
        reader.page.goto(url)
        heard(reader, "Danke 31")
        assert [text for _, text in said(reader)] == [
            "Hallo Ben", "Willkommen 31", "Bis gleich", "Hallo Ann", "Danke 31"]  # fmt: skip
        assert reader.page.locator("#tournament-chat-heading").inner_text() == words["chat.heading"]
        assert (
            reader.page.locator("#tournament-chat-who").inner_text() == words["tournament.chatWho"]
        )
        assert reader.page.locator("#tournament-chat-form").is_hidden()
        checked(reader.page, lang, axe_source)
        shots(reader.page, screenshots, f"tournament-chat-{lang}")
        assert reader.errors == []
        reader.close()

    # Ann's profile names the tournament and her place there, in each language.
    for lang, places in PLACES.items():
        reader = Person.open(browser, "Reader", viewport=DESKTOP, locale=lang)
        answer = reader.page.request.get(server.url + "/api/players/Ann").json()
        [played] = answer["tournaments"]
        reader.page.goto(server.url + "/players/Ann")
        row = reader.page.locator(f"#profile-tournaments li[data-tournament='{tournament}']")
        row.wait_for()
        text = row.inner_text()
        assert text.startswith(
            f"{places[played['place'] - 1]} · {NAME} · Marshmallow Test · Duplicate · "
        )
        assert row.locator("a").get_attribute("href") == f"/tournaments/{tournament}"
        assert (
            reader.page.locator("#tournaments-heading").inner_text()
            == catalog(lang)["tournament.heading"]
        )
        checked(reader.page, lang, axe_source)
        shots(reader.page, screenshots, f"profile-tournaments-{lang}")
        assert reader.errors == []
        reader.close()


def test_a_place_is_an_ordinal_in_each_language(browser: Any, server: Server) -> None:
    """tournaments-words.js's placeWords by each language's ordinal rules, tens and hundreds too."""
    places = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101]
    expected = {
        "en": "1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 23rd 101st",
        "de": "1. 2. 3. 4. 11. 12. 13. 21. 22. 23. 101.",
        "fr": "1er 2e 3e 4e 11e 12e 13e 21e 22e 23e 101e",
    }
    of = {"en": "of", "de": "von", "fr": "sur"}
    reader = Person.open(browser, "Reader", viewport=DESKTOP)
    reader.page.goto(server.url + "/")
    for lang, words in expected.items():
        got = reader.page.evaluate(
            """async ([lang, places]) => {
                const { placeWords } = await import("/static/tournaments-words.js");
                const { translator } = await import("/static/i18n.js");
                const t = translator(lang, await (await fetch(`/static/i18n/${lang}.json`)).json());
                return places.map((place) => placeWords(place, 120, t));
            }""",
            [lang, places],
        )
        assert got == [f"{place} {of[lang]} 120" for place in words.split()]
    assert reader.errors == []
    reader.close()
