"""The games' terminal UIs load the small UI protocol only (issue 19): importing
one runs neither the game loop (``cli.play``) nor the hints and analysis it
pulls in, nor numpy. Checked in a fresh interpreter, whose ``sys.modules``
holds exactly what the imports ran."""

from __future__ import annotations

import json
import subprocess
import sys

from cardtable.core.registry import game_names, manifest

LOADED = """
import importlib, json, sys
for part in sys.argv[1:]:
    importlib.import_module(part)
print(json.dumps(sorted(sys.modules)))
"""


def test_a_games_terminal_ui_imports_only_the_ui_protocol() -> None:
    parts = [
        m.terminal_ui.partition(":")[0]
        for m in map(manifest, game_names())
        if m.terminal_ui is not None
    ]
    assert len(parts) >= 2  # both built-in games have one
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *parts], capture_output=True, text=True, check=True
    )
    loaded = set(json.loads(done.stdout))
    assert "cardtable.cli.ui" in loaded
    heavy = {"cardtable.cli.play", "cardtable.cli.hint", "cardtable.analysis", "numpy"}
    assert not heavy & loaded, sorted(heavy & loaded)
