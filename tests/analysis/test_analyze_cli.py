"""``cardtable analyze`` end to end: what it prints, and the records it refuses like ``replay``."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli.main import app
from tests.analysis.conftest import DATA, play, to_text

runner = CliRunner()
MT = str(DATA / "mt_lets_the_opponent_out.json")


def test_text_report_names_the_blunder_and_draws_the_table_as_the_seat_saw_it() -> None:
    result = runner.invoke(app, ["analyze", MT, "--seat", "0", "--budget", "0.05"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Ann (seat 0): accuracy" in out
    assert "Bob (seat 1)" not in out  # only the seat asked for
    assert re.search(r"\b\d+ best, .*\d+ blunder\b", out)
    assert "round 1, move 20: played Y4 (blunder); better Y12: +100.0% ±0.1 win chance" in out
    # The costliest decision is drawn by the game's terminal interface, from Ann's view.
    drawn = out[out.index("round 1, move 20: played Y4") :]
    assert "Your hand:" in drawn and "Y4" in drawn and "Trick (lead yellow): Bob Y10" in drawn
    assert "hindsight" in out


def test_json_report_holds_every_decision_with_values_and_errors() -> None:
    result = runner.invoke(app, ["analyze", MT, "--json", "--budget", "0.02", "--seed", "3"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["seed"] == 3 and doc["game"] == "marshmallow-test"
    assert [p["seat"] for p in doc["players"]] == [0, 1]
    seats = {d["seat"] for d in doc["decisions"]}
    assert seats == {0, 1}
    last = [d for d in doc["decisions"] if d["seat"] == 0][-1]
    assert last["played"] == {"play": "Y4"} and last["class"] == "blunder"
    assert last["fair"]["best"] == [{"play": "Y12"}]
    assert last["fair"]["loss"]["win"]["mean"] == pytest.approx(1.0)
    for alternative in last["fair"]["alternatives"]:
        assert set(alternative) == {"moves", "samples", "win", "points", "loss"}
        assert 0.0 <= alternative["win"]["mean"] <= 1.0
    forced = [d for d in doc["decisions"] if d["forced"]]
    assert forced and all(d["class"] is None and "fair" not in d for d in forced)


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        ("{not json", 2, "malformed record"),
        ('{"format": "cardtable-record/1"}', 2, "malformed record: game: missing (required)"),
    ],
)
def test_malformed_records_are_refused_as_replay_refuses_them(
    tmp_path: Path, content: str, code: int, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    analyzed = runner.invoke(app, ["analyze", str(path)])
    replayed = runner.invoke(app, ["replay", str(path)])
    assert analyzed.exit_code == replayed.exit_code == code
    assert message in analyzed.stderr
    assert analyzed.stderr == replayed.stderr


def test_rule_breaks_are_refused_with_the_replay_message(tmp_path: Path) -> None:
    record = json.loads(Path(MT).read_text())
    record["rounds"][0]["moves"][1] = {"seat": 1, "play": "Y7"}  # must follow red (MT-5.3)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record))
    analyzed = runner.invoke(app, ["analyze", str(path), "--json"])
    replayed = runner.invoke(app, ["replay", str(path), "--json"])
    assert analyzed.exit_code == replayed.exit_code == 1
    assert analyzed.stdout == replayed.stdout
    assert "MT-5.3" in analyzed.stdout


def test_a_missing_file_and_bad_options_get_one_line_errors(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["analyze", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    bad_seat = runner.invoke(app, ["analyze", MT, "--seat", "5"])
    assert bad_seat.exit_code == 2 and "--seat 5: this game has seats 0 to 1" in bad_seat.stderr
    bad_budget = runner.invoke(app, ["analyze", MT, "--budget", "0"])
    assert bad_budget.exit_code == 2 and "--budget" in bad_budget.stderr
    assert "Traceback" not in missing.output + bad_seat.output + bad_budget.output


def test_records_from_stdin_and_of_myrummy_are_analyzed() -> None:
    text = to_text(play("myrummy-111", 2, seed=1, moves=6, rounds=1))
    result = runner.invoke(app, ["analyze", "-", "--budget", "0.01", "--json"], input=text)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert len(doc["decisions"]) == 6


def test_a_plugin_game_without_resampling_is_refused_in_words(tmp_path: Path) -> None:
    from tests.fixtures.plugin import NAME, registered

    with registered():
        game = cardtable.load(NAME, players=2)
        state = game.new_game(random.Random(1))
        while not state.finished:
            state.apply(state.legal_moves()[0])
        path = tmp_path / "plugin.json"
        path.write_text(json.dumps(state.record()))
        replayed = runner.invoke(app, ["replay", str(path)])
        analyzed = runner.invoke(app, ["analyze", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert analyzed.exit_code == 2
    assert f"{NAME} does not offer resampling of hidden cards" in analyzed.stderr
    assert "Traceback" not in analyzed.output
