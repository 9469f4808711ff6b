"""``cardtable new-game NAME`` (issue 33, "the contract written down"): the
skeleton of a game package, written from the template shipped in cardtable
(``cardtable/templates/new_game``), that installs, is listed, plays and keeps
every promise of ``cardtable conformance`` before its author changes a line
(docs/plugins.md#new-game). A bad name and an existing directory are refused
with exit 2 and one clear line, and nothing is written.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.cli.new_game_cmd import Words
from cardtable.core.registry import manifest
from cardtable.core.rulebook import rulebook
from tests.fixtures.plugin import registered
from tests.server.helpers import running, sqlite_url

runner = CliRunner()


def test_the_skeleton_installs_is_listed_plays_and_keeps_every_promise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(app, ["new-game", "ct-skeleton-game"])
    assert made.exit_code == 0, made.output
    project = tmp_path / "ct_skeleton_game"  # the default: ./NAME with '_' for '-'
    package = project / "ct_skeleton_game"
    assert (project / "README.md").is_file() and (package / "rules.md").is_file()
    assert not list(project.rglob("*.tmpl")) and "{{" not in (package / "state.py").read_text()

    # The entry point and package data a real install reads.
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    points = meta["project"]["entry-points"]["cardtable.games"]
    assert points == {"ct-skeleton-game": "ct_skeleton_game.manifest:MANIFEST"}
    shipped = meta["tool"]["setuptools"]["package-data"]["ct_skeleton_game"]
    assert "rules.md" in shipped and "web/*.json" in shipped

    # Installed as tests/fixtures/plugin.py installs a third-party game.
    with registered(package, "ct-skeleton-game", "ct_skeleton_game"):
        listed = runner.invoke(app, ["games"])
        assert listed.exit_code == 0 and "ct-skeleton-game" in listed.output
        assert "-o hand_size=" in listed.output

        played = runner.invoke(
            app, ["play", "ct-skeleton-game", "--watch", "--bots", "heuristic", "--seed", "2"]
        )
        assert played.exit_code == 0, played.output
        assert "Game over." in played.output and "Winner" in played.output

        checked = runner.invoke(app, ["conformance", "ct-skeleton-game"])
        assert checked.exit_code == 0, checked.output
        assert "every promise holds" in checked.output

        # rules.md reads as `cardtable rules GAME N` reads it (docs/plugins.md#rules-text).
        book = rulebook(manifest("ct-skeleton-game"))
        assert book.prefix == "CS" and book.rule("2.2").startswith("**CS-2.2**")


@pytest.mark.parametrize(
    "name", ["Big-Game", "1game", "my--game", "my game", "game-", "-game", "über", "class"]
)
def test_a_bad_name_is_refused_and_nothing_is_written(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["new-game", "--", name])
    assert result.exit_code == 2, result.output
    assert f"error: {name!r} is not a game name" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("marshmallow-test", "a game of that name is installed"),
        ("json", "a module named 'json' is importable already"),
    ],
)
def test_a_taken_name_is_refused(
    name: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["new-game", name])
    assert result.exit_code == 2 and why in result.stderr, result.output
    assert list(tmp_path.iterdir()) == []


def test_an_existing_directory_is_never_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "keep.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["new-game", "ct-other-game", "--dir", str(target)])
    assert result.exit_code == 2
    assert f"{target}: exists already" in result.stderr
    assert [p.name for p in target.iterdir()] == ["keep.txt"]


def test_the_words_of_a_name() -> None:
    """The title and rule letters the template is filled with."""
    assert Words.of("high-card") == Words(
        "high-card", "high_card", "High Card", "HC", "cardtable-high-card"
    )
    assert (Words.of("nim").prefix, Words.of("a1").prefix, Words.of("x_2_y").prefix) == (
        "NI",
        "AG",
        "XY",
    )


def test_a_game_without_a_board_words_its_options_in_the_lobby(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The skeleton's web/i18n.<lang>.json name its options for the lobby's
    set-up form (docs/plugins.md#option-labels); the generic board draws it."""
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["new-game", "ct-worded-game"]).exit_code == 0
    package = tmp_path / "ct_worded_game" / "ct_worded_game"
    catalogs = {
        lang: json.loads((package / "web" / f"i18n.{lang}.json").read_text(encoding="utf-8"))
        for lang in ("en", "de", "fr")
    }
    with registered(package, "ct-worded-game", "ct_worded_game"):
        options = [o.name for o in manifest("ct-worded-game").options if o.name != "players"]
        for lang, words in catalogs.items():  # every option worded in every language
            assert set(words) == set(catalogs["en"]), lang
            assert all(f"option.{name}" in words for name in options), lang
        with running(sqlite_url(tmp_path)) as server:
            games = {g["name"]: g for g in server.client.get("/api/games").json()}
            mine = games["ct-worded-game"]
            assert mine["board"] == "/static/generic-board.js"
            assert mine["words"] == "/games/ct-worded-game/"
            assert all(games[n]["words"] is None for n in ("marshmallow-test", "myrummy-111"))
            german = server.client.get("/games/ct-worded-game/i18n.de.json")
            assert german.status_code == 200
            assert german.json()["option.hand_size"] == "Handkarten"
            for other in ("board.js", "manifest.py", "i18n.en.js"):  # its words only
                assert server.client.get(f"/games/ct-worded-game/{other}").status_code == 404
