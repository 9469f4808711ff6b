#!/bin/sh
# Run the suite against the newest versions pyproject.toml's ranges allow:
# what someone gets who installs cardtable into an environment of their own,
# without the lock. Not part of the default run (docs/dependencies.md).
#
#   bash scripts/test-newest.sh [pytest arguments]
#
# It builds a fresh virtual environment (NEWEST_VENV, default .venv-newest),
# installs cardtable with its test extra there, every package upgraded to the
# newest release that fits (the checkers stay pinned: they move on purpose),
# prints the versions that matter most, and runs pytest in it.
set -eu
cd "$(dirname "$0")/.."
venv="${NEWEST_VENV:-.venv-newest}"

sh scripts/install-system-deps.sh

rm -rf "$venv"
"${PYTHON:-python3}" -m venv "$venv"
export PIP_ROOT_USER_ACTION=ignore
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet --upgrade --upgrade-strategy eager -e ".[test]"
"$venv/bin/python" -c '
import importlib.metadata as m
names = "mypy ruff starlette sqlalchemy redis numpy typer hypothesis pytest".split()
print("newest versions:", ", ".join(f"{n} {m.version(n)}" for n in names))
'

# The venv's scripts (cardtable, ruff) come first, as after `activate`; the
# suite skips its one check that the installed versions are the locked ones.
PATH="$(pwd)/$venv/bin:$PATH" CARDTABLE_UNLOCKED=1 exec "$venv/bin/python" -m pytest "$@"
