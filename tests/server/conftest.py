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
def postgres_server() -> Iterator[str]:
    """A real PostgreSQL server for the session; skipped (saying why) only
    where its binaries are not installed."""
    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed: scripts/install-test-deps.sh installs it")
    with postgres(bin_dir) as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    return fresh_database(postgres_server)
