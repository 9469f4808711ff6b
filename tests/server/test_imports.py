"""The table and the message code need no database library: they import with
SQLAlchemy and Alembic refused (storage alone maps tables to rows)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

BLOCKER = textwrap.dedent(
    """
    import importlib.abc
    import sys

    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("sqlalchemy", "alembic"):
                raise ImportError(f"{name} is blocked")
            return None

    sys.meta_path.insert(0, Refuse())
    """
)


def imports_blocked(module: str) -> subprocess.CompletedProcess[str]:
    code = BLOCKER + f"import {module}\nprint(sorted(m for m in sys.modules if 'sqlalchemy' in m))"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    "module", ["cardtable.server.tables.messages", "cardtable.server.tables.table"]
)
def test_the_message_code_imports_without_sqlalchemy_or_alembic(module: str) -> None:
    done = imports_blocked(module)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_blocker_refuses_what_storage_needs() -> None:
    done = imports_blocked("cardtable.server.db.storage")
    assert done.returncode != 0 and "is blocked" in done.stderr
