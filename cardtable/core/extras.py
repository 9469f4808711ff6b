"""Optional parts of cardtable (the extras in ``pyproject.toml``).

One install command, correct for a clone of the repository, is written
everywhere a user is told to install something:

>>> install_command("rl")
'python3 -m pip install -e ".[rl]"'
"""

from __future__ import annotations

import re
from importlib import metadata

DISTRIBUTION = "cardtable"
_REQUIREMENT = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?")
_EXTRA_MARKER = re.compile(r"""extra\s*==\s*['"]([^'"]+)['"]""")


def install_command(extra: str) -> str:
    """The command that installs ``extra`` from a clone (run in its root)."""
    return f'python3 -m pip install -e ".[{extra}]"'


def extra_installed(extra: str) -> bool | None:
    """Whether every package of ``extra`` is installed; ``None`` when that is
    unknown: cardtable itself is not installed (run from a source tree), or it
    has no such extra."""
    try:
        requirements = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return None
    if not any(_extra_of(line) == extra for line in requirements):
        return None
    return _satisfied(extra, requirements, set())


def _extra_of(requirement: str) -> str | None:
    wanted = _EXTRA_MARKER.search(requirement.partition(";")[2])
    return wanted[1] if wanted else None


def _satisfied(extra: str, requirements: list[str], seen: set[str]) -> bool:
    seen.add(extra)
    for line in requirements:
        if _extra_of(line) != extra:
            continue
        match = _REQUIREMENT.match(line.partition(";")[0])
        if match is None:
            continue
        name, nested = match[1], match[2]
        if name == DISTRIBUTION:  # "cardtable[arena]" inside another extra
            for inner in (nested or "").split(","):
                inner = inner.strip()
                if inner and inner not in seen and not _satisfied(inner, requirements, seen):
                    return False
        elif not _distribution_present(name):
            return False
    return True


def _distribution_present(name: str) -> bool:
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True
