"""Issue 30's "done when": two people finish a turn-based game of each game
over several server restarts in Chromium, the clock driven by the test, with
notifications arriving through a local SMTP server, and no card of any hand
in any mail.

Ann and Bea sign up and confirm their addresses by the links mailed to them;
Ann sets up a table a day a move from the lobby, Bea joins by its link, and
they play it to its end in their browsers. Between turns the test's clock
moves two hours (never near a 24-hour deadline), the lobby sweep runs and the
notice sender sends the new mover their "your turn" digest. Along the way the
server is restarted with both pages open (twice), and once the table is left
by both (one goes to the list of games waiting for her, the other closes the
tab): it rests on disk (parked), stays there across a restart, and comes back
when they open it again. At the end both are told the game is over.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.accounts.notices import words
from cardtable.server.settings import Settings
from cardtable.server.tables.lobby import title
from tests.browser import test_marshmallow_test as mt
from tests.browser import test_myrummy_111 as mr
from tests.browser.clocked_server import ClockedServer
from tests.browser.helpers import PAGE_JS, PHONE, Person, check_pages_and_frames, shoot
from tests.browser.test_accounts import sign_up
from tests.server.accounts.smtp_helpers import Inbox, link_in, smtp_server, text_of
from tests.server.helpers import QUICK, UNLIMITED
from tests.server.live.test_lobby_lifecycle import HOUR, MINUTE, Clock

SHOTS = Path("/tmp/shots/turn-based-days")
DESKTOP = {"width": 1280, "height": 800}
MOVE_HOURS = 24
BETWEEN_TURNS = 2 * HOUR  # far from the deadline; over the hour between two digests
# After this many moves: a restart with both pages open, or both leave the
# table, which rests on disk (and stays there across a restart) until opened.
EVENTS = {1: "restart", 3: "rest", 5: "restart"}
LIMIT = 400  # a bound on turns, never reached by a game that ends
FACTS = {"marshmallow-test": mt.CARDS, "myrummy-111": mr.CARDS}


def address(name: str) -> str:
    return f"{name.lower()}@days.example.org"


@dataclasses.dataclass
class Day:
    """The test's world: its clock, the server, the inbox."""

    clock: Clock
    server: ClockedServer
    inbox: Inbox


@pytest.fixture
def day(tmp_path: Path) -> Iterator[Day]:
    clock = Clock()
    with smtp_server() as inbox:
        settings = Settings(
            db_url=f"sqlite+aiosqlite:///{tmp_path / 'tables.sqlite3'}",
            # park_seconds=0: a table nobody has open rests at the next sweep.
            limits=dataclasses.replace(UNLIMITED, clock=clock, park_seconds=0),
            smtp_url=inbox.url,
            mail_from="cards@days.example.org",
            fast_passwords=True,
        )
        with ClockedServer(settings) as server:
            yield Day(clock, server, inbox)


def person_with_address(browser: Any, day: Day, name: str, **context: Any) -> Person:
    """A signed-up person whose address is confirmed by the link in its mail."""
    person = Person.open(browser, name, **context)
    page = person.page
    page.goto(day.server.url + "/account")
    sign_up(page, name, "**/me")
    page.goto(day.server.url + "/account")
    page.locator("#notices-email").fill(address(name))
    page.locator("#notices button[type=submit]").click()
    page.wait_for_selector(f"#notices-state:has-text('{address(name)}')")
    (mail,) = day.inbox.wait_for(address(name), 1)
    page.goto(day.server.url + link_in(mail, "/verify-email/"))
    assert page.locator("h1").inner_text() == "Address confirmed"
    return person


def set_up_table(ann: Person, day: Day, game: str) -> str:
    """Ann's turn-based table for two from the lobby's form, quick options,
    seat 2 for a person; its id."""
    page = ann.page
    page.goto(day.server.url + "/")
    page.locator("#set-up > summary").click()
    page.locator("#new-game").select_option(game)
    page.locator("#new-players").select_option("2")
    if game == "marshmallow-test":
        page.get_by_label("Points to win").fill(str(QUICK[game]["target"]))
    else:
        page.get_by_label("Rounds", exact=True).fill(str(QUICK[game]["rounds"]))
        page.get_by_label("Turn limit").fill(str(QUICK[game]["turn_limit"]))
    page.locator("#seat-1").select_option("human")
    page.locator("#new-speed").select_option(str(MOVE_HOURS))
    page.locator("#player-name").fill(ann.name)
    page.locator("#create-table").click()
    ann.wait_seated()
    return str(page.url.rsplit("/", 1)[1])


