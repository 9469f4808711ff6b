"""How a tutorial file is read, and what a bad one is told (docs/learn.md,
"The guided first game").

test_tutorial.py checks the shipped lessons; this module pins the terms of the
file format and the loader's answers to faults: each fault is one line naming
the file and the step ("A fault is one line naming the file and the step"), a
step without ``try`` foresees no wrong move, the words are exactly ``title``,
``idea``, ``wrong`` and ``right``, and a game without a ``tutorial`` folder is
told so. The faulty files live in a plugin game, "tutorial-terms": Marshmallow
Test's engine, rules and tutorial copied into a package of its own, installed
as a plugin is (a plugin adds files, not code), and each test corrupts its
copy.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from cardtable.core.errors import CardtableError
from cardtable.core.game import Game, Move, State
from cardtable.core.registry import load, manifest
from cardtable.core.rulebook import UnknownRuleError, rulebook
from cardtable.learn.tutorial import (
    FORMAT,
    Tutorial,
    TutorialError,
    Words,
    check_step,
    languages,
    load_tutorial,
    refusal,
)
from tests.fixtures import plugin

REPO = Path(__file__).resolve().parents[2]
ORIGINAL = REPO / "cardtable/games/marshmallow_test"
NAME = "tutorial-terms"
PACKAGE = "ct_tutorial_terms"
STEPS = "learn/steps.json"
EN = "learn/en.json"
MANIFEST = f"""\
from cardtable.core.manifest import GameManifest

MANIFEST = GameManifest(
    name={NAME!r},
    title="Tutorial Terms",
    game="cardtable.games.marshmallow_test:MarshmallowTest",
    players=(2, 3, 4, 5),
    default_players=4,
    rules="rules.md",
    tutorial="learn",
    package={PACKAGE!r},
)
"""

Edit = Callable[[dict[str, Any]], None]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The plugin game installed; its package folder."""
    source = tmp_path_factory.mktemp("source") / PACKAGE
    (source / "learn").mkdir(parents=True)
    (source / "__init__.py").write_text("", encoding="utf-8")
    (source / "manifest.py").write_text(MANIFEST, encoding="utf-8")
    shutil.copy(ORIGINAL / "rules.md", source / "rules.md")
    with plugin.registered(source, NAME, PACKAGE) as path:
        yield path / PACKAGE
    for module in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[module]  # the next install finds its own copy


@pytest.fixture
def lab(site: Path) -> Path:
    """The plugin's tutorial folder, a fresh copy of Marshmallow Test's for this test
    (``puzzles.json`` is there to show that it is not a language)."""
    folder = site / "learn"
    for name in ("steps.json", "en.json", "de.json", "fr.json"):
        data = json.loads((ORIGINAL / "learn" / name).read_text(encoding="utf-8"))
        if name == "steps.json":
            data["game"] = NAME
        write(folder / name, data)
    write(folder / "puzzles.json", {})
    return folder


def write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def edit(path: Path, change: Edit) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    write(path, data)


def refused(lab: Path, name: str, change: Edit) -> TutorialError:
    """The error loading the lab's tutorial gives once ``change`` is made to file ``name``."""
    edit(lab / name, change)
    with pytest.raises(TutorialError) as caught:
        load_tutorial(NAME)
    return caught.value


def first_step(change: Callable[[dict[str, Any]], Any]) -> Edit:
    return lambda data: change(data["steps"][0])


# A game without a tutorial folder, and the languages offered


def test_a_game_without_a_tutorial_folder_is_told_so() -> None:
    with plugin.registered():  # Fixture Trick: a package, no tutorial
        for ask in (languages, load_tutorial):
            with pytest.raises(TutorialError) as caught:
                ask(plugin.NAME)
            error = caught.value
            assert str(error) == "fixture-trick: this game offers no tutorial"
            assert (error.where, error.reason) == ("fixture-trick", "this game offers no tutorial")


def test_an_unknown_language_names_the_tutorial_and_the_choices() -> None:
    with pytest.raises(TutorialError) as caught:
        load_tutorial("marshmallow-test", "xx")
    assert (
        str(caught.value) == "marshmallow-test tutorial: no words in 'xx'; choose one of de, en, fr"
    )


# What a good file gives


def test_a_copied_tutorial_loads_its_steps_and_words_as_written(lab: Path) -> None:
    steps = json.loads((lab / "steps.json").read_text(encoding="utf-8"))
    text = json.loads((lab / "en.json").read_text(encoding="utf-8"))
    assert languages(NAME) == ("de", "en", "fr")  # steps.json and puzzles.json hold no words
    tutorial = load_tutorial(NAME)
    assert tutorial.language == "en"
    assert tutorial.seat == steps["seat"] == 0
    assert tutorial.names == tuple(steps["names"])
    assert tutorial.words == Words(text["title"], text["intro"], text["finale"])
    assert [s.id for s in tutorial.steps] == [raw["id"] for raw in steps["steps"]]
    for step, raw in zip(tutorial.steps, steps["steps"], strict=True):
        assert step.rule == raw["rule"]
        assert step.words == {
            k: text["steps"][step.id][k] for k in ("title", "idea", "wrong", "right")
        }
        assert step.rounds == tuple(raw["rounds"])
        assert step.expect == tuple(read(tutorial.game, m) for m in raw["expect"])
        assert step.tries == tuple(
            (read(tutorial.game, t["move"]), t.get("refused_by")) for t in raw["try"]
        )


