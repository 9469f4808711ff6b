"""Rigged Table, the balance lab's test game, is registered for every test here
(as a plugin, so the lab is also shown to work for a game it was not built with)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fixtures.plugin import registered  # noqa: E402

RIGGED = Path(__file__).resolve().parent / "rigged_table"


@pytest.fixture(autouse=True, scope="package")
def rigged_table() -> Iterator[str]:
    with registered(RIGGED, "rigged-table", "rigged_table"):
        yield "rigged-table"
