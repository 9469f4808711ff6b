"""Each server test gets its own SQLite file (the test extra installs the web extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.helpers import sqlite_url


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return sqlite_url(tmp_path)
