"""What a new user types or hands over, answered with one clear line (issue 10:
items 1, 2, 3, 10 and the BOM of 14): huge numbers, a bot whose extra is
missing, a README example, and option errors worded alike in every game."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.cli.main import app
from cardtable.core.registry import manifest, manifests

ROOT = Path(__file__).resolve().parents[2]
HUGE = "9" * 5001
BUILT_IN = ("marshmallow-test", "myrummy-111")
runner = CliRunner()


def saved_record(tmp_path: Path, name: str = "myrummy-111", **replace: str) -> Path:
    """A finished 2-player game's record, with fields rewritten as raw JSON text."""
    state = cardtable.load(name, players=2, target=5).new_game(random.Random(1))
    rng = random.Random(2)
    while not state.finished:
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    text = json.dumps(state.record())
    for field, raw in replace.items():
        text = text.replace(f'"{field}": 5', f'"{field}": {raw}', 1)
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "name", [n for n, m in manifests().items() if any(o.name == "target" for o in m.options)]
)  # every game with a target
def test_replay_of_a_5001_digit_target_exits_2_naming_the_field(name: str, tmp_path: Path) -> None:
    path = saved_record(tmp_path, name, target=HUGE)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert "malformed record: options.target: a number of 5001 digits" in result.output
    assert "Traceback" not in result.output
    as_json = runner.invoke(app, ["replay", "--json", str(path)])
    assert json.loads(as_json.stdout)["error"]["message"].startswith("options.target:")


@pytest.mark.parametrize("command", ["play", "arena"])
def test_a_5001_digit_option_is_one_error_line(command: str) -> None:
    args = [command, "marshmallow-test", "-o", f"target={HUGE}"]
    if command == "arena":
        args += ["--bots", "random,random", "-q"]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert "error: --option target: a number of 5001 digits is too long" in result.output
    assert "Traceback" not in result.output


def test_a_5001_digit_symbol_count_in_a_file_is_one_error_line(tmp_path: Path) -> None:
    table = tmp_path / "deck.txt"
    table.write_text(" ".join(["1"] * 109 + [HUGE]), encoding="utf-8")
    result = runner.invoke(app, ["play", "myrummy-111", "--symbols", str(table)], input="quit\n")
    assert result.exit_code == 2, result.output
    assert "number 110: a number of 5001 digits is too long" in result.output


def test_a_record_with_a_byte_order_mark_replays(tmp_path: Path) -> None:
    path = saved_record(tmp_path)
    path.write_text(path.read_text(encoding="utf-8"), encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "every move is legal" in result.output


def test_a_bot_whose_extra_is_missing_is_one_error_line() -> None:
    # A fresh interpreter in which pyspiel cannot be imported, as without [rl].
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "sys.argv = ['cardtable', 'play', '--bots', 'openspiel-ismcts']\n"
        "from cardtable.cli.main import main; main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        input="quit\n",
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: --bots: bot 'openspiel-ismcts' needs the 'rl' extra")
    assert lines[0].endswith('python3 -m pip install -e ".[rl]"')


def test_the_readme_hand_sizes_example_plays_two_seats(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["play", "myrummy-111", "-o", "hand_sizes=[12,14]", "--save", str(save)]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    options = json.loads(save.read_text())["options"]
    assert options["players"] == 2 and options["hand_sizes"] == [12, 14]


@pytest.mark.parametrize("name", list(manifests()))
def test_players_defaults_to_the_games_own_in_the_api(name: str) -> None:
    assert cardtable.load(name).num_players == manifest(name).default_players
    # so a bad option is reported as itself, not as a missing 'players'
    with pytest.raises(cardtable.OptionError, match=r"^option 'target'"):
        cardtable.load(name, target=0)


def test_myrummy_takes_its_players_from_a_hand_sizes_list() -> None:
    assert cardtable.load("myrummy-111", hand_sizes=[12, 13, 14, 12]).num_players == 4
    with pytest.raises(cardtable.OptionError, match=r"^option 'hand_sizes'"):
        cardtable.load("myrummy-111", players=3, hand_sizes=[12, 14])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 1}, "option 'players': must be an integer from 2 to 5, got 1"),
        ({"players": True}, "option 'players': must be an integer from 2 to 5, got True"),
        ({"target": 0}, "option 'target': must be an integer from 1 to 500, got 0"),
        ({"target": "10"}, "option 'target': must be an integer from 1 to 500, got '10'"),
        ({"bogus": 1}, "option 'bogus': unknown option; options are players, "),
    ],
)
def test_every_game_words_the_same_option_error_the_same_way(
    options: dict[str, object], message: str
) -> None:
    """The built-in games (a plugin's ranges are its own: conformance checks
    that it refuses past each maximum)."""
    for name in BUILT_IN:
        with pytest.raises(cardtable.OptionError) as info:
            cardtable.load(name, **options)
        assert str(info.value).startswith(message), (name, str(info.value))


def test_play_help_shows_each_games_player_default() -> None:
    result = runner.invoke(app, ["play", "--help"])
    flat = " ".join(result.output.replace("│", " ").split())
    for game in manifests().values():
        players = f"{min(game.players)} to {max(game.players)}"
        assert f"{game.name} {players} (default {game.default_players})" in flat
