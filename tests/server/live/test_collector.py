"""The cycle collector of a started server: frozen heap, spaced collections.

``settle_heap`` changes the interpreter it runs in, so it runs in a child
interpreter here; the app's wiring is checked with the function replaced.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.server import app as app_module
from cardtable.server.live.collector import SERVER_THRESHOLDS
from tests.server.helpers import running, sqlite_url

CHILD = """
import gc, json, weakref
from cardtable.server.live.collector import settle_heap

before = gc.get_freeze_count()
frozen = settle_heap()

class Node:
    pass

# A reference cycle made after settling: reference counting cannot free it,
# so only the collector can, and must still do so.
a, b = Node(), Node()
a.other, b.other = b, a
freed = []
weakref.finalize(a, freed.append, True)
del a, b
gc.collect()
print(json.dumps({"before": before, "frozen": frozen, "after": gc.get_freeze_count(),
                  "threshold": gc.get_threshold(), "cycle_freed": freed == [True]}))
"""


def test_settling_freezes_what_is_alive_and_still_collects_new_cycles() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True, timeout=60
    )
    seen = json.loads(out.stdout)
    assert seen["before"] == 0
    # Everything the import made (modules, functions, classes) is frozen.
    assert seen["frozen"] == seen["after"] > 10_000
    assert tuple(seen["threshold"]) == SERVER_THRESHOLDS
    assert seen["cycle_freed"]


@pytest.mark.parametrize("settle", [True, False])
def test_the_app_settles_its_heap_once_started_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settle: bool
) -> None:
    calls: list[str] = []

    def settled() -> int:
        calls.append("settled")
        return 0

    monkeypatch.setattr(app_module, "settle_heap", settled)
    with running(sqlite_url(tmp_path), settle_heap=settle) as server:
        assert calls == (["settled"] if settle else [])  # at start, before any request
        server.create("marshmallow-test", ["human", "easy"])
    # Only once (a test's app leaves the interpreter of the test run alone).
    assert calls == (["settled"] if settle else [])
