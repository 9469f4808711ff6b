"""The lobby's open tables in the browser (issue 17, item 5): filtered by game
and players, newest first, 50 at a time with "More tables"; a limit's refusal
(item 6) in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import Person, Server
from tests.browser.test_analysis import post

MANY = ("--creates-per-minute", "1000", "--waiting-per-client", "1000")


@pytest.fixture
def busy_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tables.sqlite3", *MANY)
    running.start()
    yield running
    running.stop()


def waiting_table(server: Server, game: str, seats: int) -> str:
    body: dict[str, Any] = {
        "game": game,
        "options": {},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (seats - 1),
    }
    table: str = post(server, "/api/tables", body)["id"]
    return table


def test_the_lobby_filters_open_tables_and_pages_through_them(
    browser: Any, busy_server: Server
) -> None:
    rummy = [waiting_table(busy_server, "myrummy-111", 3) for _ in range(3)]
    marshmallow = [waiting_table(busy_server, "marshmallow-test", 2) for _ in range(52)]
    page = Person.open(browser, "Ann").page
    page.goto(busy_server.url + "/")
    items = page.locator(".table-list .table-item a")
    page.wait_for_selector(".more-tables")
    assert items.count() == 50  # one page
    newest = [f"/t/{t}" for t in reversed(rummy + marshmallow)]
    assert items.evaluate_all("as => as.map(a => a.getAttribute('href'))") == newest[:50]
    page.locator(".more-tables").click()
    page.wait_for_selector(".more-tables", state="detached")
    assert items.evaluate_all("as => as.map(a => a.getAttribute('href'))") == newest
    page.get_by_label("Only the game", exact=True).select_option("myrummy-111")
    page.wait_for_function("document.querySelectorAll('.table-list .table-item').length === 3")
    page.get_by_label("Only tables of", exact=True).select_option("2")
    page.wait_for_selector(".table-list .hint")  # no 2-seat MyRummy 111 table is open


def test_a_limit_is_worded_in_the_readers_language(browser: Any, tmp_path: Path) -> None:
    """A 429 from the server is shown from the catalog, with its Retry-After."""
    server = Server(tmp_path / "tables.sqlite3", "--creates-per-minute", "1")
    server.start()
    try:
        page = Person.open(browser, "Ann", locale="de-DE").page
        play = page.locator("button.primary[data-game='marshmallow-test']")
        page.goto(server.url + "/")
        play.click()
        page.wait_for_url("**/t/*")  # the first table was made
        page.goto(server.url + "/")
        play.click()
        shown = page.wait_for_selector(".quick .error").inner_text()
        assert shown.startswith("Zu viele Anfragen von deiner Adresse"), shown
        assert re.search(r"in (\d+) s erneut", shown) is not None, shown
    finally:
        server.stop()
