"""Ratings in the browser: two signed-in people finish a rated game and see its
change at the end, in My games and on their profiles; a game's leaderboard,
reached from the lobby, lists established players best first, a page at a
time; every page passes axe-core."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.helpers import PHONE, Person, Server, play_until_finished, run_axe, shoot
from tests.browser.test_accounts import sign_up
from tests.browser.test_analysis import play

GAME = "marshmallow-test"


def test_a_rated_game_shows_its_change_at_the_end_in_my_games_and_on_the_profile(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    ann, bea = Person.open(browser, "Ann"), Person.open(browser, "Bea")
    for person in (ann, bea):
        person.page.goto(server.url + "/account")
        sign_up(person.page, person.name, "**/me")
    created = ann.page.request.post(
        server.url + "/api/tables",
        data={
            "game": GAME,
            "options": {"target": 4},
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "bot_delay_ms": 0,
        },
    ).json()
    for seat, person in enumerate((ann, bea)):
        person.page.goto(f"{server.url}/t/{created['id']}")
        person.join(seat)
    for person in (ann, bea):
        person.wait_connected()
    play_until_finished([ann, bea], play)

    page = ann.page
    changes = page.locator("#end-panel .standings .rating-change")
    changes.first.wait_for()
    assert changes.count() == 2  # both seats are accounts: both rated
    final = ann.states()[-1]
    mine = next(c for c in final["ratings"] if c["seat"] == 0)
    sign = "+" if mine["change"] > 0 else "−" if mine["change"] < 0 else "±"
    words = f"rating {mine['after']}? ({sign}{abs(mine['change'])})"  # provisional: "?"
    assert words in page.locator("#end-panel").inner_text()
    shoot(page, screenshots, "rating-end-desktop")

    page.goto(server.url + "/me")
    item = page.locator(f"#finished [data-table='{created['id']}'] .rating-change")
    assert item.inner_text() == words
    assert run_axe(page, axe_source) == []

    page.goto(server.url + "/players/Ann")
    page.wait_for_selector("#played")
    assert page.locator("#played .profile-rating").inner_text() == f"2 players: {mine['after']}?"
    assert page.locator("#recent .rating-change").inner_text() == words
    shoot(page, screenshots, "rating-profile-desktop")
    assert run_axe(page, axe_source) == []
    page.get_by_role("link", name="Leaderboard").click()
    page.wait_for_url(f"**/leaderboard/{GAME}?players=2")  # the count Ann is rated at
    page.wait_for_selector("#board-empty")  # one game each: provisional, not listed yet

    phone = bea.page.context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(server.url + "/players/Bea")
    phone.wait_for_selector("#played .profile-rating")
    shoot(phone, screenshots, "rating-profile-phone")
    assert run_axe(phone, axe_source) == []
    phone.close()
    assert ann.errors == [] and bea.errors == []
    ann.close()
    bea.close()


def _sign_up(server: Server, name: str) -> None:
    request = urllib.request.Request(
        server.url + "/api/account/signup",
        data=json.dumps({"name": name, "password": "correct horse"}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201


def _ratings(server: Server, board: list[tuple[str, float, float, int]]) -> None:
    """Ratings written into the server's database: (name, mu, sigma, games) at 2 players."""
    for name, *_ in board:
        _sign_up(server, name)
    with sqlite3.connect(server.db) as db:
        for name, mu, sigma, games in board:
            db.execute(
                "INSERT INTO ct_ratings (account_id, game, players, mu, sigma, games, ordinal,"
                " updated_ms) SELECT id, ?, 2, ?, ?, ?, ?, 0 FROM ct_accounts WHERE name = ?",
                (GAME, mu, sigma, games, mu - 3 * sigma, name),
            )


@pytest.fixture
def roomy_server(tmp_path: Path) -> Iterator[Server]:
    """A server that lets one address make the leaderboard's 61 accounts at once."""
    running = Server(tmp_path / "tables.sqlite3", "--signups-per-minute", "100")
    running.start()
    yield running
    running.stop()


def test_the_leaderboard_is_reached_from_the_lobby_and_pages_on(
    browser: Any, roomy_server: Server, axe_source: str, screenshots: Path
) -> None:
    server = roomy_server
    board = [(f"Player {i:02d}", 20.0 + i * 0.5, 2.0, 10 + i) for i in range(60)]
    _ratings(server, [*board, ("Newcomer", 50.0, 5.0, 3)])
    cleo = Person.open(browser, "Cleo")
    page = cleo.page
    page.goto(server.url + "/")
    page.locator(f"[data-leaderboard='{GAME}']").click()
    page.wait_for_url(f"**/leaderboard/{GAME}")
    page.get_by_role("link", name="2 players").click()
    page.wait_for_selector("#leaderboard")
    rows = page.locator("#leaderboard tbody tr")
    assert rows.count() == 50  # one page
    first = rows.first.locator("td").all_inner_texts()
    best = board[-1]
    assert first == ["1", best[0], str(round(1000 + 10 * (best[1] - 3 * best[2]))), str(best[3])]
    assert "Newcomer" not in page.inner_text("#leaderboard")  # provisional: not listed
    shoot(page, screenshots, "leaderboard-desktop")
    assert run_axe(page, axe_source) == []
    page.locator("#board-more").click()
    page.wait_for_function("() => document.querySelectorAll('#leaderboard tbody tr').length > 50")
    assert rows.count() == 60 and page.locator("#board-more").is_hidden()
    assert rows.last.locator("td").first.inner_text() == "60"
    rows.first.get_by_role("link").click()
    page.wait_for_url("**/players/Player%2059")
    page.set_viewport_size(PHONE)
    page.goto(f"{server.url}/leaderboard/{GAME}?players=2")
    page.wait_for_selector("#leaderboard")
    shoot(page, screenshots, "leaderboard-phone")
    assert run_axe(page, axe_source) == []
    assert cleo.errors == []
    cleo.close()
