"""The study of docs/balance.md, reproduced: every row's command, run and tabled.

    python benchmarks/balance_study.py [--out DIR] [--scale 1.0] [--only seats handicap target]

Each row is one ``cardtable balance … --json --save DIR/<row>`` run under
``nice -n 15`` (the runs resume from DIR if interrupted). The tables are
printed as Markdown, each row with its command and the games it played;
``--scale`` multiplies every game count (0.1 for a quick look). Each row runs
on two local processes (``-j 2``; the figures are the same with any number).
The reports stay in DIR: commit none of them.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PLAYERS = (2, 3, 4, 5)
# (row name, arguments after `cardtable balance`, games per configuration)
SEATS = [
    (f"seats-{game}-{n}p", [game, "-p", str(n)], games)
    for game, games in (("marshmallow-test", 2000), ("myrummy-111", 1000))
    for n in PLAYERS
]
HANDICAP = [
    (
        "handicap-myrummy-111",
        [
            "myrummy-111",
            "-p",
            "2",
            "--bots",
            "heuristic,pimc",
            "--iterations",
            "16",
            "--fixed-seats",
            "--sweep",
            "hand_sizes=[12,12],[12,13],[12,14]",
        ],
        100,
    )
]
TARGET = [
    (
        "target-marshmallow-test",
        [
            "marshmallow-test",
            "-p",
            "4",
            "--bots",
            "heuristic,random,heuristic,random",
            "--sweep",
            "target=10,20,30,40",
            "--sweep",
            "trump_after_ruff=may,must",
        ],
        1000,
    )
]
ROWS = {"seats": SEATS, "handicap": HANDICAP, "target": TARGET}


def run(name: str, args: list[str], games: int, out: Path) -> tuple[str, dict[str, Any], float]:
    """One row: its command as a reader would type it, its results and CPU seconds."""
    command = ["cardtable", "balance", *args, "--games", str(games), "--seed", "1", "-j", "2"]
    shown = shlex.join(command)
    save = out / name
    full = ["nice", "-n", "15", *command, "--save", str(save), "--json", "--quiet"]
    start = time.process_time()
    before = _children_cpu()
    done = subprocess.run(full, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{shown}: {done.stderr.strip()}")
    cpu = _children_cpu() - before + time.process_time() - start
    return shown, json.loads(done.stdout), cpu


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ci(figure: dict[str, Any], digits: int = 1, scale: float = 100.0) -> str:
    low, high = figure["ci95"]
    value = figure["share"] if "share" in figure else figure["mean"]
    return f"{scale * value:.{digits}f} [{scale * low:.{digits}f}–{scale * high:.{digits}f}]"


def p_text(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def seats_table(rows: list[tuple[str, dict[str, Any], float]]) -> None:
    print(
        "| game | players | games | win % by seat (seat 0 moves first) [95% CI] | χ² p |"
        " rounds | decisions | command |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for command, results, _ in rows:
        (c,) = results["configs"]
        seats = "; ".join(f"{at}: {ci(r)}" for at, r in enumerate(c["positions"]["rows"]))
        length = c["length"]
        print(
            f"| {results['title']} | {c['varied']['players']} | {c['games']} | {seats} |"
            f" {p_text(c['positions']['chi_square']['p'])} |"
            f" {ci(length['rounds'], 2, 1)} | {ci(length['decisions'], 0, 1)} | `{command}` |"
        )


def per_config_tables(
    rows: list[tuple[str, dict[str, Any], float]],
    columns: list[str],
    cells: Callable[[dict[str, Any]], list[str]],
) -> None:
    """For each row (a run with a sweep), its command, then a Markdown table
    with one line per configuration: ``cells`` gives that line's columns."""
    for command, results, _ in rows:
        print(f"`{command}`\n")
        print(_markdown_line(columns))
        print("|" + "---|" * len(columns))
        for c in results["configs"]:
            print(_markdown_line(cells(c)))


def _markdown_line(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def handicap_table(rows: list[tuple[str, dict[str, Any], float]]) -> None:
    def cells(c: dict[str, Any]) -> list[str]:
        weak = next(r for r in c["skill"]["levels"] if r["bot"] == "heuristic")
        seat0, seat1 = c["seats"]["rows"]
        return [
            json.dumps(c["varied"]["hand_sizes"]),
            str(c["games"]),
            ci(weak),
            p_text(weak["p_fair"]),
            f"{seat0['points_per_game']:.1f}",
            f"{seat1['points_per_game']:.1f}",
            ci(c["length"]["rounds"], 2, 1),
        ]

    columns = [
        "hand_sizes (heuristic, pimc)",
        "games",
        "heuristic wins % [95% CI]",
        "p (fair 50%)",
        "heuristic points/game",
        "pimc points/game",
        "rounds",
    ]
    per_config_tables(rows, columns, cells)


def target_table(rows: list[tuple[str, dict[str, Any], float]]) -> None:
    def cells(c: dict[str, Any]) -> list[str]:
        levels = {r["bot"]: r for r in c["skill"]["levels"]}
        ahead = next(a for a in c["skill"]["ahead"] if a["bot"] == "heuristic")
        return [
            str(c["varied"]["target"]),
            str(c["varied"]["trump_after_ruff"]),
            str(c["games"]),
            ci(c["length"]["rounds"], 2, 1),
            ci(c["length"]["decisions"], 0, 1),
            ci(levels["heuristic"]),
            ci(levels["random"]),
            ci(ahead),
            ci(c["decisiveness"]["winner_trailed"]),
        ]

    columns = [
        "target",
        "trump_after_ruff",
        "games",
        "rounds",
        "decisions",
        "heuristic wins % per seat [CI]",
        "random wins % per seat [CI]",
        "heuristic ahead of random % [CI]",
        "winner trailed % [CI]",
    ]
    per_config_tables(rows, columns, cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("balance-study"))
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    parser.add_argument("--only", nargs="+", choices=sorted(ROWS), default=list(ROWS))
    args = parser.parse_args()
    tables = {"seats": seats_table, "handicap": handicap_table, "target": target_table}
    total = 0.0
    for part in args.only:
        done = []
        for name, row_args, games in ROWS[part]:
            done.append(run(name, row_args, max(1, round(games * args.scale)), args.out))
            total += done[-1][2]
            print(f"<!-- {name}: {done[-1][2]:.0f} CPU seconds -->", flush=True)
        print()
        tables[part](done)
        print(flush=True)
    print(f"<!-- the study took {total / 60:.1f} CPU minutes -->")


if __name__ == "__main__":
    main()
