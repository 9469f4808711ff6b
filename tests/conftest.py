"""Fixtures shared by more than one test folder."""

from __future__ import annotations

from collections.abc import Iterator

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
