"""One install command, correct for a clone, wherever a user is told to
install cardtable or one of its extras (issue 10, item 11)."""

from __future__ import annotations

import re
from pathlib import Path

from cardtable.core.extras import install_command

ROOT = Path(__file__).resolve().parent.parent
# ".[rl]", or ".[{extra}]" where the code builds it
CANONICAL = re.compile(r'python3 -m pip install -e (\.|"\.\[([a-z,]+|\{[a-z_.]+\})\]")')
MENTION = re.compile(r"pip install[^\n`]*")


def texts() -> list[Path]:
    return [
        ROOT / "README.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "docs").rglob("*.py"),
        *(ROOT / "cardtable").rglob("*.py"),
        *(ROOT / "benchmarks").rglob("*.py"),
    ]


def test_every_install_of_cardtable_uses_the_one_form() -> None:
    wrong = []
    seen = 0
    for path in texts():
        text = path.read_text(encoding="utf-8")
        for match in MENTION.finditer(text):
            words = match[0].split()[2:]
            ours = any(
                w.startswith(("cardtable", '"cardtable', "'cardtable", ".", '".', "'."))
                for w in words
            )
            if not ours:
                continue  # a third-party package by name (rlcard, pygame)
            seen += 1
            start = text.rfind("\n", 0, match.start()) + 1
            line = text[start : text.find("\n", match.end())]
            if not CANONICAL.search(line):
                wrong.append(f"{path.relative_to(ROOT)}: {line.strip()}")
    assert not wrong, "\n".join(wrong)
    assert seen >= 8


def test_install_command_is_the_documented_form() -> None:
    assert CANONICAL.fullmatch(install_command("rl"))
    assert install_command("arena") == 'python3 -m pip install -e ".[arena]"'
