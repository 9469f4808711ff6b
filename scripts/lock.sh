#!/bin/sh
# Refresh the locks in requirements/ from pyproject.toml (docs/dependencies.md):
#
#   bash scripts/lock.sh             keep every pin that still fits the ranges;
#                                    resolve only what pyproject.toml changed
#   bash scripts/lock.sh --upgrade   move every package to the newest version
#                                    the ranges allow
#
# Then commit requirements/ on its own: the diff is what moved. test.txt is
# resolved first and bounds the other two, so a person playing or serving
# runs the very versions the suite ran on.
set -eu
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
uv_version=0.13.8  # the resolver, pinned like the checkers

if ! "$python" -m uv --version 2>/dev/null | grep -qx "uv $uv_version"; then
    PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet "uv==$uv_version"
fi

compile() {
    out="$1"
    shift
    # --universal: one lock for every platform and Python from 3.11 up, a
    # line per version where they differ; --generate-hashes: pip checks every
    # file it downloads against the lock (hash-checking mode).
    "$python" -m uv pip compile pyproject.toml --quiet --universal --python-version 3.11 \
        --generate-hashes --custom-compile-command "bash scripts/lock.sh" "$@" -o "$out"
}

compile requirements/test.txt --extra test "$@"
compile requirements/web.txt --extra web -c requirements/test.txt "$@"
compile requirements/play.txt -c requirements/test.txt "$@"
"$python" scripts/lock_stamp.py
