"""Issue 17's "Done when", as one stranger's journey each for two strangers: they
sign up, press "Play now" for Marshmallow Test at two players, are seated
together at a rated table, play it to the end, see their rating change on the
final standings, find the game with that change in "My games", and the lobby
no longer lists the finished table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.helpers import PHONE, Person, Server, play_until_finished, run_axe, shoot
from tests.browser.test_accounts import sign_up
from tests.browser.test_analysis import play
from tests.browser.test_quick_match import press_play_now, seat_of


def change_words(change: dict[str, Any]) -> str:
    """A change as the pages word it: "rating 1012? (+12)" ("?": provisional)."""
    diff = change["change"]
    sign = "+" if diff > 0 else "−" if diff < 0 else "±"
    mark = "?" if change["provisional"] else ""
    return f"rating {change['after']}{mark} ({sign}{abs(diff)})"


def test_two_strangers_meet_play_and_find_their_rated_game(
    browser: Any, server_behind_a_proxy: Server, axe_source: str, screenshots: Path
) -> None:
    server = server_behind_a_proxy  # strangers: each at an address of their own
    # Reduced motion, as some people set it: no card glides, so the long game ends sooner.
    ann = Person.open(
        browser, "Ann", extra_http_headers={"X-Forwarded-For": "192.0.2.1"}, reduced_motion="reduce"
    )
    bea = Person.open(
        browser,
        "Bea",
        viewport=PHONE,
        extra_http_headers={"X-Forwarded-For": "192.0.2.2"},
        reduced_motion="reduce",
    )
    for person in (ann, bea):
        person.page.goto(server.url + "/account")
        sign_up(person.page, person.name, "**/me")
    for person in (ann, bea):
        press_play_now(person, server, 2)
    for person in (ann, bea):
        person.wait_seated()
    (table,) = {p.page.url.rsplit("/", 1)[1] for p in (ann, bea)}
    for person in (ann, bea):
        person.wait_connected()
        # Quick match makes rated tables, and the table's header says so.
        assert person.page.locator(".table-head [data-rated='true']").inner_text() == "Rated"

    play_until_finished([ann, bea], play)

    final = ann.states()[-1]
    assert final["finished"]
    changes = {c["seat"]: c for c in final["ratings"]}
    assert len(changes) == 2  # two accounts at a rated table: both rated
    seats = {p.name: seat_of(p, table)["seat"] for p in (ann, bea)}
    for person in (ann, bea):
        page = person.page
        page.locator("#end-panel .standings .rating-change").nth(1).wait_for()
        assert change_words(changes[seats[person.name]]) in page.locator("#end-panel").inner_text()
    shoot(ann.page, screenshots, "journey-end-desktop")
    shoot(bea.page, screenshots, "journey-end-phone")
    assert run_axe(bea.page, axe_source) == []

    for person in (ann, bea):
        page = person.page
        page.get_by_role("link", name="My games").click()
        page.wait_for_url("**/me")
        item = page.locator(f"#finished [data-table='{table}'] .rating-change")
        assert item.inner_text() == change_words(changes[seats[person.name]])

    # The lobby stays clean: the finished table is not among the open ones.
    page = ann.page
    page.goto(server.url + "/")
    page.wait_for_selector(".table-list > *")
    assert page.locator(f".table-list a[href='/t/{table}']").count() == 0
    listed = page.evaluate("async () => (await (await fetch('/api/tables')).json()).tables")
    assert table not in [t["id"] for t in listed]
    assert ann.errors == [] and bea.errors == []
    ann.close()
    bea.close()