def read(game: Game, obj: dict[str, Any]) -> Move:
    """A step's move object as the game reads it (the learner's seat is 0)."""
    return game.move_from_json({"seat": 0, **obj}, "test")[1]


def test_a_step_without_try_foresees_no_wrong_move(lab: Path) -> None:
    edit(lab / "steps.json", first_step(lambda step: step.pop("try")))
    assert load_tutorial(NAME).steps[0].tries == ()


def test_the_words_file_is_read_as_utf_8_whatever_the_locale() -> None:
    """A person whose locale is not UTF-8 (Windows, a POSIX "C" locale) reads
    the same German words: the file is UTF-8 by the format."""
    german = load_tutorial("marshmallow-test", "de").words.intro
    assert not german.isascii()
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    code = (
        "import locale, sys\n"
        "from cardtable.learn.tutorial import load_tutorial\n"
        "assert locale.getpreferredencoding(False).lower() not in ('utf-8', 'utf8')\n"
        "intro = load_tutorial('marshmallow-test', 'de').words.intro\n"
        "sys.stdout.buffer.write(intro.encode('utf-8'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert done.stdout.decode("utf-8") == german


# Faults in the files: one line naming the file (and the step)


def test_a_missing_steps_file_is_named(lab: Path) -> None:
    (lab / "steps.json").unlink()
    with pytest.raises(TutorialError) as caught:
        load_tutorial(NAME)
    assert str(caught.value) == f"{STEPS}: no such file"
    assert (caught.value.where, caught.value.reason) == (STEPS, "no such file")


@pytest.mark.parametrize(("name", "where"), [("steps.json", STEPS), ("en.json", EN)])
def test_a_file_that_is_not_json_is_named_with_the_parsers_reason(
    lab: Path, name: str, where: str
) -> None:
    (lab / name).write_text('{"format": ', encoding="utf-8")
    with pytest.raises(json.JSONDecodeError) as parser:
        json.loads('{"format": ')
    with pytest.raises(TutorialError) as caught:
        load_tutorial(NAME)
    assert str(caught.value) == f"{where}: not JSON: {parser.value}"
    assert caught.value.where == where


@pytest.mark.parametrize(
    ("field", "value"), [("format", "cardtable-tutorial/2"), ("game", "marshmallow-test")]
)
def test_a_steps_file_of_another_format_or_game_is_refused(
    lab: Path, field: str, value: str
) -> None:
    error = refused(lab, "steps.json", lambda data: data.update({field: value}))
    assert error.where == STEPS  # named once (it was twice: "…/steps.json: …/steps.json: …")
    assert str(error) == f"{STEPS}: not a {FORMAT} file for {NAME}"


@pytest.mark.parametrize(
    ("name", "field"), [("steps.json", "seat"), ("steps.json", "steps"), ("en.json", "title")]
)
def test_a_missing_field_names_both_files_and_the_field(lab: Path, name: str, field: str) -> None:
    error = refused(lab, name, lambda data: data.pop(field))
    assert str(error) == f"{STEPS} / {EN}: missing or malformed '{field}'"


def test_options_the_game_refuses_are_told_in_the_games_words(lab: Path) -> None:
    with pytest.raises(CardtableError) as game:
        load(NAME, players=9)
    error = refused(lab, "steps.json", lambda data: data["options"].update(players=9))
    assert str(error) == f"{STEPS}: {game.value}"
    assert (error.where, error.reason) == (STEPS, str(game.value))


def test_words_for_steps_that_do_not_exist_are_listed(lab: Path) -> None:
    def ghosts(text: dict[str, Any]) -> None:
        for ghost in ("ghost", "attic"):
            text["steps"][ghost] = text["steps"]["follow"]

    error = refused(lab, "en.json", ghosts)
    assert str(error) == f"{EN}: words for steps that do not exist: attic, ghost"


@pytest.mark.parametrize(
    "names", [[None, "Bob"], [None, "Bob", "Cleo", "Dora"], ["Ann", "Bob", "Cleo"], []]
)
def test_names_must_name_every_seat_but_the_learners(lab: Path, names: list[str | None]) -> None:
    error = refused(lab, "steps.json", lambda data: data.update(names=names))
    assert str(error) == f"{STEPS}: names must name every seat but the learner's (0)"


# Faults in one step: named by its number and id


def test_a_step_missing_a_field_is_named_by_number_and_id(lab: Path) -> None:
    error = refused(lab, "steps.json", first_step(lambda step: step.pop("rule")))
    assert str(error) == f"{STEPS}: step 1 (follow): missing or malformed 'rule'"


@pytest.mark.parametrize(
    "change",
    [
        lambda step: step.update(expect=[{"play": "Z99"}]),
        lambda step: step["try"][0].update(move={"play": "Z99"}),
    ],
    ids=["expect", "try"],
)
def test_a_move_the_game_cannot_read_is_named_by_step_and_path(
    lab: Path, change: Callable[[dict[str, Any]], Any]
) -> None:
    where = f"{STEPS}: step 1 (follow)"
    error = refused(lab, "steps.json", first_step(change))
    assert error.where == where
    assert error.reason == f"{where}.play: unknown card 'Z99'"


def test_the_engine_check_of_a_later_step_names_that_step(lab: Path) -> None:
    def illegal(data: dict[str, Any]) -> None:
        data["steps"][1]["expect"] = [{"play": "Y1"}]  # not in the learner's hand at step 2

    error = refused(lab, "steps.json", illegal)
    assert str(error) == f"{STEPS}: step 2 (take): expected move Y1 is not legal there"


def test_a_step_without_words_is_named_in_the_words_file(lab: Path) -> None:
    error = refused(lab, "en.json", lambda text: text["steps"].pop("take"))
    assert str(error) == f"{EN}: step take: no words for this step"


def test_blank_or_missing_words_are_listed(lab: Path) -> None:
    def blank(text: dict[str, Any]) -> None:
        words = text["steps"]["take"]
        words["title"] = "  \n"
        words["idea"] = 7
        del words["right"]

    error = refused(lab, "en.json", blank)
    assert str(error) == f"{EN}: step take: missing title, idea, right"


# check_step: a step against the engine


@pytest.fixture(scope="module")
def lesson() -> Tutorial:
    return load_tutorial("marshmallow-test")


WHERE = "steps.json: step 1 (follow)"


def checked(lesson: Tutorial, **changes: Any) -> TutorialError:
    broken = replace(lesson.steps[0], **changes)
    with pytest.raises(TutorialError) as caught:
        check_step(lesson.game, manifest("marshmallow-test"), 0, broken, WHERE)
    assert caught.value.where == WHERE
    return caught.value


def test_a_position_that_does_not_replay_gives_the_replays_reason(lesson: Tutorial) -> None:
    rounds = json.loads(json.dumps(lesson.steps[0].rounds))
    rounds[0]["moves"][1]["play"] = "R3"  # seat 2 does not hold R3
    with pytest.raises(CardtableError) as replay:
        replace(lesson.steps[0], rounds=tuple(rounds)).position(lesson.game)
    error = checked(lesson, rounds=tuple(rounds))
    assert error.reason == f"its position does not replay: {replay.value}"


def test_a_position_where_another_seat_is_to_move_is_refused(lesson: Tutorial) -> None:
    rounds = json.loads(json.dumps(lesson.steps[0].rounds))
    rounds[0]["moves"].pop()
    error = checked(lesson, rounds=tuple(rounds))
    assert error.reason == "seat 2 is to move, not the learner's 0"


def test_a_wrong_move_that_is_also_expected_is_refused(lesson: Tutorial) -> None:
    right = lesson.steps[0].expect[0]
    error = checked(lesson, tries=((right, None),))
    assert error.reason == f"wrong move {right} is also expected"


@pytest.mark.parametrize(
    ("move", "said", "reason"),
    [
        ("R3", None, "wrong move R3 should be legal: refused by MT-5.3"),
        ("R3", "MT-5.4", "wrong move R3 should be refused by MT-5.4: refused by MT-5.3"),
        ("B12", "MT-5.3", "wrong move B12 should be refused by MT-5.3: legal"),
    ],
)
def test_a_wrong_move_judged_otherwise_by_the_engine_says_both(
    lesson: Tutorial, move: str, said: str | None, reason: str
) -> None:
    wrong = read(lesson.game, {"play": move})
    error = checked(lesson, expect=(lesson.steps[0].expect[0],), tries=((wrong, said),))
    assert error.reason == reason


def test_a_rule_the_rules_text_lacks_is_named_with_close_ones(lesson: Tutorial) -> None:
    # Spelled in two parts: the check that every cited rule resolves reads the tests too.
    missing = "MT-5." + "99"
    with pytest.raises(UnknownRuleError) as unknown:
        rulebook(manifest("marshmallow-test")).rule(missing)
    error = checked(lesson, rule=missing)
    assert error.reason == str(unknown.value)
    assert "close ones: MT-5" in error.reason


class _Lenient:
    """A state whose engine applies a move it does not list as legal (a game's bug)."""

    def legal_moves(self) -> list[Move]:
        return []

    def clone(self) -> _Lenient:
        return self

    def apply_as(self, seat: int, move: Move) -> None:
        return None


def test_refusal_names_a_move_the_engine_applies_but_does_not_list(lesson: Tutorial) -> None:
    move = lesson.steps[0].expect[0]
    with pytest.raises(AssertionError) as caught:
        refusal(cast(State, _Lenient()), 0, move)
    assert str(caught.value) == f"{move} is not listed as legal, yet the engine applied it"
