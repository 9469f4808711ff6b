"""Learning and puzzles for a game that brings no lesson of its own (a plugin).

``cardtable learn GAME`` for a game without a tutorial folder reads its
rules text part by part (:mod:`cardtable.core.rulebook`) and plays a guided
game in which each refused move and each hint cites the rule behind it: the
engine's refusal names the rule (Fixture Trick's FT-1 and FT-2, Fixture
Shed's FS-…). ``cardtable puzzles build GAME --count N`` builds puzzles with
the built-in games' builder wherever a search can value decisions, and
``cardtable puzzle GAME`` plays them; a game without a search bot is refused
in one line.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardtable.cli.learn_cmd import run_generic_lesson
from cardtable.cli.main import app
from cardtable.cli.ui import QuitGame
from cardtable.core.registry import load, manifest
from cardtable.learn.generic import rule_sections
from cardtable.learn.puzzles import MARGIN, legal_of, load_puzzles
from tests.bots import plugin as resampled
from tests.fixtures import plugin

CARDS = [f"{suit}{rank}" for suit in "ABC" for rank in range(1, 5)]  # Fixture Trick's deck
REFUSED = re.compile(r"^Not allowed: (.*) \((.*)\)\.$")


@pytest.fixture
def fixture_trick() -> Iterator[None]:
    with plugin.registered():
        yield


@pytest.fixture
def fixture_trick_resampled() -> Iterator[None]:
    with resampled.registered():
        yield


@pytest.fixture
def fixture_shed() -> Iterator[None]:
    with plugin.registered(plugin.SHED_SOURCE, plugin.SHED_NAME, plugin.SHED_DIST):
        yield


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=400, highlight=False, color_system=None), out


def test_the_command_plays_a_guided_game_to_the_end(fixture_trick: None) -> None:
    # The learner types every card of the deck in turn at each prompt: those
    # it does not hold or may not play are refused, the first playable one is played.
    script = ["", *CARDS * 40]
    result = CliRunner().invoke(
        app, ["learn", "fixture-trick", "--seed", "5"], input="\n".join(script) + "\n"
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Fixture Trick has no rules text" in result.output  # FT has no rules.md
    assert "Game over." in result.output
    assert "That was your first game of Fixture Trick." in result.output
    refused = [REFUSED.match(line.split(": ", 1)[-1]) for line in lines if "Not allowed" in line]
    assert refused and all(m is not None for m in refused)
    # Every refusal cites the rule the engine gives: a card not held breaks the deal (FT-1).
    for match in refused:
        assert match is not None
        reason, rule = match.groups()
        assert rule == ("FT-1" if "does not hold" in reason else "FT-2"), match.group(0)


def test_a_refused_move_and_a_hint_cite_their_rules(fixture_trick: None) -> None:
    """A learner who asks for a hint, then tries each held card that does not
    follow the led suit (FT-2) before a legal one."""
    console, out = _console()
    tried: list[str] = []
    asked_hint: list[str] = []

    def read_line(prompt: str) -> str:
        if not prompt.startswith("your move ("):
            return ""  # Enter: start the game
        choices = prompt.removeprefix("your move (").split(")")[0].split(", ")
        hand = [line for line in out.getvalue().splitlines() if line.startswith("Your hand:")]
        held = hand[-1].removeprefix("Your hand: ").split()
        if not asked_hint:
            asked_hint.append(",".join(choices))
            return "hint"
        off_suit = [c for c in held if c not in choices and c not in tried]
        if off_suit:
            tried.append(off_suit[0])
            return off_suit[0]
        tried.clear()
        return choices[0]

    assert run_generic_lesson(
        load("fixture-trick"), console, read_line, language="en", rng=random.Random(2)
    )
    text = out.getvalue()
    follow = text.count("Not allowed: your seat must follow suit (FT-2).")
    assert follow > 0  # the game had decisions where following was forced (else no test)
    assert follow == text.count("Not allowed:")  # only the off-suit cards were typed
    assert f"Hint: legal now: {asked_hint[0].replace(',', ', ')}." in text
    assert re.search(r"Refused now by FT-1 \(\d+\), such as \w+: your seat does not hold", text)
    assert "Game over." in text


def test_a_game_with_rules_text_is_read_part_by_part(fixture_shed: None) -> None:
    sections = rule_sections(manifest("fixture-shed"))
    assert [s.number for s in sections][:2] == ["FS-1", "FS-2"]
    console, out = _console()
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Drücke Enter"):
            return ""
        raise QuitGame  # at the first move of the guided game

    assert not run_generic_lesson(
        load("fixture-shed"), console, read_line, language="de", rng=random.Random(1)
    )
    text = out.getvalue()
    for number, section in enumerate(sections, start=1):
        assert f"Regeln, Teil {number} von {len(sections)}: {section.title}" in text
        assert section.text.splitlines()[-1] in text
    assert prompts.count("Drücke Enter für den nächsten Teil (oder quit): ") == len(sections) - 1
    assert prompts[-1].startswith("your move")  # the guided game began after the rules
    assert "Lektion beendet." in text


def test_where_the_game_resamples_a_hint_also_values_each_choice(
    fixture_trick_resampled: None,
) -> None:
    console, out = _console()
    answers = iter(["", "hint"])

    def read_line(prompt: str) -> str:
        answer = next(answers, None)
        if answer is None:
            raise QuitGame
        return answer

    run_generic_lesson(
        load(resampled.NAME), console, read_line, language="en", rng=random.Random(3)
    )
    text = out.getvalue()
    assert re.search(r"Refused now by FT-1 \(\d+\)", text)
    assert re.search(r"Hint: \w+(?: = \w+)* \(from your view only\)", text)


def test_a_game_with_its_own_tutorial_keeps_it() -> None:
    result = CliRunner().invoke(app, ["learn", "marshmallow-test"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Step 1 of" in result.output
    assert "a first lesson" not in result.output


def _unique_best(puzzle: dict[str, object]) -> bool:
    """The builder's criterion, read back from the file: every other choice
    loses at least MARGIN points of win chance, two standard errors included."""
    alternatives = puzzle["alternatives"]
    assert isinstance(alternatives, list)
    best, *others = alternatives
    return (
        best["moves"] == puzzle["solution"]
        and bool(others)
        and all(a["loss"] - 2 * a["loss_se"] >= MARGIN - 0.01 for a in others)  # JSON rounds
        and float(str(puzzle["margin"])) >= MARGIN
    )


@pytest.mark.slow
def test_puzzles_built_for_a_plugin_are_played(
    fixture_trick_resampled: None, tmp_path: Path
) -> None:
    game = resampled.NAME  # the fixture with resampling: the generic search bot seats it
    build = CliRunner().invoke(
        app,
        ["puzzles", "build", game, "--count", "3", "--out", str(tmp_path), "--budget", "0.05"],
    )
    assert build.exit_code == 0, build.output
    built = json.loads((tmp_path / f"{game}.json").read_text(encoding="utf-8"))
    assert built["game"] == game
    assert len(built["puzzles"]) == 3
    assert all(_unique_best(p) for p in built["puzzles"])
    assert built["builds"][0]["count"] == 3

    puzzle = load_puzzles(game, tmp_path).puzzles[0]
    profile = str(tmp_path / "me.json")
    answer = legal_of(load(game), puzzle)[puzzle.solution[0]]
    solve = CliRunner().invoke(
        app,
        ["puzzle", game, "--from", str(tmp_path), "--id", puzzle.id, "--profile", profile],
        input=f"{answer}\n",
    )
    assert solve.exit_code == 0, solve.output
    assert "Solved!" in solve.output
    ratings = json.loads((tmp_path / "me.json").read_text(encoding="utf-8"))
    assert game in json.dumps(ratings)


@pytest.mark.slow
def test_a_plugins_set_goes_to_the_users_folder_by_default(
    fixture_trick_resampled: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    game = resampled.NAME
    build = CliRunner().invoke(app, ["puzzles", "build", game, "--count", "1", "--budget", "0.05"])
    assert build.exit_code == 0, build.output
    assert (tmp_path / ".cardtable" / "puzzles" / f"{game}.json").is_file()
    solve = CliRunner().invoke(
        app, ["puzzle", game, "--profile", str(tmp_path / "me.json")], input="quit\n"
    )
    assert solve.exit_code == 0, solve.output
    assert "puzzle " in solve.output and "rating" in solve.output


def test_a_game_without_a_search_bot_is_refused_in_one_line(
    fixture_trick: None, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        app, ["puzzles", "build", plugin.NAME, "--count", "3", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert result.output.startswith("error: fixture-trick has no search bot")
    assert not any(tmp_path.iterdir())


def test_a_game_without_a_built_set_says_how_to_build_one(
    fixture_trick_resampled: None, tmp_path: Path
) -> None:
    result = CliRunner().invoke(app, ["puzzle", resampled.NAME, "--from", str(tmp_path)])
    assert result.exit_code == 2
    assert f"cardtable puzzles build {resampled.NAME}" in result.output


@pytest.mark.slow
def test_the_shedding_fixture_builds_puzzles(fixture_shed: None, tmp_path: Path) -> None:
    out = str(tmp_path / "s.json")  # a .json --out is the file itself
    build = CliRunner().invoke(
        app,
        ["puzzles", "build", "fixture-shed", "--count", "1", "--budget", "0.05", "--out", out],
    )
    assert build.exit_code == 0, build.output
    built = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert len(built["puzzles"]) == 1 and _unique_best(built["puzzles"][0])
