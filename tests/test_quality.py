"""The code stays ruff- and mypy-clean: checked as part of the suite so CI holds it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_is_clean() -> None:
    result = run("ruff", "check", "cardtable", "tests", "benchmarks", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = run(
        "ruff", "format", "--check", "cardtable", "tests", "benchmarks", "scripts", "docs/examples"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_imports_no_optional_dependency() -> None:
    code = (
        "import sys, random, cardtable\n"
        "for name in cardtable.game_names():\n"
        "    g = cardtable.load(name, players=3)\n"
        "    s = g.new_game(random.Random(0))\n"
        "    s.view(0); s.record()\n"
        "bad = {'numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'ray', 'openskill', 'matplotlib'}\n"
        "print(sorted(bad & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
