"""The resampling plugin game (``fixture-trick-resampled``: no heuristic, no
search bot, no terminal UI of its own) is playable in the terminal at every
level: each seats the generic search bot, and ``PlainUI`` draws the game.
FT-1: two rounds of three cards for each of two players."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from tests.bots.plugin import NAME, registered

runner = CliRunner()
CARDS = [f"{suit}{rank}" for suit in "ABC" for rank in range(1, 5)]


@pytest.fixture(autouse=True)
def plugin_games() -> Iterator[None]:
    with registered():
        yield


def final_rounds(output: str) -> int:
    """The rounds of the score sheet ``play`` shows after "Game over."
    (PlainUI draws the final view); a person is asked about analysis after it."""
    assert "Game over." in output, output[-2000:]
    end = output.split("Game over.", 1)[1]
    assert "Winner" in end, end
    return sum(line.startswith("  round ") for line in end.splitlines())


@pytest.mark.parametrize("bots", ["easy,medium", "hard"])
def test_bots_at_every_level_play_a_whole_game_to_watch(bots: str) -> None:
    result = runner.invoke(app, ["play", NAME, "--watch", "--bots", bots, "--seed", "4"])
    assert result.exit_code == 0, result.output
    levels = bots.split(",") * (2 // len(bots.split(",")))
    for level in levels:  # every seat moved, under its level's name (FT-1: 3 cards a round)
        assert sum(f"({level}): " in line for line in result.output.splitlines()) >= 3
    assert final_rounds(result.output) == 2


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_person_plays_a_whole_game_against_each_level(level: str) -> None:
    # Every card named in turn, over and over: the unplayable ones are refused
    # in words and asked again (FT-2), so the person's moves always end.
    typed = "\n".join(CARDS * 6) + "\n"
    result = runner.invoke(app, ["play", NAME, "--bots", level, "--seed", "4"], input=typed)
    assert result.exit_code == 0, result.output
    assert f"({level}): " in result.output
    assert final_rounds(result.output) == 2
