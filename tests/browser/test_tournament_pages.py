"""The tournament pages in the browser (issue 31): Ann makes a duplicate
tournament over the API, finds it on /tournaments, enters and starts it from
its page, which takes her to her table (it names the tournament and its
deal); she plays her deal, and once the deal is over at every table her
table of the next deal opens by itself; after it she goes back to the
tournament (no rematch there), whose page shows the standings and a link to
each deal, whose page shows each table's seats, points and percentages.
The list, the tournament and the deal are then read in English, German and
French (no English left on the German and French pages), at 1280x800 and
390x844, and pass axe-core."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.helpers import PHONE, Person, Server, play_until_finished, run_axe, shoot
from tests.browser.test_accounts import sign_up
from tests.browser.test_languages import catalog, english_left, play_first

DESKTOP = {"width": 1280, "height": 800}
NAME = "Cup 31"  # no English word: the German and French pages must hold none
# A bound on waiting for the bots' table to finish the deal too, never a check of speed.
DEAL_OVER_TIMEOUT_MS = 180_000

# What each page says, in each language, once both deals are over everywhere.
WORDS = {
    "en": {"finished": "Finished", "deal": "Deal 1", "heading": "Deal 1 of 2",
           "table": "Table 1", "bot": "Easy bot"},
    "de": {"finished": "Beendet", "deal": "Austeilung 1", "heading": "Austeilung 1 von 2",
           "table": "Tisch 1", "bot": "Leichter Bot"},
    "fr": {"finished": "Terminés", "deal": "Donne 1", "heading": "Donne 1 sur 2",
           "table": "Table 1", "bot": "Robot facile"},
}  # fmt: skip


def create(person: Person, server: Server, deals: int = 2) -> str:
    """A duplicate Marshmallow Test tournament of ``deals`` deals, two at a
    table, starting in an hour, easy bots filling seats (POST /api/tournaments)."""
    answer = person.page.request.post(
        server.url + "/api/tournaments",
        data={
            "name": NAME,
            "game": "marshmallow-test",
            "players": 2,
            "deals": deals,
            "form": "duplicate",
            "start_in_minutes": 60,
            "move_hours": None,
            "access": "open",
            "rated": False,
            "bot": "easy",
        },
    )
    assert answer.status == 201, answer.text()
    return str(answer.json()["id"])


def shots(page: Any, screenshots: Path, name: str) -> None:
    """The page at 1280x800 and at 390x844 (whole pages), then back."""
    shoot(page, screenshots, f"{name}-desktop")
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shoot(page, screenshots, f"{name}-phone")
    page.set_viewport_size(DESKTOP)


def test_a_tournament_is_entered_started_played_and_read_in_three_languages(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    ann = Person.open(browser, "Ann", viewport=DESKTOP)
    page = ann.page
    page.goto(server.url + "/account")
    sign_up(page, "Ann", "**/me")
    tournament = create(ann, server)

    # The lobby links to the list; the list has it as an upcoming card.
    page.goto(server.url + "/")
    page.locator("#lobby-tournaments").click()
    page.wait_for_url("**/tournaments")
    card = page.locator(f"#tournaments-upcoming [data-tournament='{tournament}']")
    facts = card.inner_text()
    assert NAME in facts and "Duplicate · 2 players a table · 2 deals · Real time" in facts
    assert "0 people entered" in facts
    card.locator(".tournament-name").click()

    # Its page: Ann (its creator) enters, then starts it now.
    page.wait_for_url(f"**/tournaments/{tournament}")
    assert page.locator("#tournament-title").inner_text() == NAME
    page.locator("#tournament-enter").click()
    page.wait_for_selector("#tournament-leave")
    assert page.locator("#tournament-actions .tournament-entered").inner_text() == "You are entered"
    page.locator("#tournament-start").click()
    # A real-time tournament takes her from its page to her table as it starts.
    page.wait_for_url("**/t/*")
    first_table = page.url

    # Meanwhile its page (opened anew: no table appears there now) shows her
    # table, the deal's progress, and nothing of the deal itself.
    peek = page.context.new_page()
    peek.goto(f"{server.url}/tournaments/{tournament}")
    your_table = peek.locator("#tournament-table")
    assert your_table.inner_text() == "Go to your table (deal 1)"
    assert peek.locator("#standings-none").count() == 1  # nothing is over yet
    assert peek.locator("#deal-links").count() == 0
    progress = peek.locator("#tournament-progress label").inner_text()
    assert progress.startswith("Deal 1 of 2: ") and " of 2 tables " in progress
    peek.goto(f"{server.url}/tournaments/{tournament}/deals/0")
    assert "still being played" in peek.locator("#deal-refused").inner_text()
    assert peek.locator("#deal-tables").count() == 0
    peek.close()

    # Her table names the tournament and the deal; its end leads back, not to a rematch.
    ann.wait_connected()
    line = page.locator("#tournament-line")
    assert line.inner_text() == f"Tournament {NAME} · deal 1 of 2"
    assert line.get_attribute("href") == f"/tournaments/{tournament}"
    play_until_finished([ann], lambda person, made: play_first(person))
    page.wait_for_selector("#back-to-tournament")
    assert page.locator("#rematch").count() == 0
    # A tournament's table is private and full: no invitation to it is offered.
    assert page.locator("#panel-invite").is_hidden() and page.locator("#tab-invite").is_hidden()
    assert page.locator("#tournament-next").inner_text().startswith("Waiting for the other tables")
    shots(page, screenshots, "tournament-table-end")

    # Once the bots' table has played deal 1 too, her table of deal 2 opens by itself.
    page.wait_for_url(lambda url: "/t/" in url and url != first_table, timeout=DEAL_OVER_TIMEOUT_MS)
    ann.wait_connected()
    assert line.inner_text() == f"Tournament {NAME} · deal 2 of 2"
    play_until_finished([ann], lambda person, made: play_first(person))
    page.wait_for_selector("#back-to-tournament")
    assert page.locator("#tournament-next").count() == 0  # the last deal: nothing follows
    page.locator("#back-to-tournament").click()
    page.wait_for_url(f"**/tournaments/{tournament}")

    # Once both deals are over everywhere: the final standings and the deals' links.
    page.wait_for_selector("#standings caption:has-text('2 deals')", timeout=DEAL_OVER_TIMEOUT_MS)
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 4  # Ann and three easy bots, two tables of two
    assert page.locator("#standings tr[data-name='Ann']").get_attribute("class") == "is-me"
    assert (
        page.locator("#standings caption").inner_text() == "After 2 deals finished at every table"
    )
    assert [a.inner_text() for a in page.locator("#deal-links a").all()] == ["Deal 1", "Deal 2"]
    download = page.locator("#tournament-download").get_attribute("href")
    assert download == f"/api/tournaments/{tournament}/download"
    assert run_axe(page, axe_source) == []
    assert ann.errors == []

    # The same pages read by guests in English, German and French.
    for lang, words in WORDS.items():
        reader = Person.open(browser, "Reader", viewport=DESKTOP, locale=lang)
        at = reader.page
        at.goto(server.url + "/tournaments")
        at.wait_for_selector(f"#tournaments-finished [data-tournament='{tournament}']")
        assert at.locator("#finished-heading").inner_text() == words["finished"]
        checked(at, lang, axe_source)
        shots(at, screenshots, f"tournaments-list-{lang}")

        at.goto(f"{server.url}/tournaments/{tournament}")
        at.wait_for_selector("#standings")
        assert at.locator("#standings tbody tr").count() == 4
        assert at.locator("#standings tbody").inner_text().count(words["bot"]) == 3
        assert at.locator("#deal-links a").first.inner_text() == words["deal"]
        assert at.locator("#tournament-enter, #tournament-table").count() == 0  # a guest's view
        checked(at, lang, axe_source)
        shots(at, screenshots, f"tournaments-one-{lang}")

        at.locator("#deal-links a").first.click()
        at.wait_for_url(f"**/tournaments/{tournament}/deals/0")
        at.wait_for_selector("#deal-tables")
        tables = at.locator("#deal-tables .tournament-deal-table")
        assert tables.count() == 2
        assert at.locator("h1").inner_text() == words["heading"]
        assert at.locator("#deal-tables h2").first.inner_text() == words["table"]
        seats = at.locator("#deal-tables tbody tr")
        assert seats.count() == 4 and "Ann" in at.locator("#deal-tables").inner_text()
        # Each seat's percentage against the same seat at the other table: the pair sums to 100.
        cells = at.locator("#deal-tables tbody td:nth-child(4)").all_inner_texts()
        percents = [float(re.sub(r"[^\d,.]", "", cell).replace(",", ".")) for cell in cells]
        assert percents[0] + percents[2] == 100 and percents[1] + percents[3] == 100
        replay = tables.first.locator("a").first.get_attribute("href") or ""
        assert replay.startswith("/t/") and replay.endswith("#replay")
        checked(at, lang, axe_source)
        shots(at, screenshots, f"tournaments-deal-{lang}")
        assert reader.errors == []
        reader.close()
    ann.close()


def checked(page: Any, lang: str, axe_source: str) -> None:
    """The page speaks ``lang`` only, and axe-core finds nothing serious."""
    assert page.evaluate("document.documentElement.lang") == lang
    if lang != "en":
        assert english_left(page, lang) == []
    assert run_axe(page, axe_source) == []


def test_a_tournament_is_made_with_the_form_invited_to_and_cancelled_in_german(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    words = catalog("de")
    bea = Person.open(browser, "Bea", viewport=DESKTOP, locale="de")
    page = bea.page
    page.goto(server.url + "/account")
    sign_up(page, "Bea", "**/me")
    page.goto(server.url + "/tournaments")
    page.locator("#tournament-create > summary").click()
    page.wait_for_selector("#tournament-create-submit")
    # Twice round the table by default, whatever the game's own number of players.
    players = int(page.locator("#tournament-players").input_value())
    assert page.locator("#tournament-deals").input_value() == str(2 * players)
    checked(page, "de", axe_source)
    shots(page, screenshots, "tournaments-create-de")

    # A name of spaces only: the server's refusal, in German.
    page.locator("#tournament-name").fill("   ")
    page.locator("#tournament-create-submit").click()
    error = page.locator("#tournament-create-error")
    page.wait_for_function("() => document.querySelector('#tournament-create-error').textContent")
    assert error.inner_text() == words["tournament.error.name"].replace("{most}", "60")

    page.locator("#tournament-name").fill("Pokal 7")
    page.locator("#tournament-form").select_option("swiss")
    page.locator("#tournament-access").select_option("invite")
    page.locator("#tournament-speed").select_option("24")
    page.locator("#tournament-create-submit").click()
    page.wait_for_url("**/tournaments/*")
    page.wait_for_selector("#tournament-title")
    assert page.locator("#tournament-title").inner_text() == "Pokal 7"
    head = page.locator(".tournament-head").inner_text()
    assert words["tournament.formSwiss"] in head and words["tournament.accessInvite"] in head
    assert "1 Tag pro Zug" in head
    assert page.locator("#tournament-download").count() == 0  # nothing to download before a deal

    # By invitation: its creator invites by account name; an unknown name is refused in German.
    page.locator("#tournament-invite-name").fill("Niemand")
    page.locator(".tournament-invite button[type=submit]").click()
    said = page.locator("#tournament-said")
    page.wait_for_function("() => document.querySelector('#tournament-said').textContent")
    assert said.inner_text() == words["tournament.error.noAccount"]
    checked(page, "de", axe_source)
    shots(page, screenshots, "tournaments-upcoming-de")

    # Cancelled, asked twice: nothing more to do but read it.
    page.locator("#tournament-cancel").click()
    page.locator("#tournament-cancel-sure").click()
    page.wait_for_selector(".tournament-status[data-status='cancelled']")
    assert page.locator("#tournament-progress").inner_text() == words["tournament.cancelled"]
    assert page.locator("#tournament-actions button").count() == 0
    assert page.locator(".tournament-invite").is_hidden()
    assert bea.errors == []
    bea.close()
