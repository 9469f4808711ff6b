"""Install the resampling twin of Fixture Trick beside the plain one, each
through its own ``cardtable.games`` entry point, as two plugins would be.

:func:`registered` wraps :func:`tests.fixtures.plugin.registered` (which puts
the ``fixture_trick`` package on ``sys.path``) and adds a second directory
holding only a ``dist-info`` whose entry point names
``fixture_trick.resampled:MANIFEST``; on exit both are undone.
:func:`all_registered` adds Fixture Shed too: all three plugin fixtures
(the resampling twin and Fixture Shed ship learned policies), for the tests
and benchmarks that play them all.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from cardtable.core.registry import refresh
from tests.fixtures import plugin as plain
from tests.fixtures.plugin import SHED_DIST, SHED_NAME, SHED_SOURCE

PLAIN = plain.NAME
NAME = "fixture-trick-resampled"


@cache
def site() -> Path:
    root = Path(tempfile.mkdtemp(prefix="cardtable-plugin-resampled-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    info = root / "cardtable_fixture_resampled-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: cardtable-fixture-resampled\nVersion: 0.1\n",
        encoding="utf-8",
    )
    (info / "entry_points.txt").write_text(
        f"[cardtable.games]\n{NAME} = {plain.PACKAGE}.resampled:MANIFEST\n", encoding="utf-8"
    )
    return root


@contextmanager
def registered() -> Iterator[None]:
    """Both fixture games are known to the registry (and to child processes) inside."""
    with plain.registered():
        path = str(site())
        before = os.environ["PYTHONPATH"]  # set by the plain fixture's registration
        sys.path.insert(0, path)
        os.environ["PYTHONPATH"] = os.pathsep.join((path, before))
        refresh()
        try:
            yield
        finally:
            sys.path.remove(path)
            os.environ["PYTHONPATH"] = before
            refresh()


@contextmanager
def all_registered() -> Iterator[None]:
    """Fixture Trick, its resampling twin and Fixture Shed are known inside."""
    with registered(), plain.registered(SHED_SOURCE, SHED_NAME, SHED_DIST):
        yield
