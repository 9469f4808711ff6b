"""``cardtable balance`` end to end: the report files, and bad input refused in words."""

from __future__ import annotations

import base64
import itertools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_save_writes_json_html_and_hole_records(tmp_path: Path) -> None:
    save = tmp_path / "run"
    args = ["balance", "rigged-table", "-o", "mode=endless", "--max-decisions", "6"]
    code, out, err = invoke(*args, "-n", "3", "--seed", "2", "--save", str(save), "--json", "-q")
    assert code == 0, err
    results = json.loads(out)
    assert results["schema"] == "cardtable-balance/1"
    assert json.loads((save / "balance.json").read_text(encoding="utf-8")) == results
    assert f"wrote balance.json and report.html to {save}" in err
    holes = results["configs"][0]["holes"]
    assert holes["turn_limit"] == 3
    for hole in holes["games"]:
        record = json.loads((save / hole["record"]).read_text(encoding="utf-8"))
        assert record["format"] == "cardtable-record/1"
        assert record["result"]["finished"] is False
        assert sum(len(r["moves"]) for r in record["rounds"]) == 6
    html = (save / "report.html").read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "Rigged Table: balance" in html
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    assert len(images) >= 5
    assert all(base64.b64decode(image)[:8] == PNG_MAGIC for image in images)
    assert "no end after 6 decisions" in html


def test_terminal_report_names_every_question() -> None:
    code, out, err = invoke(
        "balance", "rigged-table", "--bots", "first,random", "-o", "mode=skill", "-n", "20", "-q"
    )
    assert code == 0, err
    for words in ("first mover wins", "decisions per game", "winner trailed", "branching, opening"):
        assert words in out
    assert "skill (wins per seat held" in out


def test_a_narrow_terminal_shows_every_configuration_heading_whole() -> None:
    """At 80 columns the summary splits into tables rather than cut a heading
    to "players=2…" or a figure to "[51.0–100.…": each configuration's
    options stand whole, one a line. The seed gives "100.0% [51.0–100.0]"
    in a third column, where counting characters instead of measuring the
    table had left it two characters short."""
    args = ["balance", "rigged-table", "-p", "2", "-p", "3", "--sweep", "rounds=1,2", "-n", "4"]
    args += ["--seed", "928144582102819372"]
    result = CliRunner().invoke(app, [*args, "-q"], terminal_width=80)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 80 and "…" not in result.stdout
    shown = set()
    for top, below in itertools.pairwise(lines):
        for players in re.finditer(r"players=\d", top):
            rounds = re.match(r"\s*(rounds=\d)", below[players.start() :])
            if rounds:
                shown.add(f"{players.group()} {rounds.group(1)}")
    assert shown == {f"players={p} rounds={r}" for p in (2, 3) for r in (1, 2)}


def error_line(*args: str) -> str:
    code, out, err = invoke(*args)
    assert code == 2, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.mark.parametrize(
    "option", [["-o", "target=ten"], ["-p", "9"], ["-o", "nonsense=1"], ["-o", "target"]]
)
def test_bad_options_get_the_same_line_as_play(option: list[str]) -> None:
    line = error_line("balance", "marshmallow-test", *option)
    assert line == error_line("play", "marshmallow-test", *option)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nogame"], "unknown game 'nogame'; known games:"),
        (["--sweep", "target"], "--sweep 'target': write it as KEY=V1,V2,…"),
        (["--sweep", "target=20,,30"], "--sweep target: an empty value"),
        (["--sweep", "target=20,20"], "--sweep target: a value is given twice"),
        (["--sweep", "target=20,ten"], "--sweep target='ten': option 'target':"),
        (["--sweep", "players=2,3"], "--sweep players: give the player counts with -p N"),
        (["-o", "target=30", "--sweep", "target=20,30"], "also set with -o"),
        (["--bots", "heuristic,nobot,random,random"], "--bots: unknown bot 'nobot'"),
        (["-p", "3", "-p", "4", "--bots", "random,random,random"], "players=4: --bots: 3 bots"),
        (["-n", "0"], "--games 0: play at least 1 game"),
        (["-j", "0"], "--jobs 0: use at least 1 job"),
        (["--max-decisions", "0"], "--max-decisions 0: allow at least 1 decision"),
    ],
)
def test_bad_input_is_refused_in_words(args: list[str], words: str) -> None:
    game = [] if args == ["nogame"] else ["marshmallow-test"]
    assert words in error_line("balance", *game, *args)


def test_a_save_dir_of_another_run_is_refused_in_words(tmp_path: Path) -> None:
    base = ["balance", "rigged-table", "-q", "--save", str(tmp_path), "--seed", "1"]
    assert invoke(*base, "-n", "2")[0] == 0
    assert "holds another run (it differs in games)" in error_line(*base, "-n", "3")


def test_an_interrupted_run_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("cardtable.cli.balance_cmd.run_balance", interrupted)
    code, _, err = invoke("balance", "rigged-table", "-q", "--save", str(tmp_path))
    assert code == 130
    assert f"the finished chunks are kept in {tmp_path}: run the same command again" in err
    code, _, err = invoke("balance", "rigged-table", "-q")
    assert code == 130 and "nothing counted (--save DIR keeps a run)" in err
