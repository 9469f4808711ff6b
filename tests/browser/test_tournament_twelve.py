"""A 12-person duplicate tournament of each game, played to its end (issue
31's "done when"): tables of 5, so three easy bots fill the 15 seats, and 2
deals. Two of the 12 are Chromium pages: signed in, they open the
tournament's page, follow "Your table" and play their moves on the table
page, whose next deal's table opens by itself. The other ten play over
WebSockets (tests/browser/tournament_people.py). At the end the standings
page lists all 15, each total the sum of that entrant's percentages on the
deal pages, and each deal page lists every table of the deal."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PageError

from tests.browser.helpers import Person, Server
from tests.browser.test_languages import play_first
from tests.browser.test_myrummy_111 import place, take
from tests.browser.tournament_people import PASSWORD, ScriptedPerson, api, sign_up

PLAYERS = 5  # a table
DEALS = 2
BOTS = 3  # 12 people at tables of 5: 15 seats
SCRIPTED = ["Kim", "Lou", "Max", "Ned", "Ola", "Pia", "Quin", "Rex", "Sol", "Tess"]
IN_CHROMIUM = ["Ann", "Bob"]
PLAY_LIMIT_S = 240.0  # a bound on the whole tournament, never a check of speed
JOIN_S = 60.0  # a bound on a scripted person's last table once the tournament is over
WAIT_MS = 200  # between looks at the pages while nobody there is to move
# Each seat is compared with the same seat at the two other tables: 2 points
# per table beaten, 1 per tie, out of 4, so a seat's three percentages sum to 150.
EVERY_SEAT_SUM = 150 * PLAYERS * DEALS


def act_marshmallow(person: Person, rng: random.Random) -> None:
    play_first(person)


def act_myrummy(person: Person, rng: random.Random) -> None:
    """Take a card from the middle, or place the one taken (never declaring:
    the scripted people and the bots end the deals)."""
    if person.page.locator("button.mr-take").count():
        take(person, False, rng)
    else:
        place(person, False, rng, declare=False)


GAMES: dict[str, Callable[[Person, random.Random], None]] = {
    "marshmallow-test": act_marshmallow,
    "myrummy-111": act_myrummy,
}


@pytest.fixture
def roomy_server(tmp_path: Path) -> Iterator[Server]:
    """``cardtable serve`` letting one address make the test's 12 accounts."""
    running = Server(tmp_path / "tables.sqlite3", "--signups-per-minute", "60")
    running.start()
    yield running
    running.stop()


@pytest.mark.parametrize("game", list(GAMES))
def test_twelve_people_play_a_duplicate_tournament_to_its_end(
    browser: Any, roomy_server: Server, game: str
) -> None:
    url = roomy_server.url
    rng = random.Random(31)
    cookies = {name: sign_up(url, name) for name in SCRIPTED}
    chromium = [Person.open(browser, name) for name in IN_CHROMIUM]
    for person in chromium:
        signed = person.page.request.post(
            url + "/api/account/signup", data={"name": person.name, "password": PASSWORD}
        )
        assert signed.status == 201, signed.text()

    creator = cookies[SCRIPTED[0]]
    tournament = make(url, creator, game)
    # One after the other: entries sent at the same moment were seen to be lost.
    for name in SCRIPTED:
        assert api(url, f"/api/tournaments/{tournament}/enter", {}, cookies[name])["entered"]
    for person in chromium:
        entered = person.page.request.post(f"{url}/api/tournaments/{tournament}/enter", data={})
        assert entered.json() == {"entered": True}
    assert api(url, f"/api/tournaments/{tournament}/start", {}, creator)["status"] == "running"
    lineup = api(url, f"/api/tournaments/{tournament}")["lineup"]
    assert [e["bot"] for e in lineup].count("easy") == BOTS and len(lineup) == 15

    scripted = [
        ScriptedPerson(url, tournament, name, cookies[name], seed)
        for seed, name in enumerate(SCRIPTED)
    ]
    for someone in scripted:
        someone.start()
    for person in chromium:
        person.page.goto(f"{url}/tournaments/{tournament}")
        person.page.locator("#tournament-table").click()
        person.page.wait_for_url("**/t/*")
    played = play_in_chromium(url, tournament, chromium, scripted, GAMES[game], rng)
    for someone in scripted:
        someone.join(timeout=JOIN_S)
        assert not someone.is_alive(), f"{someone.person} is still playing"
        if someone.failure is not None:
            raise someone.failure
        assert someone.errors == [], (someone.person, someone.errors)
    # Each played on the table page, and their page took them to their table of every deal.
    for name, (moves, tables) in played.items():
        assert moves > 0 and len(tables) == DEALS, (name, moves, tables)

    done = api(url, f"/api/tournaments/{tournament}")
    assert done["status"] == "finished" and done["deals_over"] == DEALS

    # Back to the tournament from the last table: the final standings.
    page = chromium[0].page
    page.locator("#back-to-tournament").click()
    page.wait_for_url(f"**/tournaments/{tournament}")
    page.wait_for_selector(f"#standings caption:has-text('{DEALS} deals')")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 15
    totals = {
        cells[1]: percent(cells[2])
        for cells in (row.locator("td").all_inner_texts() for row in rows.all())
    }
    assert len(totals) == 15 and set(IN_CHROMIUM + SCRIPTED) <= set(totals)

    # Each deal's page: every table of the deal, each entrant once, and their percentages.
    summed = dict.fromkeys(totals, 0.0)
    for deal in range(DEALS):
        page.goto(f"{url}/tournaments/{tournament}/deals/{deal}")
        page.wait_for_selector("#deal-tables")
        made = api(url, f"/api/tournaments/{tournament}/deals/{deal}")["tables"]
        shown = page.locator("#deal-tables .tournament-deal-table")
        assert [t.get_attribute("data-table") for t in shown.all()] == [t["table_id"] for t in made]
        assert len(made) == 15 // PLAYERS
        seated = [
            row.locator("td").all_inner_texts()
            for row in page.locator("#deal-tables tbody tr").all()
        ]
        assert sorted(cells[1] for cells in seated) == sorted(totals)
        for cells in seated:
            summed[cells[1]] += percent(cells[3])
    # Each shown number is rounded to 0.1: a total and its deals may differ by that much.
    for name, total in totals.items():
        assert abs(total - summed[name]) <= 0.05 * (DEALS + 1) + 1e-9, (name, total, summed)
    assert abs(sum(totals.values()) - EVERY_SEAT_SUM) <= 0.05 * len(totals)
    for person in chromium:
        assert person.errors == [], (person.name, person.errors)
        person.close()