def join_by_link(bea: Person, link: str) -> None:
    bea.page.goto(link)
    bea.page.locator("#join-name").fill(bea.name)
    bea.page.locator("#join-panel button[data-seat='1']").click()
    bea.page.wait_for_function("() => document.querySelector('#board .is-me') !== null")


def restart_with_pages_open(day: Day, people: list[Person]) -> None:
    """Stop (the pages see their sockets close), start on the same database:
    the pages reconnect by themselves."""
    day.server.stop()
    for person in people:
        person.page.wait_for_selector("#connection[data-state='reconnecting']")
    day.server.start()
    for person in people:
        person.wait_connected()


def reopen(person: Person, url: str) -> None:
    """A new tab in the person's browser (their seat token and sign-in
    kept), heard as their first one was."""
    page = person.page.context.new_page()
    page.on("websocket", person._listen)
    page.on("pageerror", lambda error: person.errors.append(str(error)))
    person.page = page
    page.goto(url)


def rest_and_come_back(day: Day, people: list[Person], table: str, mover: Person) -> None:
    """The mover goes to their list of games waiting for them, the other
    closes the table's tab; the table rests on disk (also across a restart)
    and comes back when they open it again."""
    (waiting,) = (p for p in people if p is not mover)
    mover.page.goto(day.server.url + "/my/turns")
    waiting.page.close()
    # The server hears of the closed sockets a moment after the pages left:
    # sweep until it has (a bound on tries, not a timing check).
    for _ in range(100):
        day.server.sweep()
        if not day.server.holds(table):
            break
        mover.page.wait_for_timeout(100)
    assert not day.server.holds(table), "the table nobody has open stayed in memory"
    listed = mover.page.locator(f"#your-turns [data-table='{table}']")
    listed.wait_for()  # the mover's list shows it, read from its rows
    assert not day.server.holds(table)  # without bringing it back
    day.server.restart()
    day.server.sweep()
    assert not day.server.holds(table)  # a restart leaves it resting
    mover.page.goto(f"{day.server.url}/t/{table}")
    reopen(waiting, f"{day.server.url}/t/{table}")
    for person in people:
        person.wait_connected()
        person.page.wait_for_selector("#board .is-me")  # in their own seat again
    assert day.server.holds(table)


def mail_words(mail: EmailMessage, game: str) -> str:
    """A mail's subject and text without its links (a link's token may hold
    anything) and without the game's name ("MyRummy 111" is no card)."""
    text = re.sub(r"https?://\S+", "", f"{mail['Subject']}\n{text_of(mail)}")
    return text.replace(title(game), "")


