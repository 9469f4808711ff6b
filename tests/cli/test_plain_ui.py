"""The plain terminal UI (a game without a terminal UI of its own) answers
``help``, ``rules``, ``hint`` and ``quit`` as the games' own UIs do (issue 19).

Two plugin games without a terminal UI: the test suite's Fixture Trick (no
rules text, no resampling, so no hints and no analysis, each said in one line)
and Marshmallow Test's rules published under another name without its UI
(rules text and resampling, so rules, hints and the end-of-game offer work).
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardtable.bots import make_bot
from cardtable.cli.main import app
from cardtable.cli.play import play_game
from cardtable.cli.ui import QuitGame
from cardtable.core import registry
from cardtable.core.game import State
from cardtable.games.marshmallow_test import MarshmallowTest
from tests.fixtures.plugin import NAME as FIXTURE
from tests.fixtures.plugin import registered

from .plugin_manifest import only_plugin

runner = CliRunner()


class PlainMarshmallow(MarshmallowTest):
    """Marshmallow Test's rules as a plugin game of its own name."""

    name = "plain-marshmallow"


PLAIN = dataclasses.replace(
    registry.manifest("marshmallow-test"),
    name=PlainMarshmallow.name,
    title="Plain Marshmallow",
    game=f"{__name__}:PlainMarshmallow",
    terminal_ui=None,
)


@pytest.fixture
def plain() -> Iterator[None]:
    with only_plugin(PLAIN):
        yield


@pytest.fixture
def fixture_game() -> Iterator[None]:
    with registered():
        yield


def first_choice(prompt: str) -> str:
    """The first legal move the plain UI's prompt lists: ``your move (A4, B1): ``."""
    found = re.fullmatch(r"your move \((.+?)[,)].*", prompt)
    assert found, prompt
    return found[1]


def play(game_name: str, read_line: Any, **options: Any) -> tuple[State, str]:
    game = registry.load(game_name, players=2, **options)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    state = play_game(
        game,
        human_seat=0,
        bots={
            1: make_bot(next(iter(registry.manifest(game_name).bots)), game, 1, random.Random(1))
        },
        names=["You", "Bot"],
        rng=random.Random(2),
        console=console,
        read_line=read_line,
    )
    out = console.file
    assert isinstance(out, io.StringIO)
    return state, out.getvalue()


@pytest.mark.usefixtures("fixture_game")
def test_help_rules_hint_and_quit_in_a_game_without_rules_or_hints() -> None:
    args = ["play", FIXTURE, "--bots", "lowest", "--seed", "4"]
    result = runner.invoke(app, args, input="help\nrules\nrules 1.2\nhint\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "cannot read" not in out and "no card" not in out  # none was read as a move
    assert "Type a move in Fixture Trick's notation; legal now: A4, B1, C3." in out
    assert "Commands: help, quit." in out  # it offers neither rules nor hints
    assert out.count("Fixture Trick has no rules text; type help.") == 2
    assert "Fixture Trick has no hints: it does not resample hidden cards." in out
    assert "Type hint" not in out  # no hints offered at the start either
    assert "Game stopped." in out and "Traceback" not in out


@pytest.mark.usefixtures("fixture_game")
def test_a_game_that_cannot_be_analyzed_ends_without_the_offer() -> None:
    asked = []

    def read_line(prompt: str) -> str:
        asked.append(prompt)
        return first_choice(prompt)

    state, out = play(FIXTURE, read_line)
    assert state.finished and "Game over." in out
    assert all(p.startswith("your move") for p in asked), asked  # no "Analyze …?" asked


@pytest.mark.usefixtures("plain")
def test_help_rules_and_hint_in_a_game_with_rules_and_resampling() -> None:
    typed = iter(["help", "rules", "rules MT-5.3", "rules 99", "hint"])

    def read_line(prompt: str) -> str:
        line = next(typed, None)
        if line is None:
            raise QuitGame
        return line

    state, out = play(PLAIN.name, read_line)
    assert not state.finished and "Game stopped." in out
    assert (
        "Commands: help, rules (or rules NUMBER) shows the rules,"
        " hint values each legal move from your view, quit." in out
    )
    assert "Sections: MT-1" in out and "cardtable rules plain-marshmallow" in out
    assert "**MT-5.3**" in out  # the rule itself, from the game's rules text (MT-5.3)
    assert "has no rule" in out
    assert "Hint: " in out and "(from your view only)" in out


@pytest.mark.usefixtures("plain")
def test_the_end_of_game_offer_in_the_plain_ui() -> None:
    asked = []

    def read_line(prompt: str) -> str:
        asked.append(prompt)
        if prompt.startswith("Analyze"):
            return "n"
        return first_choice(prompt)

    state, out = play(PLAIN.name, read_line, target=3)
    assert state.finished and "Game over." in out
    assert asked[-1] == "Analyze your decisions in this game? [y/N] "


@pytest.mark.usefixtures("fixture_game")
def test_a_refused_move_is_answered_with_the_engines_reason_and_rule() -> None:
    """Every card typed in turn: each one the seat may not play now is refused
    with the engine's words and rule (FT-1: not held; FT-2: must follow suit),
    its seat said as the table says it, never as "seat 0"."""
    cards = [f"{suit}{rank}" for suit in "ABC" for rank in range(1, 5)]
    typed = "\n".join(cards * 6) + "\n"
    result = runner.invoke(app, ["play", FIXTURE, "--bots", "lowest", "--seed", "4"], input=typed)
    out = result.output
    assert result.exit_code == 0, out
    refusals = [line for line in out.splitlines() if "is not legal now" in line]
    assert refusals and all(re.search(r"now: .+ \(FT-[12]\)$", line) for line in refusals)
    assert any("your seat does not hold" in line for line in refusals)
    assert "seat 0" not in out
    assert "{" not in out  # the view is read as lines, not printed as JSON