def make(url: str, cookie: str, game: str) -> str:
    """A duplicate tournament of ``game`` at tables of 5, easy bots filling
    seats, starting in an hour (its creator starts it)."""
    body = {
        "name": "Twelve",
        "game": game,
        "players": PLAYERS,
        "deals": DEALS,
        "form": "duplicate",
        "start_in_minutes": 60,
        "access": "open",
        "rated": False,
        "bot": "easy",
        "move_hours": None,
    }
    return str(api(url, "/api/tournaments", body, cookie)["id"])


def play_in_chromium(
    url: str,
    tournament: str,
    people: list[Person],
    scripted: list[ScriptedPerson],
    act: Callable[[Person, random.Random], None],
    rng: random.Random,
) -> dict[str, tuple[int, set[str]]]:
    """Each person moves on their table page whenever it is their turn,
    while their pages go from table to table by themselves, until the
    tournament is over and each page shows its last table's end; by name,
    the moves each made and the table pages they were at."""
    moves = {person.name: 0 for person in people}
    tables: dict[str, set[str]] = {person.name: set() for person in people}
    deadline = time.monotonic() + PLAY_LIMIT_S
    while not (
        api(url, f"/api/tournaments/{tournament}")["status"] == "finished"
        and all(at_end(person) for person in people)
    ):
        assert time.monotonic() < deadline, f"the tournament went on past {PLAY_LIMIT_S} s"
        for someone in scripted:  # a scripted person's failure, not the wait it causes
            if someone.failure is not None:
                raise someone.failure
        acted = False
        for person in people:
            shown = at_table(person)
            if shown is not None:
                tables[person.name].add(person.page.url)
            if shown is not None and shown["mine"] and not shown["finished"]:
                act(person, rng)
                person.wait_past(shown["seq"])
                moves[person.name] += 1
                acted = True
        if not acted:
            people[0].page.wait_for_timeout(WAIT_MS)
    return {name: (moves[name], tables[name]) for name in moves}


def at_table(person: Person) -> dict[str, Any] | None:
    """What the person's table page shows, or None while the page is not a
    table's: it is going to the next one (a page being replaced answers
    nothing)."""
    if "/t/" not in person.page.url:
        return None
    try:
        return person.status()
    except PageError:
        return None


def at_end(person: Person) -> bool:
    """Whether the person's page shows a table's end, with its way back to the tournament."""
    try:
        return bool(person.page.locator("#back-to-tournament").count())
    except PageError:
        return False


def percent(text: str) -> float:
    """A percentage as the English pages write it ("153.3%")."""
    return float(re.sub(r"[^\d.]", "", text))
