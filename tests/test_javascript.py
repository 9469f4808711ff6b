"""The browser code stays tsc- and ESLint-clean: checked as part of the suite so CI holds it.

The checkers are the exact versions of ``package-lock.json``, installed into
``node_modules/`` by ``scripts/install-test-deps.sh`` (docs/testing.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted((ROOT / "cardtable").rglob("*.js"))


def run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    path = ROOT / "node_modules" / ".bin" / tool
    if not path.exists():
        pytest.fail(f"{path.relative_to(ROOT)} is missing: run bash scripts/install-test-deps.sh")
    return subprocess.run([str(path), *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_tsc_is_clean() -> None:
    result = run("tsc", "-p", "jsconfig.json", "--noEmit")
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_is_clean() -> None:
    result = run("eslint", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_module_asks_to_be_checked() -> None:
    # Editors without jsconfig.json check a module only where it says so.
    assert MODULES
    unmarked = [
        str(p.relative_to(ROOT))
        for p in MODULES
        if p.read_text(encoding="utf-8").splitlines()[0] != "// @ts-check"
    ]
    assert not unmarked, unmarked
