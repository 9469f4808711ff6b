"""The command line as a Unix user meets it (issue 10, items 12 and 14):
a closed pipe, --version, help without <bool>, and --save saying what it wrote."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli.commands import PIPE_CLOSED
from cardtable.cli.main import app
from cardtable.core.compiled import is_compiled
from cardtable.core.replay import replay
from cardtable.games.marshmallow_test import state as marshmallow_state

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def long_record(tmp_path: Path) -> Path:
    """A record whose --trace output is far larger than any pipe's buffer."""
    state = cardtable.load("marshmallow-test", players=4, target=500).new_game(random.Random(5))
    rng = random.Random(6)
    while not state.finished:
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    path = tmp_path / "long.json"
    path.write_text(json.dumps(state.record()), encoding="utf-8")
    return path


def test_a_closed_pipe_ends_replay_quietly_with_141(tmp_path: Path) -> None:
    path = long_record(tmp_path)
    trace = replay(path.read_text(), trace=True).trace
    # far beyond a pipe buffer (64 KiB on Linux), so the writer is still writing
    assert sum(len(json.dumps(line)) for line in trace) > 4 * 65536
    process = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "replay", "--trace", str(path)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    first = json.loads(process.stdout.readline())  # what `head -n 1` reads
    process.stdout.close()  # ... before `head` goes away
    err = process.stderr.read()
    assert process.wait(timeout=120) == PIPE_CLOSED
    assert first["round"] == 1 and first["move"] == 1
    assert err == b""


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    compiled = "yes" if is_compiled(marshmallow_state) else "no"
    assert result.stdout == f"cardtable {cardtable.__version__} (compiled: {compiled})\n"


@pytest.mark.parametrize("command", [[], ["play"], ["replay"], ["arena"], ["bots"], ["rules"]])
def test_help_shows_no_type_beside_flags(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert "--help" in result.output
    assert "<bool>" not in result.output


def test_arena_save_says_what_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "run"
    chart = tmp_path / "chart.png"
    args = ["arena", "marshmallow-test", "-b", "random,random", "-n", "2", "--seed", "1"]
    result = runner.invoke(app, [*args, "--save", str(out), "--chart", str(chart), "-q"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert (
        f"wrote 2 records (game-00001.json to game-00002.json), results.json and the chart"
        f" results.png to {out}" in flat
    )
    assert f"wrote the chart to {chart}" in flat
    assert sorted(p.name for p in out.iterdir()) == [
        "game-00001.json",
        "game-00002.json",
        "results.json",
        "results.png",
    ]


@pytest.mark.parametrize("value", ["0", "-5", "inf", "nan"])
def test_arena_budget_must_be_a_finite_positive_time(value: str) -> None:
    args = ["arena", "marshmallow-test", "-b", "pimc,random", "--budget-ms", value, "-q"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "give a positive time" in result.output
