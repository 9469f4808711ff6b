"""Learning in Chromium: a scripted learner finishes the German Marshmallow
Test lesson (a card the rules refuse says so with the rule, MT-4.2/MT-5.3; a
legal move that misses the idea gets the step's hint; the right one moves
on) and starts a first game against easy bots; a puzzle takes one try and
shows the answer with every choice's value."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.registry import manifest
from cardtable.core.rulebook import parse_rules
from cardtable.learn.puzzles import Puzzle, load_puzzles
from cardtable.learn.tutorial import Step, load_tutorial
from cardtable.server.web.pages import rules_source
from tests.browser.helpers import PHONE, Person, Server, run_axe
from tests.learn.test_puzzles import board_catalog


def click_move(page: Any, move: Mapping[str, Any]) -> None:
    if "trump" in move:
        page.locator(f".mt-trump-choice button[data-key='trump-{move['trump']}']").click()
    else:
        page.locator(f".mt-hand button[data-card='{move['play']}']").click(force=True)


def told_wrong(page: Any, step: Step) -> None:
    """The step's feedback: a legal move that missed the idea, in the step's words."""
    page.wait_for_selector("#step-feedback[data-verdict='wrong']")
    assert step.words["wrong"] in page.locator("#step-feedback").inner_text()


def play_the_right_move(
    page: Any, step: Step, play: Callable[[Any, Mapping[str, Any]], None]
) -> None:
    """Play the step's expected move on its board (``play``); the feedback says
    right, in the step's words, and the learner goes on to the next step."""
    play(page, step.expect[0].to_json())
    page.wait_for_selector("#step-feedback[data-verdict='right']")
    assert page.locator("#step-feedback").inner_text() == step.words["right"]
    page.locator("#step-next").click()


def test_a_learner_finishes_the_lesson_in_german_and_plays_on(
    browser: Any, server: Server, axe_source: str
) -> None:
    tutorial = load_tutorial("marshmallow-test", "de")
    person = Person.open(browser, "Lea", locale="de-DE")
    page = person.page
    page.goto(f"{server.url}/learn/marshmallow-test")
    for number, step in enumerate(tutorial.steps, start=1):
        page.wait_for_selector(f"#board[data-step='{number}'] .mt-hand")
        if number == 1:
            assert run_axe(page, axe_source) == []
            # The learner's seat is "Du", said once (not "Du (du)").
            board_text = page.locator("#board").inner_text()
            assert "Du" in board_text and "(du)" not in board_text, board_text
        assert step.words["title"] in page.locator("#step-title").inner_text()
        for move, rule in step.tries:
            click_move(page, move.to_json())
            if rule is not None:  # refused on the board itself; the server is not asked
                page.wait_for_function("() => document.querySelector('.mt-reason')?.textContent")
                reason = page.locator(".mt-reason").inner_text()
                # While trump is due (MT-4.2) the board says so for every card.
                assert f"({rule})" in reason or step.id == "trump", reason
                # In German, from the refusal's key and facts, not the engine's English.
                assert not re.search(r"\b(must|holds|follow|trump is)\b", reason), reason
                assert page.locator("#step-feedback").get_attribute("data-verdict") is None
            else:
                told_wrong(page, step)
        play_the_right_move(page, step, click_move)
    finale = page.locator("#lesson-finale").inner_text()
    assert tutorial.words.finale in finale and "Lektion geschafft" in finale
    page.locator("#first-game").click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#board")
    assert not person.errors, person.errors


def offered(page: Any, move: Mapping[str, Any]) -> bool:
    """Whether MyRummy's board offers ``move`` (it offers no move the rules refuse)."""
    if "take" in move:
        key = f"refresh-{move['take']}" if move.get("refresh") else f"take-{move['take']}"
        return bool(page.locator(f"button[data-key='{key}']:not([disabled])").count())
    gap = page.locator(f"button[data-key='gap-{move['place']}']")
    if not gap.count() or gap.is_disabled():
        return False
    gap.click()
    sides = page.locator(".mr-discard")
    return not sides.count() or bool(
        page.locator(f"button[data-key='discard-{move['discard']}']").count()
    )


def make_move(page: Any, move: Mapping[str, Any]) -> None:
    assert offered(page, move), move
    if "take" in move:
        key = f"refresh-{move['take']}" if move.get("refresh") else f"take-{move['take']}"
        page.locator(f"button[data-key='{key}']").click()
        return
    side = page.locator(f"button[data-key='discard-{move['discard']}']")
    if side.count():
        side.click()
    page.locator("#mr-declare" if move.get("declare") else "#mr-confirm").click()


