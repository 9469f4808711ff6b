"""A manifest made in a test, registered as the one plugin game while asked.

The registry finds plugins through ``importlib.metadata.entry_points``; this
swaps that for one entry point that loads ``manifest`` (so a test needs no
installed distribution), and makes the registry look again on the way in and
out, so the rest of the suite sees only the built-in games.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from cardtable.core import registry
from cardtable.core.manifest import GameManifest


@dataclass(frozen=True)
class EntryPoint:
    """What the registry reads of an ``importlib.metadata.EntryPoint``."""

    manifest: GameManifest

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def value(self) -> str:
        return f"{__name__}:{self.manifest.name}"

    def load(self) -> GameManifest:
        return self.manifest


@contextmanager
def only_plugin(manifest: GameManifest) -> Iterator[None]:
    """``manifest`` is the one plugin game the registry knows inside."""
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(registry, "entry_points", lambda group: [EntryPoint(manifest)])
            registry.refresh()
            yield
    finally:
        registry.refresh()
