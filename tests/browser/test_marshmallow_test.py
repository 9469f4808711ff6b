"""A whole Marshmallow Test game in the browser: two people (one at a desktop
using the keyboard, one on a phone tapping) and a bot, set up in the lobby and
joined by the invite link; a page reloaded mid-game; afterwards replay and the
record. No card a seat may not see (MT-9) reaches its page or its socket."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cardtable.core.replay import load_record
from tests.browser.helpers import (
    PAGE_JS,
    PHONE,
    Cards,
    Person,
    Server,
    check_pages_and_frames,
    play_until_finished,
    run_axe,
    shoot,
)

CARD = r"\b[RYGBP](?:1[0-2]|[1-9])\b"
COLOUR_WORDS = {"Red": "R", "Yellow": "Y", "Green": "G", "Blue": "B", "Purple": "P"}
SPOKEN_CARD = r"\b(Red|Yellow|Green|Blue|Purple) (1[0-2]|[1-9])\b"


def visible(view: dict[str, Any]) -> set[str]:
    """The cards a view shows (MT-9.1): own hand and every card played this round."""
    cards = set(view["hand"])
    for trick in [*view["tricks"], view["current_trick"]]:
        cards.update(play["card"] for play in trick)
    return cards


def cards_on_page(html: str) -> set[str]:
    spoken = {COLOUR_WORDS[c] + n for c, n in re.findall(SPOKEN_CARD, html)}
    return spoken | set(re.findall(CARD, html))


CARDS = Cards(
    visible=visible,
    in_text=lambda text: set(re.findall(CARD, text)),
    on_page=cards_on_page,
    in_move=lambda move: move.get("play"),
)


def play_turn(person: Person, keyboard: bool, notes: dict[str, Any]) -> None:
    """One decision, by keys (arrows + Enter) or by taps."""
    page = person.page
    notes["pages"].append((notes["seat"][person.name], *page.evaluate(PAGE_JS)))
    if page.locator(".mt-trump-choice").count():
        first = page.locator(".mt-trump-choice button").first
        if keyboard:
            first.focus()
            page.keyboard.press("Enter")
        else:
            first.click()
        notes["trump"] += 1
        return
    refused = page.locator(".mt-hand button[aria-disabled='true']")
    if not notes["explained"] and refused.count():
        # A card that may not be played says why, citing the rule (MT-5.3/5.4).
        refused.first.click(force=True)
        reason = page.locator("#mt-reason").inner_text()
        assert re.search(r"\(MT-5\.\d\)$", reason), reason
        assert reason in (refused.first.get_attribute("aria-label") or "")
        notes["explained"] = reason
    if keyboard:
        page.locator(".mt-hand button.card").first.focus()
        for _ in range(12):
            if page.evaluate("() => document.activeElement.classList.contains('is-playable')"):
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    else:
        # A touch screen confirms each card: the first tap chooses, the second plays.
        card = page.locator(".mt-hand button.is-playable").first
        card.click()
        page.locator(".mt-hand button.is-selected").click()


def test_marshmallow_test_game_in_two_browsers(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    ann = Person.open(browser, "Ann")
    bob = Person.open(
        browser, "Bob", viewport=PHONE, is_mobile=True, has_touch=True, color_scheme="dark"
    )
    page = ann.page

    # Ann sets the table up in the lobby: 3 players, target 5, Bob invited, one bot.
    page.goto(server.url + "/")
    page.locator("#set-up > summary").click()  # the set-up form is folded (issue 29)
    page.get_by_label("Game", exact=True).select_option(label="Marshmallow Test")
    page.get_by_label("Players", exact=True).select_option("3")
    page.get_by_label("Points to win").fill("5")
    page.get_by_label("After a ruff").select_option('"may"')
    page.get_by_label("Seat 1", exact=True).select_option("human")
    page.get_by_label("Seat 2", exact=True).select_option("human")
    page.get_by_label("Seat 3", exact=True).select_option("bot:easy")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your seat").select_option("0")  # the creator sits down at once
    page.get_by_label("Bot pace", exact=False).fill("0")
    page.get_by_role("button", name="Create table").click()
    ann.wait_seated()
    table_id = page.url.rsplit("/", 1)[1]
    invite = page.locator("#invite-link").inner_text()
    assert invite.endswith(f"/t/{table_id}")
    bob.page.goto(invite)
    bob.join(1)
    ann.wait_connected()
    bob.wait_connected()

    notes: dict[str, Any] = {
        "pages": [],
        "trump": 0,
        "explained": None,
        "reloaded": False,
        "seat": {"Ann": 0, "Bob": 1},
    }

    def act(person: Person, made: int) -> None:
        if made == 2:
            shoot(ann.page, screenshots, "marshmallow-test-desktop")
            shoot(bob.page, screenshots, "marshmallow-test-phone")
            assert run_axe(ann.page, axe_source) == []
            assert run_axe(bob.page, axe_source) == []
        if made == 7 and not notes["reloaded"]:
            # Reloading finds the same seat (the token is in localStorage).
            person.page.reload()
            person.wait_connected()
            assert (
                person.page.locator("#board .is-me .seat-name").inner_text().startswith(person.name)
            )
            notes["reloaded"] = True
            if not person.status()["mine"]:
                return
        play_turn(person, keyboard=person is ann, notes=notes)

    moves = play_until_finished([ann, bob], act)
    assert moves > 10 and notes["reloaded"]
    assert notes["explained"], "no turn offered a card that must not be played"
    for person in (ann, bob):
        assert person.errors == []
        assert person.page.locator("#end-panel .standings li").count() == 3
    winners = ann.page.locator("#end-panel .winners").inner_text()
    shoot(ann.page, screenshots, "marshmallow-test-final-desktop")
    shoot(bob.page, screenshots, "marshmallow-test-final-phone")

    # The record: downloaded from the page, replayable by the engine.
    with page.expect_download() as download:
        page.locator("#download-record").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert record["format"] == "cardtable-record/1"
    final = load_record(record)
    assert final.finished
    shown = {0: "Ann", 1: "Bob", 2: "Bot 3 (easy)"}  # seats counted from 1 for people
    assert winners.endswith(" and ".join(shown[s] for s in final.winners))

    # Step-by-step replay, with all hands open.
    page.locator("#open-replay").click()
    page.wait_for_selector("#replay .mt-table")
    page.locator("#replay-next").click()
    page.wait_for_function(
        "() => document.querySelector('.replay-position').textContent.startsWith('Decision 1 ')"
    )
    page.get_by_label("Show").select_option("all")
    page.wait_for_selector("#replay .mt-open-hand")
    shoot(page, screenshots, "marshmallow-test-replay-all-hands")

    check_pages_and_frames(record, {0: ann, 1: bob}, notes["pages"], CARDS)

    # Rematch: same seats, same people (their tokens carry over), a new deal.
    page.go_back()  # the replay is a screen of its own (#replay): Back shows the standings
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: not url.endswith(table_id))
    ann.wait_connected()
    bob.page.locator("#rematch-link").click()
    bob.page.wait_for_url(page.url)
    bob.wait_connected()
    for person in (ann, bob):
        assert person.page.locator("#join-panel").is_hidden()
        me = person.page.locator("#board .is-me .seat-name").inner_text()
        assert me.startswith(person.name)
        assert person.page.locator(".mt-hand button.card").count() == 12
        person.close()


NARRATE = """async ([lang, seat]) => {
  const board = await import("/games/marshmallow-test/board.js");
  const { translator } = await import("/static/i18n.js");
  const t = translator(lang, await (await fetch(board.catalog(lang))).json());
  const view = {
    seat, players: 2, round_number: 1, dealer: 0, trump: "blue", finished: true,
    winners: [0], scores: [12, 3], round_scores: [[12, 3]], current_trick: [],
    tricks: [
      [{seat: 0, card: "R5"}, {seat: 1, card: "R9"}],
      [{seat: 1, card: "G2"}, {seat: 0, card: "B1"}],
    ],
    trick_winners: [1, 0],
  };
  return board.narrate({view}, t, ["Ada", "Ben"]);
}"""


WON = {
    "de": ("Du", "Du erreichst 12 Punkte und gewinnst."),
    "fr": ("Vous", "Vous atteignez 12 guimauves et gagnez."),
    "en": ("You", "You reach 12 points and win."),
}


def test_the_log_says_your_own_turns_in_the_second_person(browser: Any, server: Server) -> None:
    """Issue 29: the lesson names the learner "Du"/"Vous", and "Vous a choisi" /
    "Du bekommt" do not parse: the viewer's own deal, trump, plays, tricks and
    win are said in the second person, another seat's by their name."""
    person = Person.open(browser, "Ada")
    person.page.goto(f"{server.url}/")
    for lang, (you, won) in WON.items():
        lines = person.page.evaluate(NARRATE, [lang, 0])
        assert lines[-1] == won, lines
        assert not any(line.startswith("Ada") for line in lines), lines
        assert lines[1].startswith(you), lines
    mine = person.page.evaluate(NARRATE, ["de", 0])
    assert mine[:2] == ["Runde 1: Du gibst.", "Du hast Blau als Trumpf bestimmt."]
    theirs = person.page.evaluate(NARRATE, ["de", 1])
    assert theirs[:2] == ["Runde 1: Ada gibt.", "Ada hat Blau als Trumpf bestimmt."]
    assert theirs[2].endswith("Du bekommst den Stich.")  # Ben (seat 1) took the first trick
    assert theirs[-1] == "Ada erreicht 12 Punkte und gewinnt."
    assert not person.errors, person.errors
    person.close()