def test_a_learner_finishes_the_myrummy_lesson_in_french(browser: Any, server: Server) -> None:
    tutorial = load_tutorial("myrummy-111", "fr")
    person = Person.open(browser, "Léa", locale="fr-FR")
    page = person.page
    page.goto(f"{server.url}/learn/myrummy-111")
    for number, step in enumerate(tutorial.steps, start=1):
        page.wait_for_selector(
            f"#board[data-step='{number}'] .mr-hand, #board[data-step='{number}'] .mr-take"
        )
        for move, rule in step.tries:
            if rule is not None:  # MR-4.1, MR-4.4: the board does not offer it at all
                assert not offered(page, move.to_json()), (step.id, move)
                continue
            make_move(page, move.to_json())
            told_wrong(page, step)
        play_the_right_move(page, step, make_move)
    assert "Vous avez terminé la leçon." in page.locator("#lesson-finale").inner_text()
    assert not person.errors, person.errors


def test_a_puzzle_takes_one_try_then_shows_every_choices_value(
    browser: Any, server: Server, axe_source: str
) -> None:
    person = Person.open(browser, "Pia")
    page = person.page
    puzzle = solve_a_puzzle(page, server)
    page.wait_for_selector("#puzzle-verdict[data-solved='true']")
    assert page.locator(".puzzle-values tbody tr").count() == len(puzzle.alternatives)
    assert_theme_worded(page, puzzle.theme_key, board_catalog("marshmallow-test", "en"))
    assert "1500" not in page.locator("#puzzle-rating").inner_text()  # the solve raised it
    assert run_axe(page, axe_source) == []
    assert not person.errors, person.errors


def assert_theme_worded(page: Any, key: str | None, catalog: Mapping[str, Any]) -> None:
    """The answer's theme is the board catalog's words for ``key``: every
    fixed part of its template is on the page (the card between them is
    the board's label for it)."""
    assert key is not None
    theme = page.locator("#puzzle-theme").inner_text()
    for fixed in re.split(r"\{\w+\}", catalog[key]):
        assert fixed.strip() in theme, (fixed, theme)


def solve_a_puzzle(page: Any, server: Server) -> Puzzle:
    """Open the Marshmallow Test puzzles and play the shown puzzle's solution."""
    page.goto(f"{server.url}/puzzles/marshmallow-test")
    page.wait_for_selector("#board[data-puzzle] .mt-hand")
    puzzle = load_puzzles("marshmallow-test").by_id(
        page.locator("#board").get_attribute("data-puzzle")
    )
    click_move(page, puzzle.legal[puzzle.solution[0]])
    return puzzle


def in_view(page: Any, selector: str) -> bool:
    """Whether the element lies wholly inside the window, without scrolling."""
    return bool(
        page.evaluate(
            """(selector) => {
                const r = document.querySelector(selector).getBoundingClientRect();
                return r.top >= 0 && r.bottom <= innerHeight;
            }""",
            selector,
        )
    )


def test_a_puzzle_counts_seats_from_1_and_shows_its_verdict_in_view(
    browser: Any, server: Server
) -> None:
    """Issue 29: seats were named from "Platz 0", and at 1280×800 the verdict
    came below the fold; on a phone too it is in view after the one try."""
    shots = Path("/tmp/words-shots")
    shots.mkdir(exist_ok=True)
    for name, size in (("desktop", {"width": 1280, "height": 800}), ("phone", PHONE)):
        person = Person.open(browser, "Pia", locale="de-DE")
        page = person.page
        page.set_viewport_size(size)
        solve_a_puzzle(page, server)
        page.wait_for_selector("#puzzle-verdict")
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots / f"puzzle-verdict-{name}.png"))
        assert in_view(page, "#puzzle-verdict"), name
        board_text = page.locator("#board").inner_text()
        assert "Platz 0" not in board_text and "Platz 1" in board_text, board_text
        assert not person.errors, person.errors
        person.close()


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR"])
def test_a_puzzles_theme_and_rule_are_in_the_pages_language(
    browser: Any, server: Server, locale: str
) -> None:
    """Issue 29: the answer's theme and its rule were English on a German or
    French page. Now the board's catalog words the theme (no English theme
    left) and the rule is the translated rulebook's."""
    lang = locale[:2]
    catalog = board_catalog("marshmallow-test", lang)
    person = Person.open(browser, "Pia", locale=locale)
    page = person.page
    puzzle = solve_a_puzzle(page, server)
    page.wait_for_selector("#puzzle-verdict")
    assert puzzle.theme not in page.locator("#puzzle-theme").inner_text()
    assert_theme_worded(page, puzzle.theme_key, catalog)
    assert puzzle.rule is not None
    _, rules = rules_source(manifest("marshmallow-test"), lang)
    translated = parse_rules(rules)[puzzle.rule].replace("**", "")
    assert translated[:40] in page.locator(".puzzle-rule").inner_text()
    assert not person.errors, person.errors
    person.close()
