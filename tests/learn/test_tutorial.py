"""Every tutorial step against today's engine, and a scripted learner in the terminal.

The steps' positions replay, their expected moves are legal and the wrong
moves they foresee are refused by the rule they name (MT-4.2, MT-5.3,
MR-4.1, MR-4.4…) or legal and not the idea, in every language; a learner
who types the wrong moves first and then the right ones reads each step's
hint and praise and reaches the first real game.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardtable.cli.learn_cmd import run_tutorial
from cardtable.cli.main import app
from cardtable.cli.ui import QuitGame
from cardtable.core.registry import game_names, manifest
from cardtable.learn.tutorial import (
    TutorialError,
    check_step,
    languages,
    load_tutorial,
    refusal,
)
from cardtable.learn.words import WORD_LANGUAGES, words

GAMES = [name for name in game_names() if manifest(name).has("tutorial")]
LESSONS = [(game, lang) for game in GAMES for lang in languages(game)]


def test_every_built_in_game_has_a_tutorial_in_the_browsers_languages() -> None:
    assert {"marshmallow-test", "myrummy-111"} <= set(GAMES)
    for game in GAMES:
        assert set(languages(game)) == set(WORD_LANGUAGES)


@pytest.mark.parametrize(("game", "lang"), LESSONS)
def test_each_step_replays_and_its_moves_are_judged_by_the_engine(game: str, lang: str) -> None:
    tutorial = load_tutorial(game, lang)
    assert len(tutorial.steps) >= 5
    for step in tutorial.steps:
        state = step.position(tutorial.game)
        assert state.to_move == tutorial.seat
        legal = state.legal_moves()
        assert step.expect and all(move in legal for move in step.expect)
        assert step.tries, f"step {step.id} foresees no wrong move"
        for move, rule in step.tries:
            error = refusal(state, tutorial.seat, move)
            assert (None if error is None else error.rule) == rule
            assert move not in step.expect


def test_the_languages_teach_the_same_steps_with_their_own_words() -> None:
    for game in GAMES:
        lessons = {lang: load_tutorial(game, lang) for lang in languages(game)}
        ids = {lang: [s.id for s in t.steps] for lang, t in lessons.items()}
        assert len({tuple(v) for v in ids.values()}) == 1
        english = lessons["en"]
        for lang, tutorial in lessons.items():
            if lang != "en":
                assert all(
                    a.words["idea"] != b.words["idea"]
                    for a, b in zip(tutorial.steps, english.steps, strict=True)
                )
    assert all(set(words(lang)) == set(words("en")) for lang in WORD_LANGUAGES)


def test_a_step_whose_expected_move_is_illegal_is_named_in_the_error() -> None:
    tutorial = load_tutorial("marshmallow-test")
    follow = tutorial.steps[0]
    wrong, _ = follow.tries[0]  # a card off the lead colour (MT-5.3)
    broken = replace(follow, expect=(wrong,), tries=())
    with pytest.raises(TutorialError, match=r"step 1 \(follow\).*not legal"):
        check_step(
            tutorial.game, manifest("marshmallow-test"), 0, broken, "steps.json: step 1 (follow)"
        )


def test_an_unknown_language_is_one_clear_line() -> None:
    result = CliRunner().invoke(app, ["learn", "marshmallow-test", "--lang", "xx"])
    assert result.exit_code == 2
    assert "no words in 'xx'; choose one of de, en, fr" in result.output


def script(tutorial_game: str, lang: str) -> list[str]:
    """Every foreseen wrong move of every step, then its first right one;
    then Enter for the real game and quit at its first prompt."""
    lines = []
    for step in load_tutorial(tutorial_game, lang).steps:
        lines += [str(move) for move, _ in step.tries]
        lines.append(str(step.expect[0]))
    return [*lines, "", "quit"]


@pytest.mark.parametrize(("game", "lang"), LESSONS)
def test_a_scripted_learner_finishes_the_lesson_and_plays_on(game: str, lang: str) -> None:
    tutorial = load_tutorial(game, lang)
    lines = iter(script(game, lang))

    def read_line(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise QuitGame from None

    out = io.StringIO()
    console = Console(file=out, width=400, highlight=False, color_system=None)
    assert run_tutorial(tutorial, console, read_line, rng=random.Random(1))
    text = out.getvalue()
    for step in tutorial.steps:
        assert step.words["wrong"] in text
        assert step.words["right"] in text
        for _, rule in step.tries:
            if rule is not None:  # an illegal try is refused with the engine's rule
                assert f"({rule})" in text
    assert tutorial.words.finale in text
    assert "Game stopped." in text  # the first real game began, and quit stopped it
    assert next(lines, None) is None  # every scripted line was read


def test_the_command_runs_the_lesson_from_standard_input() -> None:
    lines = script("myrummy-111", "fr")
    result = CliRunner().invoke(
        app, ["learn", "myrummy-111", "--lang", "fr"], input="\n".join(lines) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "Vous avez terminé la leçon." in result.output
