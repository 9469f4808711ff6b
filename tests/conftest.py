"""Fixtures shared by more than one test folder, and the ``slow`` mark.

``python3 -m pytest -m "not slow"`` is the inner loop (docs/testing.md): it
leaves out the families that start browsers, real PostgreSQL, Redis or
haproxy servers, or several server processes, which this hook marks by where
they live and what they use, and the tests marked ``slow`` by hand (each
takes seconds: whole games against bots, puzzle builds). The README's test
command runs everything.

``CARDTABLE_TEST_PLUGIN=fixture-trick`` (a comma-separated list of the
fixture games ``tests/fixtures/plugin.py`` names) installs those games for
the whole run, as a third-party game is installed, so every test that goes
over ``game_names()`` shows whether it holds for any game that passes
conformance (docs/testing.md, "The suite with a plugin installed").
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.fixtures import plugin
from tests.server.pg import PostgresServer, binaries, postgres_server

PLUGIN_ENV = "CARDTABLE_TEST_PLUGIN"
_installed = ExitStack()  # the fixture games installed for the whole run


def fixture_games() -> dict[str, tuple[Path, str, str]]:
    """Every fixture game ``tests/fixtures/plugin.py`` names, as the arguments
    of its ``registered()``: the default one (``NAME``) and each ``X_NAME``
    given with its ``X_SOURCE`` and ``X_DIST``."""
    games = {plugin.NAME: (plugin.SOURCE, plugin.NAME, "fixture_game")}
    for attr in dir(plugin):
        prefix = attr.removesuffix("_NAME")
        source, dist = (getattr(plugin, f"{prefix}_{part}", None) for part in ("SOURCE", "DIST"))
        if attr.endswith("_NAME") and isinstance(source, Path) and isinstance(dist, str):
            games[getattr(plugin, attr)] = (source, getattr(plugin, attr), dist)
    return games


def pytest_configure(config: pytest.Config) -> None:
    """Install the fixture games ``CARDTABLE_TEST_PLUGIN`` names, before any
    module is collected (parametrizations read ``game_names()``)."""
    wanted = [name.strip() for name in os.environ.get(PLUGIN_ENV, "").split(",") if name.strip()]
    known = fixture_games()
    unknown = [name for name in wanted if name not in known]
    if unknown:
        raise pytest.UsageError(
            f"{PLUGIN_ENV}: no fixture game {', '.join(unknown)}; known: {', '.join(known)}"
        )
    for name in wanted:
        _installed.enter_context(plugin.registered(*known[name]))


def pytest_unconfigure(config: pytest.Config) -> None:
    _installed.close()


def pytest_report_header(config: pytest.Config) -> str | None:
    wanted = os.environ.get(PLUGIN_ENV)
    return f"{PLUGIN_ENV}={wanted}: installed for the whole run" if wanted else None


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
