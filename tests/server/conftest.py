"""Each server test gets its own SQLite file, or its own database on a real
PostgreSQL server (the test extra installs the web extra)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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
def any_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each database the server runs on: a test taking this runs on both."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    url: str = request.getfixturevalue("postgres_url")
    return url
