"""Learning in Chromium: a scripted learner finishes the German Marshmallow
Test lesson (a card the rules refuse says so with the rule, MT-4.2/MT-5.3; a
legal move that misses the idea gets the step's hint; the right one moves
on) and starts a first game against easy bots; a puzzle takes one try and
shows the answer with every choice's value."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardtable.learn.puzzles import load_puzzles
from cardtable.learn.tutorial import Step, load_tutorial
from tests.browser.helpers import Person, Server, run_axe


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
        assert step.words["title"] in page.locator("#step-title").inner_text()
        for move, rule in step.tries:
            click_move(page, move.to_json())
            if rule is not None:  # refused on the board itself; the server is not asked
                page.wait_for_function("() => document.querySelector('.mt-reason')?.textContent")
                reason = page.locator(".mt-reason").inner_text()
                # While trump is due (MT-4.2) the board says so for every card.
                assert f"({rule})" in reason or step.id == "trump", reason
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
    puzzles = load_puzzles("marshmallow-test")
    person = Person.open(browser, "Pia")
    page = person.page
    page.goto(f"{server.url}/puzzles/marshmallow-test")
    page.wait_for_selector("#board[data-puzzle] .mt-hand")
    puzzle = puzzles.by_id(page.locator("#board").get_attribute("data-puzzle"))
    click_move(page, puzzle.legal[puzzle.solution[0]])
    page.wait_for_selector("#puzzle-verdict[data-solved='true']")
    assert page.locator(".puzzle-values tbody tr").count() == len(puzzle.alternatives)
    assert puzzle.theme in page.locator("#puzzle-answer").inner_text()
    assert "1500" not in page.locator("#puzzle-rating").inner_text()  # the solve raised it
    assert run_axe(page, axe_source) == []
    assert not person.errors, person.errors
