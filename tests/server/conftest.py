"""Each server test gets its own SQLite file, or its own database on a real
PostgreSQL server (the test extra installs the web extra)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server import topology
from tests.server.helpers import sqlite_url
from tests.server.pg import binaries, fresh_database, postgres


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return sqlite_url(tmp_path)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[tuple[Path, str]]:
    """A real PostgreSQL server for the session (its binaries and URL);
    skipped, saying why, only where its binaries are not installed."""
    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed: scripts/install-test-deps.sh installs it")
    with postgres(bin_dir) as url:
        yield bin_dir, url


@pytest.fixture
def postgres_url(postgres_server: tuple[Path, str]) -> str:
    return fresh_database(*postgres_server)


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, db_url: str) -> str:
    """The test once on SQLite and once on the real PostgreSQL server."""
    if request.param == "sqlite":
        return db_url
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis server of the test's own; skipped, saying why, where Debian's
    ``redis-server`` is not installed."""
    if topology.redis_binary() is None:
        pytest.skip("redis-server is not installed: scripts/install-test-deps.sh installs it")
    with topology.redis() as (_, url):
        yield url


@pytest.fixture
def needs_haproxy() -> None:
    """Skip, saying why, where Debian's ``haproxy`` is not installed."""
    if topology.haproxy_binary() is None:
        pytest.skip("haproxy is not installed: scripts/install-test-deps.sh installs it")
