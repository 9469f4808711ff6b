"""An option over its maximum is refused alike by ``cardtable play -o`` and by
``cardtable replay`` of a record, in the game's own words (MT-10)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

import cardtable
from cardtable.cli.main import app

runner = CliRunner()
# The game's own sentence (cardtable/games/marshmallow_test/options.py); the server
# test tests/server/guard/test_abuse_limits.py expects the same words.
WORDS = "must be an integer from 1 to 500, got 999999999"


def test_play_refuses_a_target_over_the_maximum() -> None:
    args = ["play", "marshmallow-test", "-o", "target=999999999"]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert f"error: option 'target': {WORDS}" in result.output
    assert "Traceback" not in result.output


def test_replay_refuses_a_record_whose_target_is_over_the_maximum(tmp_path: Path) -> None:
    state = cardtable.load("marshmallow-test", players=3, target=2).new_game(random.Random(1))
    record = state.record()
    record["options"]["target"] = 999999999
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert f"malformed record: options.target: {WORDS}" in result.output
