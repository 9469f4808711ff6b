"""``cardtable arena`` end to end: JSON, saved files, chart, and bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["arena", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_save_and_chart(tmp_path: Path) -> None:
    save, chart = tmp_path / "run", tmp_path / "chart.png"
    code, out, err = invoke(
        "marshmallow-test",
        "--bots",
        "heuristic,random,heuristic",
        "--games",
        "6",
        "--seed",
        "4",
        "--save",
        str(save),
        "--chart",
        str(chart),
        "--json",
        "--quiet",
    )
    assert code == 0, err
    results = json.loads(out)
    assert results["schema"] == "cardtable-arena/1"
    assert results["options"]["players"] == 3
    assert results["games"] == 6 and results["deals"] == 2 and results["seed"] == 4
    labels = [b["label"] for b in results["bots"]]
    assert labels == ["heuristic#1", "random", "heuristic#2"]
    assert sum(b["wins"] for b in results["bots"]) == pytest.approx(6)
    assert results["head_to_head"]["labels"] == labels
    assert json.loads((save / "results.json").read_text(encoding="utf-8")) == results
    for png in (save / "results.png", chart):
        assert png.read_bytes()[:8] == PNG_MAGIC
    games = sorted(save.glob("game-*.json"))
    assert len(games) == 6
    for path in games:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert sorted(record["players"]) == ["heuristic", "heuristic", "random"]
        assert cardtable.replay(record).exit_code == 0


def test_table_options_and_budget() -> None:
    code, out, err = invoke(
        "myrummy-111",
        "-b",
        "heuristic,random",
        "-n",
        "2",
        "--seed",
        "1",
        "-q",
        "-o",
        "rounds=1",
        "--budget-ms",
        "50",
        "--iterations",
        "10",
    )
    assert code == 0, err
    assert "heuristic" in out and "head to head" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess", "--bots", "random,random"], "unknown game 'chess'"),
        (["marshmallow-test", "--bots", "random,nobody"], "unknown bot 'nobody'"),
        (["marshmallow-test", "--bots", "random,random", "--games", "0"], "--games 0"),
        (["marshmallow-test", "--bots", "random,random", "-o", "target"], "KEY=VALUE"),
        (["marshmallow-test", "--bots", "random,random", "-o", "target=-3"], "target"),
        (["marshmallow-test", "--bots", "random,random", "-o", "colour=red"], "colour"),
        (["marshmallow-test", "--bots", "random,random", "--players", "3"], "2 bots for 3"),
        (["marshmallow-test", "--bots", "random"], "option 'players'"),
        (["marshmallow-test", "--bots", "random,random", "--jobs", "0"], "--jobs 0"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    code, out, err = invoke(*args, "-q")
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err
    assert len(err.strip().splitlines()) == 1, err


def test_save_onto_a_file_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a directory", encoding="utf-8")
    code, _, err = invoke("marshmallow-test", "--bots", "random,random", "--save", str(blocker))
    assert code == 2
    assert f"--save {blocker}" in err
    assert "Traceback" not in err


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if ray were not installed
    code, _, err = invoke("marshmallow-test", "--bots", "random,random", "--ray", "local", "-q")
    assert code == 2
    assert 'python3 -m pip install -e ".[ray]"' in err


def test_the_real_command_line_has_no_traceback() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cardtable", "arena", "marshmallow-test", "--bots", "random,x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "unknown bot 'x'" in result.stderr
    assert "Traceback" not in result.stderr
