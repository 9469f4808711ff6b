"""``cardtable conformance GAME`` (issue 33, part 1): the conformance suite
as a command a game's author runs against an installed game.

One line per promise (a mark, the promise in words, its section of
docs/conformance.md); exit 0 when all hold, 1 when one breaks (saying the
player count, seed and decision where it broke, and why), 2 for bad
arguments, never a traceback.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.conformance import PROMISES
from cardtable.core.manifest import BotEntry, GameManifest, OptionHelp, resolve
from tests.cli.plugin_manifest import only_plugin
from tests.fixtures import plugin

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
BUILT_IN = ("marshmallow-test", "myrummy-111")


def promise_lines(output: str) -> dict[str, str]:
    """Each promise's line by its anchor."""
    lines = {}
    for line in output.splitlines():
        found = re.search(r"docs/conformance\.md#([\w-]+)", line)
        if found:
            lines[found.group(1)] = line
    return lines


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_built_in_game_keeps_every_promise(name: str) -> None:
    result = runner.invoke(app, ["conformance", name, "--games", "1", "--seed", "5"])
    assert result.exit_code == 0, result.output
    lines = promise_lines(result.output)
    assert list(lines) == [p.anchor for p in PROMISES]  # one line each, in order
    for promise in PROMISES:
        assert lines[promise.anchor].startswith("✓ " + promise.words), lines[promise.anchor]


def test_the_plugin_game_keeps_its_promises_and_names_those_it_does_not_make() -> None:
    with plugin.registered():
        result = runner.invoke(app, ["conformance", plugin.NAME])
    assert result.exit_code == 0, result.output
    lines = promise_lines(result.output)
    assert lines["legal-moves"].startswith("✓ ")
    # Fixture Trick has no determinize: those promises are named, marked, not checked.
    assert (
        lines["resampling-uniform"].startswith("- ")
        and "no determinize" in lines["resampling-uniform"]
    )
    assert lines["openspiel-deck"].startswith("✓ ")  # it has a layout


# Broken games, made from Fixture Trick: one reads every move's notation
# back as the first card; one takes any number of rounds.
MISREAD = "misread-trick"


def broken_manifest(game: str, *options: OptionHelp) -> GameManifest:
    return GameManifest(
        name=MISREAD,
        title="Misread Trick",
        game=f"{__name__}:{game}",
        players=(2, 3),
        default_players=2,
        options=(OptionHelp("players", "2 or 3", default=2), *options),
        bots={"lowest": BotEntry(f"{plugin.PACKAGE}.bots:LowestBot", "its lowest card")},
    )


@pytest.fixture
def broken_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``MisreadTrick`` and ``EndlessTrick`` in this module, while Fixture Trick is installed."""
    with plugin.registered():
        base: Any = resolve(f"{plugin.PACKAGE}.game:TrickGame")

        def parse_move(self: Any, text: str) -> Any:
            return self.move_from_index(0)

        def take_any_rounds(self: Any, **options: Any) -> None:
            rounds = options.pop("rounds", 2)
            base.__init__(self, **options)
            self.options = dataclasses.replace(self.options, rounds=rounds)

        module = sys.modules[__name__]
        misread = type("MisreadTrick", (base,), {"parse_move": parse_move, "name": MISREAD})
        endless = type("EndlessTrick", (base,), {"__init__": take_any_rounds, "name": MISREAD})
        monkeypatch.setattr(module, "MisreadTrick", misread, raising=False)
        monkeypatch.setattr(module, "EndlessTrick", endless, raising=False)
        yield


@pytest.fixture
def misread(broken_games: None) -> Iterator[None]:
    rounds = OptionHelp("rounds", "rounds to play", default=2, maximum=10)
    with only_plugin(broken_manifest("MisreadTrick", rounds)):
        yield


def test_a_broken_promise_exits_1_saying_where_and_why(misread: None) -> None:
    result = runner.invoke(app, ["conformance", MISREAD, "--games", "2"])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # no traceback
    lines = result.output.splitlines()
    (broken,) = [i for i, line in enumerate(lines) if line.startswith("✗ ")]
    assert "docs/conformance.md#legal-moves" in lines[broken]
    # The first game it breaks in: two players, the first seed, the first decision.
    assert lines[broken + 1].strip().startswith("at 2 players, seed 0, decision 0: move "), lines
    assert "reads back from its notation as" in lines[broken + 1]
    assert promise_lines(result.output)["clones"].startswith("✓ ")  # the rest still checked
    assert "1 promise(s) broken" in result.output


def test_the_seed_moves_where_a_promise_is_checked(misread: None) -> None:
    result = runner.invoke(app, ["conformance", MISREAD, "--games", "1", "--seed", "7"])
    assert result.exit_code == 1
    assert "at 2 players, seed 7, decision 0:" in result.output


@pytest.mark.parametrize("maximum", [None, 10])
def test_an_integer_option_without_a_maximum_breaks_a_promise(
    broken_games: None, maximum: int | None
) -> None:
    """docs/decisions.md: every numeric option has a maximum, so games stay
    finite; a stated one the game does not enforce breaks the promise too."""
    rounds = OptionHelp("rounds", "rounds to play", default=2, maximum=maximum)
    with only_plugin(broken_manifest("EndlessTrick", rounds)):
        result = runner.invoke(app, ["conformance", MISREAD, "--games", "1"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    (broken,) = [i for i, line in enumerate(lines) if line.startswith("✗ ")]
    assert "docs/conformance.md#option-maxima" in lines[broken]
    says = "takes 1000000000 and states no maximum" if maximum is None else "takes 11 > its maximum"
    assert lines[broken + 1].strip() == f"at option rounds: {says}", lines


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["chess"],
            "unknown game 'chess'; known games: marshmallow-test, myrummy-111",
        ),  # and any plugin
        (["marshmallow-test", "--games", "0"], "--games 0: give a number from 1 to 1000"),
        (["marshmallow-test", "--games", "1001"], "--games 1001: give a number from 1 to 1000"),
        (["marshmallow-test", "--seed", "-1"], "--seed -1: give a seed of 0 or more"),
    ],
)
def test_bad_arguments_exit_2_with_one_error_line(args: list[str], says: str) -> None:
    result = runner.invoke(app, ["conformance", *args])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # no traceback
    assert result.output.strip().startswith(f"error: {says}"), result.output


def test_every_promise_has_its_section_in_the_docs() -> None:
    """docs/conformance.md states each promise under its own anchor, which the lines link to."""
    text = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    anchors = re.findall(r'<a id="([\w-]+)"></a>', text)
    assert anchors == [p.anchor for p in PROMISES]


def test_every_promise_is_a_test_of_the_conformance_suite() -> None:
    """tests/conformance runs each promise (by its anchor) through the same checks."""
    named = []
    for path in sorted((ROOT / "tests" / "conformance").glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "holds":
                named.append(ast.literal_eval(node.args[1]))
    assert sorted(named) == sorted(p.anchor for p in PROMISES)
