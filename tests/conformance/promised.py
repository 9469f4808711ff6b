"""One test per promise of :mod:`cardtable.conformance`, for one game.

The checks live in the package (``cardtable conformance GAME`` runs the same
code); a test here only runs one and fails with what the check found.
"""

from __future__ import annotations

import pytest

from cardtable.conformance import check, promise
from cardtable.core.registry import manifest


def holds(name: str, anchor: str) -> None:
    """Promise ``anchor`` (docs/conformance.md) holds for game ``name``; a
    promise about an optional part the game lacks is skipped, saying so."""
    what = promise(anchor)
    if not what.binds(manifest(name)):
        pytest.skip(f"{name} has no {what.part}: it makes no promise {anchor!r}")
    outcome = check(name, what)
    assert outcome.held, f"{name}: {outcome} ({what.reference})"
