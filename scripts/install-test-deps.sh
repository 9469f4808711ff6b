#!/bin/sh
# Install everything the test suite needs, idempotent and quiet:
#
# 1. The Debian packages the tests drive (scripts/install-system-deps.sh):
#    chromium, postgresql, redis-server and haproxy.
# 2. The exact Python packages of requirements/test.txt, checked against their
#    hashes, then cardtable itself in editable mode without resolving again, so
#    every machine that runs this converges to the lock whatever it had before
#    (docs/dependencies.md). PYTHON picks the interpreter (default python3).
# 3. The browser code's checkers, tsc and ESLint, at the exact versions of
#    package-lock.json (npm ci), into node_modules/; skipped while the lock
#    they were installed from is the one here.
set -eu
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"

sh scripts/install-system-deps.sh

# pip warns about running as root (CI and containers do); the option is
# spelled as an environment variable so that an older pip ignores it.
export PIP_ROOT_USER_ACTION=ignore
"$python" -m pip install --quiet --require-hashes -r requirements/test.txt
"$python" -m pip install --quiet --no-deps -e .

# npm ci starts from an empty node_modules/; the copy of the lock it was
# installed from is written last, so an install cut short runs again.
installed=node_modules/.installed-package-lock.json
if ! cmp -s package-lock.json "$installed"; then
    npm ci --silent --no-audit --no-fund
    cp package-lock.json "$installed"
fi
