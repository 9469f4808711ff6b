"""How strong the generic search bot (``search``) is: on the plugin fixture
game, and on each built-in game beside its tuned ``pimc``, both against the
game's ``heuristic`` on the same duplicate deals.

    PYTHONPATH=. nice -n 10 python benchmarks/bench_generic_search.py [--budget-ms 50] \\
        [--jobs 2] [--only GROUP] [--bot NAME] [--games N] [--json]

GROUP is ``fixture``, ``marshmallow-test``, ``myrummy-111`` or
``myrummy-111-hard`` (500 ms a move); each group runs in under ten minutes
on two shared cores. ``--bot`` keeps the rows whose first bot is NAME (say
``search`` alone, the ``pimc`` rows being unchanged by it); ``--games`` caps
each row's games (same seed, so the first N deals of the full row).

Every row is one arena run (:func:`cardtable.arena.run_arena`: duplicate
deals, each dealt once per seat rotation; a shared win counts ``1/k``) with
the arena's 95% Wilson interval. The search bots get ``--budget-ms`` a move
(the heuristic, random and ``lowest`` ignore it), so the rows vary a little
with the machine's load. The fixture game (``tests/fixtures/fixture_trick``,
installed as a plugin by :mod:`tests.bots.plugin`, in its resampling twin)
has no heuristic: its rows are against ``random`` and its one bot,
``lowest``. A row's pair (``search`` and ``pimc``) uses the same seed, so the
same deals.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass

from cardtable.arena import run_arena
from cardtable.bots import Budget
from tests.bots.plugin import NAME as FIXTURE
from tests.bots.plugin import registered


@dataclass(frozen=True)
class Row:
    group: str
    game: str
    bots: tuple[str, ...]
    games: int
    seed: int = 1
    budget_ms: float | None = None  # None: --budget-ms

    @property
    def label(self) -> str:
        others = self.bots[1:]
        against = others[0] if len(set(others)) == 1 else ", ".join(others)
        many = f"{len(others)} × " if len(others) > 1 else ""
        return f"{self.game} {len(self.bots)}p: {self.bots[0]} vs {many}{against}"


ROWS = (
    Row("fixture", FIXTURE, ("search", "random"), 300),
    Row("fixture", FIXTURE, ("search", "lowest"), 300),
    Row("fixture", FIXTURE, ("search", "random", "random"), 300),
    Row("marshmallow-test", "marshmallow-test", ("search", "heuristic"), 100),
    Row("marshmallow-test", "marshmallow-test", ("pimc", "heuristic"), 100),
    Row("myrummy-111", "myrummy-111", ("search", "heuristic"), 60),
    Row("myrummy-111", "myrummy-111", ("pimc", "heuristic"), 60),
    # hard's budget: the generic bot needs it where a decision has dozens of moves
    Row("myrummy-111-hard", "myrummy-111", ("search", "heuristic"), 20, budget_ms=500),
    Row("myrummy-111-hard", "myrummy-111", ("pimc", "heuristic"), 20, budget_ms=500),
)


@dataclass(frozen=True)
class Result:
    match: str
    budget_ms: float
    games: int
    win_rate: float
    ci95: tuple[float, float]
    fair_share: float
    seconds: float

    def table_row(self) -> str:
        low, high = self.ci95
        return (
            f"| {self.match}, {self.budget_ms:g} ms a move | {self.games} |"
            f" {100 * self.win_rate:.1f}% | {100 * low:.1f}–{100 * high:.1f}% |"
            f" {100 * self.fair_share:.0f}% | {self.seconds:.0f} s |"
        )


def run_row(row: Row, budget_ms: float, jobs: int, games: int | None) -> Result:
    ms = budget_ms if row.budget_ms is None else row.budget_ms
    start = time.perf_counter()
    run = run_arena(
        row.game,
        list(row.bots),
        games=row.games if games is None else min(games, row.games),
        seed=row.seed,
        options={"players": len(row.bots)},
        budget=Budget(seconds=ms / 1000),
        jobs=jobs,
    )
    first = run.stats.entries[0]
    seconds = time.perf_counter() - start
    return Result(
        row.label, ms, first.games, first.win_rate, first.win_rate_ci95, 1 / len(row.bots), seconds
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-ms", type=float, default=50.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=sorted({row.group for row in ROWS}))
    parser.add_argument("--bot", help="only the rows whose first bot is this one")
    parser.add_argument("--games", type=int, help="at most this many games a row")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    with registered():
        for row in ROWS:
            if args.only is not None and row.group != args.only:
                continue
            if args.bot is not None and row.bots[0] != args.bot:
                continue
            result = run_row(row, args.budget_ms, args.jobs, args.games)
            results.append(result)
            if not args.json:
                print(result.table_row(), flush=True)
    if args.json:
        rows = [asdict(result) for result in results]
        print(json.dumps({"rows": rows}, indent=2))


if __name__ == "__main__":
    main()
