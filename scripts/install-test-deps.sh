#!/bin/sh
# Install everything the test suite needs, idempotent and quiet:
#
# 1. The Debian packages the tests drive (scripts/install-system-deps.sh):
#    chromium, postgresql, redis-server and haproxy.
# 2. The exact Python packages of requirements/test.txt, checked against their
#    hashes, then cardtable itself in editable mode without resolving again, so
#    every machine that runs this converges to the lock whatever it had before
#    (docs/dependencies.md). PYTHON picks the interpreter (default python3).
set -eu
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"

sh scripts/install-system-deps.sh

# pip warns about running as root (CI and containers do); the option is
# spelled as an environment variable so that an older pip ignores it.
export PIP_ROOT_USER_ACTION=ignore
"$python" -m pip install --quiet --require-hashes -r requirements/test.txt
"$python" -m pip install --quiet --no-deps -e .
