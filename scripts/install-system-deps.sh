#!/bin/sh
# Install the Debian packages the test suite drives, idempotent and quiet:
# chromium (the browser tests), postgresql (the storage tests against a real
# server), redis-server and haproxy (several server processes behind a
# real proxy), and nodejs and npm (the browser code's checkers, package.json).
# `apt-get update` runs only when something is missing; without root or apt it
# says so, and the tests that need a missing package skip, saying why.
set -eu

missing=""
for package in chromium postgresql redis-server haproxy nodejs npm; do
    # A Node.js from elsewhere (NodeSource's nodejs brings npm within it, and
    # refuses Debian's npm beside it) counts as installed.
    if [ "$package" = npm ] && command -v npm >/dev/null 2>&1; then
        continue
    fi
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done

if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo -n"
    else
        sudo="none"
    fi
    if [ "$sudo" = "none" ]; then
        echo "install-test-deps: cannot install$missing (not root, no sudo); those tests will skip" >&2
    elif ! command -v apt-get >/dev/null 2>&1; then
        echo "install-test-deps: no apt-get; install$missing yourself, or those tests will skip" >&2
    else
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq >/dev/null
        # shellcheck disable=SC2086  # one word per package
        $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
    fi
fi
