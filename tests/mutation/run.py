"""Mutation testing of the rules modules and replay, with mutmut, sized for 2 cores.

::

    PYTHONPATH=$PWD python -m tests.mutation.run marshmallow-test [--module state] [--jobs 2]
    PYTHONPATH=$PWD python -m tests.mutation.run myrummy-111
    PYTHONPATH=$PWD python -m tests.mutation.run replay
    PYTHONPATH=$PWD python -m tests.mutation.run origin   # or sign-in, ratings, quick-match,
                                                          # leases, balance, puzzles, tutorial

Each target's modules are mutated and every mutant is run against that
target's *own* tests only: a game's test folder plus the conformance suite's
tests of that game (``-k <game>``); replay against ``tests/core`` and the
replay CLI tests. mutmut runs only the tests that reach the mutated function.
Mutants first run in forks of a process that has imported everything (fast);
the survivors run again, each in a new interpreter against the target's whole
test selection, so that code which runs at import (move tables, default
symbols) runs mutated too. (mutmut's own per-test mapping charges a function
called at import to whichever test happened to import the module first, and
its forkserver mode runs only that test.) A mutant that breaks the import
itself (pytest exit 2, mutmut's "interrupted") counts as detected.

The work happens in a copy of the repository (``--workdir``, by default
``/tmp/cardtable-mutation/<target>``), so the worktree is never edited and a
run with ``--reuse`` keeps mutmut's earlier results; ``--survivors`` runs only the last
run's survivors again, against the tests as they are now, and rescores their modules from
the last run's counts (the code must not have changed since). The summary (killed / total
per module and every surviving mutant's diff) is printed and written to ``summary.json``
there. Not part of the test suite: a game takes tens of minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.core import compiled

ROOT = Path(__file__).resolve().parents[2]
RULES = ("cards", "moves", "options", "state", "scoring", "codec", "view", "tricks", "exchange")


@dataclass(frozen=True)
class Target:
    modules: tuple[str, ...]  # paths from the repository root
    tests: tuple[str, ...]  # pytest arguments selecting the target's own tests


# Tests left out of mutation runs: each takes tens of seconds and would run for
# every mutant of the engine (leaving them out can only lower the score).
SLOW = ("tests/marshmallow_test/test_explanations.py",)


def game_target(package: str, keyword: str) -> Target:
    folder = ROOT / "cardtable" / "games" / package
    modules = tuple(
        f"cardtable/games/{package}/{name}.py" for name in RULES if (folder / f"{name}.py").exists()
    )
    slow = [f"--ignore={path}" for path in SLOW if path.startswith(f"tests/{package}/")]
    return Target(modules, (f"tests/{package}", "tests/conformance", "-k", keyword, *slow))


def server_target(modules: tuple[str, ...], tests: tuple[str, ...]) -> Target:
    """Modules of cardtable/server/ that guard people and data, and their tests
    (both named from their server folder: ``guard/origin``, ``guard/test_origin``)."""
    return Target(
        tuple(f"cardtable/server/{name}.py" for name in modules),
        tuple(f"tests/server/{name}.py" for name in tests),
    )


TARGETS = {
    "marshmallow-test": game_target("marshmallow_test", "marshmallow"),
    "myrummy-111": game_target("myrummy_111", "myrummy"),
    "replay": Target(("cardtable/core/replay.py",), ("tests/core", "tests/cli/test_replay_cli.py")),
    # What guards people and data on the server (issue 34, item 8).
    "origin": server_target(
        ("guard/origin", "web/session_cookie"), ("guard/test_origin", "accounts/test_accounts")
    ),
    "sign-in": server_target(
        ("accounts/passwords", "accounts/signin_delays", "guard/limits"),
        (
            "accounts/test_accounts",
            "accounts/test_password_terms",
            "guard/test_abuse_limits",
            "guard/test_limits_unit",
            "guard/test_limit_terms",
        ),
    ),
    "ratings": server_target(("tables/outcomes",), ("live/test_rated_tables", "db/test_ratings")),
    "quick-match": server_target(
        ("quick/match", "quick/store"),
        (
            "quick/test_quick_match",
            "quick/test_redis_store",
            "quick/test_quick_blocks",
            "quick/test_quick_contract",
        ),
    ),
    "leases": server_target(
        ("db/leases", "tables/journal"),
        # The unit tests first: a survivor's second run stops at its first failure.
        (
            "tables/test_journal",
            "tables/test_takeback",
            "db/test_lease_terms",
            "db/test_leases",
            "db/test_restart",
        ),
    ),
    "balance": Target(("cardtable/balance/measure.py",), ("tests/balance",)),
    # The lesson and the puzzles apart: each survivor's second run takes the
    # whole selection, and the puzzles' tests search positions (35 s a run here).
    "puzzles": Target(
        ("cardtable/learn/puzzles.py",),
        (
            "tests/learn/test_puzzle_terms.py",  # the fast ones first (see "leases")
            "tests/learn/test_puzzles.py",
            "tests/learn/test_generic_learning.py",
        ),
    ),
    "tutorial": Target(
        ("cardtable/learn/tutorial.py",),
        (
            "tests/learn/test_tutorial.py",
            "tests/learn/test_tutorial_terms.py",
            "tests/learn/test_generic_learning.py",
        ),
    ),
}


def prepare(workdir: Path) -> None:
    """Copy the repository's code and tests into ``workdir``.

    In the copy, every test's timeout raises in the test (``method="signal"``)
    instead of ending the process (``"thread"`` calls ``os._exit``): mutmut
    runs its "forced fail" check inside its own process, where every mutated
    function raises, and a server test then waits for a table that never
    answers; a thread timeout would kill mutmut itself, without a word.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    for name in ("cardtable", "tests"):
        shutil.rmtree(workdir / name, ignore_errors=True)
        # No compiled build: the mutants are of the source, which runs as such.
        skipped = shutil.ignore_patterns("__pycache__", "_compiled")
        shutil.copytree(ROOT / name, workdir / name, ignore=skipped)
    for test in (workdir / "tests").rglob("test_*.py"):
        text = test.read_text(encoding="utf-8")
        if 'method="thread"' in text:
            test.write_text(text.replace('method="thread"', 'method="signal"'), encoding="utf-8")
    # A test that runs the `cardtable` command must run the copy's (mutated) code,
    # not the installed one: this `cardtable` comes first on the runs' PATH.
    shim = workdir / "bin" / "cardtable"
    shim.parent.mkdir(exist_ok=True)
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m cardtable "$@"\n', encoding="utf-8")
    shim.chmod(0o755)


