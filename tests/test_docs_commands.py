"""Every command in README.md and docs/*.md runs as written (issue 10, item 3).

Commands are the lines of shell code blocks (```sh, or unlabelled blocks whose
line starts with a known program) and inline code spans of ``cardtable`` with
a command and an argument and no placeholder (``GAME``, ``FILE``…). They run in
document order, each file in a fresh directory (so ``--save game.json`` then
``cardtable replay game.json`` work) where ``docs/`` is reachable, with a
bound on time. A few are not run as written, each for the reason in
:data:`SKIPPED` or :data:`REDUCED`.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROGRAMS = ("cardtable", "python3", "pip", "bash")
SHELL = ("sh", "bash", "shell", "console")

#: Commands not run, by what they contain, and why.
SKIPPED = {
    "pip install": "installs packages into the environment the suite runs in",
    "-m pytest": "runs this test suite itself",
    "scripts/test-newest.sh": "runs this test suite itself, in a fresh environment",
    "scripts/install-test-deps.sh": "installs packages into the environment the suite runs in",
    "scripts/lock.sh": "resolves against the package index and rewrites requirements/",
    "benchmarks/": "a benchmark: minutes of measurement against its peers",
    "cardtable serve": "a server that runs until stopped: tests/server and tests/browser start it",
    "cardtable admin migrate --db postgresql://": "needs the operator's PostgreSQL server:"
    " tests/server/db/test_admin_migrate.py runs it on a PostgreSQL of its own",
    "--db postgresql://cardtable@db.internal": "the operator's chat tools on the operator's"
    " PostgreSQL server: tests/server/live/test_chat_moderation.py runs them on SQLite and on a"
    " PostgreSQL of its own",
}
#: Commands run in a reduced form (see :func:`reduce`), and why.
REDUCED = {
    "cardtable arena": "thousands of games: run with --games 1, --jobs 1 and at most "
    "10 search iterations (where no --budget-ms is given), every other option as written",
    "cardtable balance": "thousands of games per configuration: run with --games 2, --jobs 1 and"
    " at most 10 search iterations, every other option as written",
    "cardtable play --watch": "bots at 0.1 s a move for a whole game: run with --bots random",
    "cardtable analyze": "half a second of search per decision of a whole game: run with"
    " --budget 0.02, every other option as written",
}
PLACEHOLDER = re.compile(r"^[A-Z][A-Z_=]*$|…|\[[A-Z]+\]")


@dataclass(frozen=True)
class DocCommand:
    where: str  # file:line
    text: str


def doc_commands(path: Path) -> list[DocCommand]:
    """The commands in one Markdown file, in order."""
    found: list[DocCommand] = []
    fence: str | None = None  # the open block's info string
    name = path.relative_to(ROOT).as_posix()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            continue
        if fence is None:
            for span in re.findall(r"(?<!`)`([^`\n]+)`(?!`)", line):
                words = span.split()
                # `cardtable replay` in prose names a command; it takes arguments to be one
                if (
                    words[0] == "cardtable"
                    and len(words) >= 3
                    and not any(PLACEHOLDER.search(w) for w in words)
                ):
                    found.append(DocCommand(f"{name}:{number}", span))
            continue
        if fence not in ("", *SHELL):
            continue
        command = re.sub(r"\s+#.*$", "", line).strip()
        if not command:
            continue
        if command.split()[0] in PROGRAMS:
            found.append(DocCommand(f"{name}:{number}", command))
        elif fence:  # a shell block's line must be a command we know how to run
            raise AssertionError(f"{name}:{number}: unknown command {command!r}")
    return found


def skipped(command: str) -> str | None:
    return next((why for key, why in SKIPPED.items() if key in command), None)


def reduce(command: str) -> str:
    """The command as run: arena runs and --watch games made small."""
    words = shlex.split(command)
    if words[:2] in (["cardtable", "arena"], ["cardtable", "balance"]):
        arena = words[1] == "arena"
        games = "1" if arena else "2"
        small = {"--games": games, "-n": games, "--jobs": "1", "-j": "1"}
        for i, word in enumerate(words[:-1]):
            if word in small:
                words[i + 1] = small[word]
            elif word == "--iterations":
                words[i + 1] = str(min(int(words[i + 1]), 10))
        if "--games" not in words and "-n" not in words:
            words += ["--games", games]
        if arena and "--iterations" not in words and "--budget-ms" not in words:
            words += ["--iterations", "10"]
    elif words[:2] == ["cardtable", "play"] and "--watch" in words and "--bots" not in words:
        words += ["--bots", "random"]
    elif words[:2] == ["cardtable", "analyze"]:
        if "--budget" in words:
            words[words.index("--budget") + 1] = "0.02"
        else:
            words += ["--budget", "0.02"]
    if any(operator in words for operator in ("|", "<", ">")):
        # a redirection: reduce the command before it, keep the rest as written
        at = min(words.index(op) for op in ("|", "<", ">") if op in words)
        return shlex.join(words[:at]) + " " + " ".join(words[at:])
    return shlex.join(words)


def run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    prelude = 'cardtable() { "$PY" -m cardtable "$@"; }; python3() { "$PY" "$@"; }; '
    return subprocess.run(
        ["bash", "-c", prelude + command],
        cwd=cwd,
        env={"PY": sys.executable, "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        input="quit\n",  # a game started by `cardtable play` stops at once
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_command_in_the_docs_runs(path: Path, tmp_path: Path) -> None:
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    failures = []
    for command in doc_commands(path):
        if skipped(command.text):
            continue
        result = run(reduce(command.text), tmp_path)
        output = result.stdout + result.stderr
        if result.returncode != 0 or "Traceback" in output:
            failures.append(
                f"{command.where}: {command.text}\n  exit {result.returncode}: {output[-800:]}"
            )
    assert not failures, "\n".join(failures)


def test_the_docs_hold_commands_and_every_exception_is_used() -> None:
    commands = [c.text for path in DOCS for c in doc_commands(path)]
    assert sum(c.startswith("cardtable ") for c in commands) >= 20
    for key in SKIPPED:
        assert any(key in c for c in commands), f"SKIPPED[{key!r}] matches no command"
    for key in REDUCED:
        assert any(c.startswith(key.split(" --")[0]) and key.split()[-1] in c for c in commands)
    # the README's own example that once failed is among them
    assert any("hand_sizes=[12,14]" in c and "--symbols" in c for c in commands)
