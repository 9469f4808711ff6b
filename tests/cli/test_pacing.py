"""Pacing in the terminal (issue 10, item 13): a pause after each bot move and
a wait for Enter at each round's end, so nothing arrives in one burst.
No clock is read: the loop is handed a ``sleep`` that only records."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

import cardtable
from cardtable.bots import make_bot
from cardtable.cli.main import app
from cardtable.cli.play import play_game
from cardtable.core.game import State
from cardtable.core.registry import manifests

runner = CliRunner()


def watch(
    name: str, prompts: list[str], answer: str, sleeps: list[float], pause: bool
) -> tuple[State, str]:
    # A short game: to 10 points where the game plays to a target (else its default length).
    short = {"target": 10} if any(o.name == "target" for o in manifests()[name].options) else {}
    game = cardtable.load(name, players=2, **short)
    bots = {s: make_bot("random", game, s, random.Random(s)) for s in range(2)}
    out = io.StringIO()

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return answer

    state = play_game(
        game,
        human_seat=None,
        bots=bots,
        names=["Ada", "Bob"],
        rng=random.Random(4),
        console=Console(file=out, width=100),
        read_line=read_line,
        pace=0.25,
        pause_between_rounds=pause,
        sleep=sleeps.append,
    )
    return state, out.getvalue()


@pytest.mark.parametrize("name", list(manifests()))
def test_every_bot_move_is_paced_and_every_round_end_waits(name: str) -> None:
    prompts: list[str] = []
    sleeps: list[float] = []
    state, _ = watch(name, prompts, "", sleeps, pause=True)
    assert state.finished
    moves = sum(len(r["moves"]) for r in state.record()["rounds"])
    assert sleeps == [0.25] * moves
    # one wait between rounds, none after the last
    assert len(prompts) == state.round_number - 1 >= 1
    assert all("is over. Press Enter for the next round" in p for p in prompts)


def test_without_pauses_nothing_is_read() -> None:
    prompts: list[str] = []
    state, _ = watch("marshmallow-test", prompts, "", [], pause=False)
    assert state.finished and prompts == []


def test_quit_at_a_round_end_stops_the_game() -> None:
    prompts: list[str] = []
    state, out = watch("marshmallow-test", prompts, "quit", [], pause=True)
    assert not state.finished and len(prompts) == 1
    assert state.round_number == 2
    assert "Game stopped." in out


@pytest.mark.parametrize("value", ["-1", "inf", "nan", "9" * 400])
def test_pace_must_be_a_finite_number_of_seconds(value: str) -> None:
    result = runner.invoke(app, ["play", "--pace", value], input="quit\n")
    assert result.exit_code == 2
    assert "give a number of seconds, 0 or more" in result.output