def refresh_copies(workdir: Path, modules: tuple[str, ...]) -> None:
    """For ``--reuse``: keep mutmut's mutants and results of ``modules`` and
    remove every other file of its copy, which mutmut then copies anew from
    the tree (it copies a file only where none is, so a module changed since
    the last run would run as it was)."""
    mutants = workdir / "mutants"
    kept = {
        mutants / f"{module}{suffix}" for module in modules for suffix in ("", ".meta", ".spans")
    }
    for folder in ("cardtable", "tests"):
        for path in (mutants / folder).rglob("*"):
            if path.is_file() and path not in kept:
                path.unlink()


def run_env(workdir: Path) -> dict[str, str]:
    """The environment of every run in ``workdir``: its ``cardtable`` command
    first on PATH (see :func:`prepare`), no PYTHONPATH (the copy's code only)
    and no compiled engine (``cardtable/core/compiled.py``): a mutant is
    Python source."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = f"{workdir / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env[compiled.PURE_PYTHON_VARIABLE] = "1"
    return env


def configure(workdir: Path, modules: tuple[str, ...], tests: tuple[str, ...]) -> None:
    """The repository's pyproject.toml plus a ``[tool.mutmut]`` section.

    mutmut runs each mutant in a fork of a process that has imported
    everything: fast, but code that ran at import (move tables, default
    symbols) ran unmutated; :func:`run_afresh` checks the survivors again.
    """
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    config += "\n[tool.mutmut]\n" + "\n".join(
        [
            'source_paths = ["cardtable/"]',
            f"only_mutate = {json.dumps(list(modules))}",
            f"pytest_add_cli_args_test_selection = {json.dumps(list(tests))}",
            # A test that waits on a broken server fails within two minutes (see prepare).
            'pytest_add_cli_args = ["-p", "no:cacheprovider", "-o", "timeout=120",'
            ' "-o", "timeout_method=signal"]',
            'process_isolation = "fork"',
        ]
    )
    (workdir / "pyproject.toml").write_text(config + "\n", encoding="utf-8")


def run_afresh(
    workdir: Path, modules: tuple[str, ...], tests: tuple[str, ...], names: list[str], jobs: int
) -> dict[str, int]:
    """Run each mutant in ``names`` in a new interpreter against the whole
    test selection ``tests`` (stopping at the first failure); record each exit
    code where mutmut keeps its results (``mutants/<module>.py.meta``) and
    return them.

    A new interpreter imports the mutated module afresh, so code that runs at
    import runs mutated; and every test gets its chance, not only those that
    mutmut's mapping assigns to the function.
    """
    env = run_env(workdir)
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    mutants = workdir / "mutants"
    start = time.monotonic()
    clean = subprocess.run(command, cwd=mutants, env=env, capture_output=True, check=False)
    if clean.returncode:
        raise SystemExit(f"the tests fail without a mutant:\n{clean.stdout.decode()[-3000:]}")
    limit = max(60.0, 5 * (time.monotonic() - start))  # a mutant that loops is a timeout

    def exit_code(name: str) -> int:
        try:
            done = subprocess.run(
                command,
                cwd=mutants,
                env={**env, "MUTANT_UNDER_TEST": name},
                capture_output=True,
                timeout=limit,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return 36  # mutmut's "timeout"
        return done.returncode  # pytest's: 0 passed (survived), 1 failed, 2 import broke

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        codes = dict(zip(names, pool.map(exit_code, names), strict=True))
    for module in modules:
        dotted = module.removesuffix(".py").replace("/", ".") + "."
        mine = {n: c for n, c in codes.items() if n.startswith(dotted)}
        if not mine:
            continue
        meta = mutants / f"{module}.meta"
        data = json.loads(meta.read_text(encoding="utf-8"))
        data["exit_code_by_key"].update(mine)
        meta.write_text(json.dumps(data, indent=4), encoding="utf-8")
    return codes


def mutmut(workdir: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mutmut", *args],
        cwd=workdir,
        env={**os.environ, "PATH": run_env(workdir)["PATH"]},  # its own cardtable command
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"mutmut {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


Scores = dict[str, dict[str, float]]


# pytest's exit code 2 (mutmut: "interrupted"): the mutant broke the import itself.
DETECTED = ("killed", "timeout", "check was interrupted by user")
# mutmut's names for the exit codes run_afresh records (anything else: "suspicious").
STATUS = {0: "survived", 1: "killed", 2: DETECTED[2], 3: "killed", 5: "no tests", 36: "timeout"}


def summarize(
    workdir: Path, modules: tuple[str, ...], with_diffs: bool = True
) -> tuple[Scores, list[dict[str, str]]]:
    """Per module: mutants by status, total and the detected share; and the survivors."""
    statuses = re.findall(
        r"^\s+(\S+): (\w[\w ]*)$", mutmut(workdir, "results", "--all", "true"), re.M
    )
    dotted = {m: m.removesuffix(".py").replace("/", ".") for m in modules}
    per_module: dict[str, dict[str, float]] = {}
    survivors = []
    for name, status in statuses:
        module = next((m for m, d in dotted.items() if name.startswith(d + ".")), None)
        if module is None:
            continue
        counts = per_module.setdefault(module, {})
        counts[status] = counts.get(status, 0) + 1
        if status not in DETECTED:
            diff = mutmut(workdir, "show", name) if with_diffs else ""
            survivors.append({"mutant": name, "status": status, "diff": diff})
    scores: Scores = {
        module: {
            **counts,
            "total": sum(counts.values()),
            "score": round(sum(counts.get(s, 0) for s in DETECTED) / sum(counts.values()), 4),
        }
        for module, counts in sorted(per_module.items())
    }
    return scores, survivors


def write_summary(
    workdir: Path, modules: tuple[str, ...], scores: Scores, survivors: list[dict[str, str]]
) -> None:
    """Update ``summary.json``: the modules measured now replace their earlier entries."""
    path = workdir / "summary.json"
    earlier: dict[str, Any] = {"modules": {}, "survivors": []}
    if path.exists():
        earlier = json.loads(path.read_text(encoding="utf-8"))
    dotted = tuple(m.removesuffix(".py").replace("/", ".") + "." for m in modules)
    kept = {m: c for m, c in earlier["modules"].items() if m not in modules}
    summary = {
        "modules": dict(sorted({**kept, **scores}.items())),
        "survivors": [s for s in earlier["survivors"] if not s["mutant"].startswith(dotted)]
        + survivors,
    }
    path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


def rerun_survivors(
    workdir: Path, target: Target, modules: tuple[str, ...], jobs: int
) -> tuple[Scores, list[dict[str, str]]]:
    """Run the survivors of the last run in ``workdir`` again, against the
    tests as they are now, and rescore ``modules`` from the last run's counts.

    The code must be the code of that run: a survivor whose diff has changed
    stops the run (measure afresh instead).
    """
    try:
        summary = json.loads((workdir / "summary.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SystemExit(f"--survivors: no earlier run in {workdir} (no summary.json)") from None
    dotted = {m: m.removesuffix(".py").replace("/", ".") + "." for m in modules}
    earlier = [s for s in summary["survivors"] if s["mutant"].startswith(tuple(dotted.values()))]
    counts = {m: dict(c) for m, c in summary["modules"].items() if m in modules}
    if not earlier:
        return counts, []
    # mutmut keeps a stale, unmutated copy of a module its last run did not
    # mutate, so mutants/ is made anew for these modules.
    shutil.rmtree(workdir / "mutants", ignore_errors=True)
    prepare(workdir)
    configure(workdir, modules, target.tests)
    names = [s["mutant"] for s in earlier]
    mutmut(workdir, "run", "--max-children", str(jobs), *names)
    codes = run_afresh(workdir, modules, target.tests, names, jobs)
    survivors = []
    for old in earlier:
        name = old["mutant"]
        diff = mutmut(workdir, "show", name)
        if diff.partition("\n")[2] != old["diff"].partition("\n")[2]:
            raise SystemExit(f"{name} is not the last run's mutant: measure without --survivors")
        status = STATUS.get(codes[name], "suspicious")
        module = next(m for m, d in dotted.items() if name.startswith(d))
        counts[module][old["status"]] -= 1
        counts[module][status] = counts[module].get(status, 0) + 1
        if status not in DETECTED:
            survivors.append({"mutant": name, "status": status, "diff": diff})
    scores: Scores = {}
    for module, by_status in counts.items():
        kept = {k: n for k, n in by_status.items() if k not in ("total", "score") and n}
        total = sum(kept.values())
        detected = sum(kept.get(s, 0) for s in DETECTED)
        scores[module] = {**kept, "total": total, "score": round(detected / total, 4)}
    return scores, survivors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", choices=sorted(TARGETS))
    parser.add_argument("--module", help="mutate only this module of the target (e.g. state)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--workdir", type=Path, help="where to copy the repository and run")
    parser.add_argument("--reuse", action="store_true", help="keep mutmut's earlier results")
    parser.add_argument(
        "--survivors",
        action="store_true",
        help="run again only the last run's survivors, against the tests as they are now",
    )
    args = parser.parse_args()
    target = TARGETS[args.target]
    modules = target.modules
    if args.module:
        modules = tuple(m for m in modules if Path(m).stem == args.module)
        if not modules:
            parser.error(f"{args.target} has no module {args.module!r}")
    workdir = args.workdir or Path("/tmp/cardtable-mutation") / args.target
    if args.survivors:
        scores, survivors = rerun_survivors(workdir, target, modules, args.jobs)
    else:
        if args.reuse:
            refresh_copies(workdir, modules)
        else:
            shutil.rmtree(workdir / "mutants", ignore_errors=True)
        prepare(workdir)
        configure(workdir, modules, target.tests)
        mutmut(workdir, "run", "--max-children", str(args.jobs))
        names = [s["mutant"] for s in summarize(workdir, modules, with_diffs=False)[1]]
        if names:  # again, each importing afresh: code run at import is mutated too
            run_afresh(workdir, modules, target.tests, names, args.jobs)
        scores, survivors = summarize(workdir, modules)
    write_summary(workdir, modules, scores, survivors)
    for module, counts in scores.items():
        print(f"{module}: {counts}")
    for survivor in survivors:
        print(survivor["diff"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
