#!/bin/sh
# Install the system packages the test suite drives: Debian's chromium (the
# browser tests), postgresql (the storage tests against a real server), and
# redis-server and haproxy (several server processes behind a real proxy).
# Idempotent and quiet: does nothing when all are installed, runs
# `apt-get update` only when something is missing, and says so when it cannot
# install (the tests that need a missing package then skip, saying why).
set -eu

missing=""
for package in chromium postgresql redis-server haproxy; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    echo "install-test-deps: cannot install$missing (not root, no sudo); those tests will skip" >&2
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-test-deps: no apt-get; install$missing yourself, or those tests will skip" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
# shellcheck disable=SC2086  # one word per package
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
