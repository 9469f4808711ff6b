"""Fixtures shared by more than one test folder, and the ``slow`` mark.

``python3 -m pytest -m "not slow"`` is the inner loop (docs/testing.md): it
leaves out the families that start browsers, real PostgreSQL, Redis or
haproxy servers, or several server processes, which this hook marks by where
they live and what they use, and the tests marked ``slow`` by hand (each
takes seconds: whole games against bots, puzzle builds). The README's test
command runs everything.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.pg import PostgresServer, binaries, postgres_server


@pytest.fixture
def postgres_alone() -> Iterator[PostgresServer]:
    """A PostgreSQL of the test's own, to stop and start again (an outage)."""
    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed: scripts/install-test-deps.sh installs it")
    with postgres_server(bin_dir) as pg:
        yield pg


ROOT = Path(__file__).resolve().parents[1]
# Folders whose every test starts a browser or several server processes, and
# modules whose tests take seconds each (measured: docs/testing.md): whole
# games against bots, puzzle builds, analyses, every command of the docs, the
# linters over the whole tree, servers stopped by signals.
SLOW_FOLDERS = ("tests/browser/", "tests/server/cluster/")
SLOW_MODULES = frozenset(
    {
        "tests/test_docs_commands.py",
        "tests/test_quality.py",
        "tests/test_javascript.py",
        "tests/marshmallow_test/test_explanations.py",
        "tests/learn/test_puzzles.py",
        "tests/analysis/test_calibration.py",
        "tests/bots/test_bot_contract.py",
        "tests/bots/test_plugin_levels_in_the_terminal.py",
        "tests/arena/test_arena_ray.py",
        "tests/server/test_graceful_stop.py",
        "tests/server/test_secrecy.py",
        "tests/server/live/test_analysis.py",
        "tests/server/live/test_bots.py",
        "tests/server/live/test_chat_moderation.py",
    }
)
# Fixtures that start a real PostgreSQL, Redis or haproxy.
SLOW_FIXTURES = frozenset(
    {"postgres_server", "postgres_url", "postgres_alone", "redis_url", "needs_haproxy"}
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gone = sorted(m for m in SLOW_MODULES if not (ROOT / m).is_file())
    if gone:  # a moved module would silently join the inner loop
        raise pytest.UsageError(f"tests/conftest.py: SLOW_MODULES names no file {gone}")
    for item in items:
        where = item.path.relative_to(ROOT).as_posix() if item.path.is_relative_to(ROOT) else ""
        params = getattr(item, "callspec", None)
        on_postgres = params is not None and "postgresql" in params.params.values()
        if (
            where.startswith(SLOW_FOLDERS)
            or where in SLOW_MODULES
            or SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ()))
            or on_postgres
        ):
            item.add_marker(pytest.mark.slow)
