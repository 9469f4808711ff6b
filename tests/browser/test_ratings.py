"""Ratings in the browser: two signed-in people finish a rated game and see its
change at the end, in My games and on their profiles; a game's leaderboard,
reached from the lobby, lists established players best first, a page at a
time; every page passes axe-core."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from tests.browser.helpers import PHONE, Person, Server, play_until_finished, run_axe, shoot
from tests.browser.test_accounts import sign_up
from tests.browser.test_analysis import play

GAME = "marshmallow-test"


def test_a_rated_game_shows_its_change_at_the_end_in_my_games_and_on_the_profile(
    browser: Any, server_behind_a_proxy: Server, axe_source: str, screenshots: Path
) -> None:
    server = server_behind_a_proxy  # Ann and Bea at homes of their own
    ann = Person.open(browser, "Ann", extra_http_headers={"X-Forwarded-For": "192.0.2.1"})
    bea = Person.open(browser, "Bea", extra_http_headers={"X-Forwarded-For": "192.0.2.2"})
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


def _ratings(server: Server, board: list[tuple[str, float, float, int]]) -> None:
    """Accounts and their ratings written straight into the server's database
    (the API makes --signups-per-minute accounts per address): (name, mu,
    sigma, games) at 2 players."""
    with sqlite3.connect(server.db) as db:
        for i, (name, mu, sigma, games) in enumerate(board):
            db.execute(
                "INSERT INTO ct_accounts (id, name, name_key, password_hash, created_ms)"
                " VALUES (?, ?, ?, 'no password', 0)",
                (f"board{i}", name, name.casefold()),
            )
            db.execute(
                "INSERT INTO ct_ratings (account_id, game, players, mu, sigma, games, ordinal,"
                " updated_ms) SELECT id, ?, 2, ?, ?, ?, ?, 0 FROM ct_accounts WHERE name = ?",
                (GAME, mu, sigma, games, mu - 3 * sigma, name),
            )


def test_the_leaderboard_is_reached_from_the_lobby_and_pages_on(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
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
