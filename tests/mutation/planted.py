"""The bugs issue 12 planted by hand, each checked against its game's own tests.

Run from the repository root (it edits the source in place, one bug at a
time, and always puts the file back)::

    PYTHONPATH=$PWD python -m tests.mutation.planted

For every bug it prints which tests fail. A bug whose text is no longer in
the source (the code moved) is reported as ``not found`` rather than hidden.
Not part of the test run: it takes a few minutes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MT = "cardtable/games/marshmallow_test"
MR = "cardtable/games/myrummy_111"
MT_TESTS = ("tests/marshmallow_test",)  # the game's own folder only
MR_TESTS = ("tests/myrummy_111",)
_DEFAULT_SYM = (
    "__import__('cardtable.games.myrummy_111.cards', fromlist=['_'])"
    ".symbol_lookup(__import__('cardtable.games.myrummy_111.cards', fromlist=['_'])"
    ".DEFAULT_SYMBOLS)"
)


@dataclass(frozen=True)
class Bug:
    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


BUGS = (
    Bug("MR-7.1 ends only above the target", f"{MR}/scoring.py",
        "return max(totals) >= target", "return max(totals) > target", MR_TESTS),
    Bug("MR-7.1 tie-break on totals", f"{MR}/state.py",
        "winners(self._totals, scores)", "winners(self._totals, self._totals)", MR_TESTS),
    Bug("MR-6.2 last card unchecked", f"{MR}/scoring.py",
        "list(itertools.pairwise(hand))", "list(itertools.pairwise(hand))[:-1]", MR_TESTS),
    Bug("MR-9 symbols ignored for others' runs", f"{MR}/scoring.py",
        "out.append(best_run(hand, sym))", f"out.append(best_run(hand, {_DEFAULT_SYM}))",
        MR_TESTS),
    Bug("MR-4.6 reshuffle at exactly 3", f"{MR}/state.py",
        "if left < 3:", "if left <= 3:", MR_TESTS),
    Bug("MR-6.3 falling run after a rise drops its first card", f"{MR}/scoring.py",
        "rise += s\n            fall = s", "rise += s\n            fall = 0", MR_TESTS),
    Bug("MR-4.1 refresh offered with one card face up", f"{MR}/state.py",
        "TAKES_WITH_REFRESH if self._up == ALL_UP", "TAKES_WITH_REFRESH if self._up", MR_TESTS),
    Bug("MR-4.1 refresh accepted with one card face up", f"{MR}/state.py",
        "if self._up != ALL_UP:", "if self._up == 0:", MR_TESTS),
    Bug("MT clone forgets the ruff", f"{MT}/state.py",
        "c._ruffed = self._ruffed", "c._ruffed = False", MT_TESTS),
    Bug("MT clone shares the seating ring", f"{MT}/state.py",
        "c._next = self._next[:]", "c._next = self._next", MT_TESTS),
    Bug("MT-5.4 may: void player with trump forced to trump", f"{MT}/state.py",
        "if not follow:\n            return _full_hand(hand)",
        "if not follow:\n            return _T[trump][trumps] if trumps else _full_hand(hand)",
        MT_TESTS),
    Bug("MT-5.4 after a ruff, no trump excuses following", f"{MT}/state.py",
        "if not trumps:\n            return _T[lead][follow]",
        "if not trumps:\n            return _full_hand(hand)", MT_TESTS),
    Bug("MT-5.4 ruff flag not reset after the trick", f"{MT}/state.py",
        "self._ruffed = False\n        counts = self._counts", "counts = self._counts",
        MT_TESTS),
    Bug("MT-5.5 a led trump loses its rank", f"{MT}/state.py",
        "self._best = STRENGTH[trump][colour][card]",
        "self._best = STRENGTH[-1][colour][card]", MT_TESTS),  # as if no trump
    Bug("replay compares winners as a list", "cardtable/core/replay.py",
        'same = set(want) == set(got) if key == "winners" else want == got',
        "same = want == got", ("tests/cli/test_replay_cli.py", "tests/core")),
)  # fmt: skip


def failing_tests(tests: tuple[str, ...]) -> tuple[int, list[str]]:
    """Run ``tests``; the exit code and the tests that failed or hung."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf"]
    command += ["--timeout", "60", *tests]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    failed = re.findall(r"^FAILED (\S+)", done.stdout, re.MULTILINE)
    if "Timeout" in done.stdout + done.stderr:
        # pytest-timeout ends the run; the stack names the test that hung.
        hung = re.findall(r"in (test_\w+)", done.stdout + done.stderr)
        failed.append(f"{hung[0] if hung else '?'} (hung: killed by the timeout)")
    return done.returncode, failed


def main() -> int:
    code, failed = failing_tests(MT_TESTS + MR_TESTS + BUGS[-1].tests)
    print(f"unchanged source: exit {code}, failing {failed}")
    survivors = 0
    for bug in BUGS:
        path = ROOT / bug.path
        source = path.read_text(encoding="utf-8")
        if source.count(bug.old) != 1:
            print(f"{bug.name}: not found in {bug.path}")
            survivors += 1
            continue
        try:
            path.write_text(source.replace(bug.old, bug.new), encoding="utf-8")
            code, failed = failing_tests(bug.tests)
        finally:
            path.write_text(source, encoding="utf-8")
        caught = code != 0
        survivors += not caught
        print(f"{bug.name}: {'caught by ' + ', '.join(failed) if caught else 'SURVIVED'}")
        sys.stdout.flush()
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