def mover_act(game: str, notes: dict[str, Any], seats: dict[str, int]) -> Callable[[Person], None]:
    """One decision for the person to move, as each game's own browser test makes it."""
    rng = random.Random(30)

    def play_marshmallow_test(person: Person) -> None:
        mt.play_turn(person, keyboard=person.name == "Ann", notes=notes)

    def play_myrummy_111(person: Person) -> None:
        page = person.page
        keyboard = person.name == "Ann"
        notes["pages"].append((seats[person.name], *page.evaluate(PAGE_JS)))
        if page.locator("button.mr-take").count():
            mr.take(person, keyboard, rng)
            return
        notes["places"][person.name] += 1
        # Ann ends the round (MR-6.2) at her fourth placing: a short game.
        declare = person.name == "Ann" and notes["places"]["Ann"] == 4
        mr.place(person, keyboard, rng, declare=declare)

    return play_marshmallow_test if game == "marshmallow-test" else play_myrummy_111


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_two_people_finish_a_turn_based_game_over_restarts_told_by_mail(
    browser: Any, day: Day, game: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann = person_with_address(browser, day, "Ann", viewport=DESKTOP)
    bea = person_with_address(browser, day, "Bea", viewport=PHONE, is_mobile=True, has_touch=True)
    people = [ann, bea]
    table = set_up_table(ann, day, game)
    join_by_link(bea, ann.page.locator("#invite-link").inner_text())
    for person in people:
        person.wait_connected()

    seats = {"Ann": 0, "Bea": 1}
    other = {"Ann": "Bea", "Bea": "Ann"}
    notes: dict[str, Any] = {
        "pages": [], "seat": seats, "trump": 0, "explained": None,
        "places": {"Ann": 0, "Bea": 0},
    }  # fmt: skip
    act = mover_act(game, notes, seats)
    # Mails each has had: the sender may also run by itself (every minute),
    # so a digest is counted when it arrives, whoever sent it.
    seen = {name: len(day.inbox.to(address(name))) for name in seats}
    moves, last_mover, done = 0, None, set[int]()
    for _ in range(LIMIT):
        states = [p.status() for p in people]
        if all(s["finished"] for s in states):
            break
        movers = [p for p, s in zip(people, states, strict=True) if s["mine"] and not s["finished"]]
        if not movers:  # a state is on its way to a page
            people[0].wait_past(min(s["seq"] for s in states))
            continue
        (mover,) = movers
        if mover.name != last_mover:  # a new turn: hours pass, then the digest
            day.clock.now += BETWEEN_TURNS
            day.server.sweep()
            day.server.send_due()
            mails = day.inbox.to(address(mover.name))
            assert len(mails) == seen[mover.name] + 1, f"{mover.name}: no digest at move {moves}"
            said = words("en", "your_turn", game=title(game), opponents=other[mover.name])
            assert said in text_of(mails[-1]) and f"/t/{table}" in text_of(mails[-1])
            seen[mover.name] += 1
            last_mover = mover.name
        event = EVENTS.get(moves)
        if event is not None and moves not in done:
            done.add(moves)
            if event == "rest":
                rest_and_come_back(day, people, table, mover)
            else:
                restart_with_pages_open(day, people)
            continue  # look again: the pages have connected anew
        seq = mover.status()["seq"]
        # A person takes a while over a move: no two turns start in the same
        # millisecond (a notice's turn is its start time, accounts/notices.py).
        day.clock.now += MINUTE
        act(mover)
        mover.wait_past(seq)
        moves += 1
    else:
        raise AssertionError(f"the game did not end within {LIMIT} turns")
    assert done == set(EVENTS), f"the game ended after {moves} moves, before every restart"
    assert min(seen.values()) >= 3, seen  # the verification and two turns at least

    # The end: two hours on, each is told in one more digest.
    day.clock.now += BETWEEN_TURNS
    day.server.sweep()
    day.server.send_due()
    for name in seats:
        mails = day.inbox.to(address(name))
        assert len(mails) == seen[name] + 1, f"{name}: no mail that the game ended"
        over = words("en", "finished", game=title(game), opponents=other[name])
        assert over in text_of(mails[-1]), text_of(mails[-1])

    shoot(ann.page, SHOTS, f"{game}-final-desktop")
    shoot(bea.page, SHOTS, f"{game}-final-phone")
    for person in people:
        assert person.page.locator("#end-panel .standings li").count() == 2
        assert person.errors == [], person.errors

    # No mail names a card any hand held, at any point of the game (MT-9, MR-5).
    held = {str(c) for p in people for frame in p.states() for c in frame["view"]["hand"] or []}
    assert held
    for mail in day.inbox.mails:
        text = mail_words(mail, game)
        named = {card for card in held if re.search(rf"\b{re.escape(card)}\b", text)}
        assert not named, (named, text)

    # And the pages and frames, through restarts and rest, showed each seat only its own.
    record = ann.page.request.get(f"{day.server.url}/api/tables/{table}/record").json()
    check_pages_and_frames(record, {0: ann, 1: bea}, notes["pages"], FACTS[game])
    # Every move was a person's: no deadline passed, no stand-in moved.
    assert sum(len(r["moves"]) for r in record["rounds"]) == moves
    for person in people:
        person.close()
