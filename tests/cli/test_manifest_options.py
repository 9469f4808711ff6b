"""Options read from files come from the games' manifests, not from the
command line's code (issue 8): a plugin game's ``from_file`` option becomes a
``--<option> FILE`` of ``play`` and ``arena`` with no change to cli/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.core.manifest import GameManifest, OptionHelp
from cardtable.core.numbers import parse_int

from .plugin_manifest import only_plugin

runner = CliRunner()


def read_target(path: Path) -> int:
    return parse_int(Path(path).read_text(encoding="utf-8"), "target")


PLUGIN = GameManifest(
    name="target-from-file",
    title="Target From File",
    game="cardtable.games.marshmallow_test:MarshmallowTest",
    players=(2, 3, 4, 5),
    default_players=4,
    options=(
        OptionHelp("players", "2 to 5"),
        OptionHelp("target", "the points that end the game", from_file=f"{__name__}:read_target"),
    ),
)


@pytest.fixture
def plugin() -> Iterator[None]:
    with only_plugin(PLUGIN):
        yield


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.mark.usefixtures("plugin")
@pytest.mark.parametrize("command", ["play", "arena"])
def test_a_plugins_file_option_is_offered(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "--target FILE Target From File: read from FILE, the points that end the game" in out
    assert "target-from-file: -o players, -o target, --target FILE" in out
    assert "--symbols FILE" in out  # the built-in game's own stays


@pytest.mark.usefixtures("plugin")
def test_a_plugins_file_option_is_read_by_its_reader(tmp_path: Path) -> None:
    (tmp_path / "target.txt").write_text("3\n", encoding="utf-8")
    save = tmp_path / "game.json"
    args = ["play", "target-from-file", "--target", str(tmp_path / "target.txt")]
    result = runner.invoke(app, [*args, "--watch", "--bots", "random", "--save", str(save)])
    assert result.exit_code == 0, result.output
    record = json.loads(save.read_text())
    assert record["options"]["target"] == 3 and record["result"]["finished"]


@pytest.mark.usefixtures("plugin")
def test_a_file_option_of_another_game_is_refused() -> None:
    result = runner.invoke(app, ["play", "marshmallow-test", "--target", "x.txt"])
    assert result.exit_code == 2
    assert "error: --target is an option of target-from-file only" in result.output


def test_symbols_comes_from_the_manifest_and_keeps_working(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(" ".join(["2"] * 110), encoding="utf-8")
    save = tmp_path / "game.json"
    # the option before the game, as click allows for any option
    args = ["play", "--symbols", str(deck), "myrummy-111", "-p", "2", "--save", str(save)]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert json.loads(save.read_text())["options"]["symbols"] == [2] * 110
    arena = ["arena", "myrummy-111", "-b", "random,random", "-n", "1", "-q", "--json"]
    result = runner.invoke(app, [*arena, "--symbols", str(deck)])
    assert result.exit_code == 0, result.output
