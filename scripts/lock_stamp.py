"""The stamp that ties each lock in requirements/ to the dependencies it was
resolved from: a digest of pyproject.toml's requires-python, dependencies and
optional-dependencies, written as a comment on the lock's third line.

``python3 scripts/lock_stamp.py`` stamps every lock (scripts/lock.sh runs it
after resolving); tests/test_lock.py recomputes the digest, so a change to the
dependencies that was not locked again fails the suite.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ("play", "web", "test")  # requirements/<name>.txt
STAMP_PREFIX = "# dependencies of pyproject.toml, sha256: "


def dependency_digest(pyproject: Path) -> str:
    """The digest of what a resolver reads from ``pyproject``, nothing else."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    relevant = {
        "requires-python": project.get("requires-python"),
        "dependencies": project.get("dependencies", []),
        "optional-dependencies": project.get("optional-dependencies", {}),
    }
    return hashlib.sha256(json.dumps(relevant, sort_keys=True).encode()).hexdigest()


def stamp_line(pyproject: Path) -> str:
    return STAMP_PREFIX + dependency_digest(pyproject)


def stamp(lock: Path, pyproject: Path) -> None:
    """Write the stamp as the lock's third line, after uv's two-line header."""
    lines = [
        line
        for line in lock.read_text(encoding="utf-8").splitlines()
        if not line.startswith(STAMP_PREFIX)
    ]
    lines.insert(2, stamp_line(pyproject))
    lock.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    for name in LOCKS:
        stamp(ROOT / "requirements" / f"{name}.txt", ROOT / "pyproject.toml")
