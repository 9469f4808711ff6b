"""A game published as its own package plays in the arena, in worker processes too.

The plugin is a directory put on ``sys.path`` holding a package and its
``dist-info`` with a ``cardtable.games`` entry point, as ``pip install`` would
leave it. Workers are started with ``spawn``: they inherit ``sys.path`` and
find the plugin through the entry point, as the parent does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.arena import run_arena
from cardtable.core import registry

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "plugin-trick"

# A game class of the plugin's own: the built-in trick game under another name
# is enough here; what is tested is how the arena finds it.
PACKAGE = """
from cardtable.core.manifest import GameManifest
from cardtable.games.marshmallow_test import MarshmallowTest


class PluginTrick(MarshmallowTest):
    name = "plugin-trick"


MANIFEST = GameManifest(
    name="plugin-trick",
    title="Plugin trick",
    game="ct_plugin_trick:PluginTrick",
    players=(2, 3, 4, 5),
    default_players=2,
)
"""


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Path:
    (tmp_path / "ct_plugin_trick").mkdir()
    (tmp_path / "ct_plugin_trick" / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    info = tmp_path / "ct_plugin_trick-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: ct-plugin-trick\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINT_GROUP}]\n{PLUGIN} = ct_plugin_trick:MANIFEST\n", encoding="utf-8"
    )
    return tmp_path


@pytest.fixture
def plugin_on_path(plugin_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(plugin_dir))
    registry.refresh()
    yield
    monkeypatch.undo()
    registry.refresh()


@pytest.mark.usefixtures("plugin_on_path")
def test_spawned_workers_find_a_plugin_game() -> None:
    assert PLUGIN in registry.game_names()
    one = run_arena(PLUGIN, ["random", "random"], games=4, seed=3, options={"players": 2})
    two = run_arena(PLUGIN, ["random", "random"], games=4, seed=3, options={"players": 2}, jobs=2)
    assert [e.games for e in two.stats.entries] == [4, 4]
    assert [r.scores for _, r in two.played] == [r.scores for _, r in one.played]


def test_the_arena_command_plays_a_plugin_game_with_two_jobs(plugin_dir: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(plugin_dir)])}
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "arena", PLUGIN, "--bots", "random,random",
         "--games", "4", "--seed", "1", "--jobs", "2", "--json", "--quiet"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["game"] == PLUGIN and results["games"] == 4
