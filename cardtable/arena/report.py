"""Showing an arena run: the JSON object, the rich tables and the PNG chart.

The JSON holds only what the seed determines (no timings, no ``--jobs``), so
two runs with the same seed print identical JSON whatever the backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from cardtable.arena.stats import ArenaStats
from cardtable.bots import Budget
from cardtable.core.game import JSON

SCHEMA = "cardtable-arena/1"


@dataclass(frozen=True, slots=True)
class RunInfo:
    """What was asked for: enough to run it again."""

    game: str
    options: dict[str, JSON]  # every option as written in a record
    seed: int
    games: int
    seats: int
    budget: Budget | None


def results_json(info: RunInfo, stats: ArenaStats) -> dict[str, JSON]:
    """The ``--json`` object (schema in :mod:`cardtable.arena`)."""
    n = len(stats.entries)
    return {
        "schema": SCHEMA,
        "game": info.game,
        "options": info.options,
        "seed": info.seed,
        "games": info.games,
        "deals": -(-info.games // info.seats),
        "budget": None
        if info.budget is None
        else {"seconds": info.budget.seconds, "iterations": info.budget.iterations},
        "bots": [
            {
                "entry": e.entry,
                "bot": e.bot,
                "label": e.label,
                "games": e.games,
                "wins": e.wins,
                "win_rate": e.win_rate,
                "win_rate_ci95": list(e.win_rate_ci95),
                "points": e.points,
                "rounds": e.rounds,
                "points_per_round": e.points_per_round,
                "points_per_game": e.points_per_game,
                "rating": None
                if e.rating is None
                else {"mu": e.rating.mu, "sigma": e.rating.sigma, "ordinal": e.rating.ordinal},
            }
            for e in stats.entries
        ],
        "head_to_head": {
            "labels": [e.label for e in stats.entries],
            "ahead": [row[:] for row in stats.ahead],
            "games": [row[:] for row in stats.together],
            "rate": [[stats.ahead_rate(i, j) for j in range(n)] for i in range(n)],
        },
    }


def print_tables(console: Console, info: RunInfo, stats: ArenaStats) -> None:
    """The results table, then the head-to-head matrix."""
    fair = 1 / info.seats
    table = Table(
        title=f"{info.game}: {info.games} games, seed {info.seed} (fair share {fair:.1%})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    # Every entry plays every game, so the game count is in the title only.
    table.add_column("bot", no_wrap=True)
    for heading in ("wins", "win %", "95% CI", "pts/round", "pts/game", "mu", "ordinal"):
        table.add_column(heading, justify="right", no_wrap=True)
    for e in stats.entries:
        low, high = e.win_rate_ci95
        table.add_row(
            e.label,
            f"{e.wins:g}" if e.wins == int(e.wins) else f"{e.wins:.2f}",
            f"{100 * e.win_rate:.1f}",
            f"{100 * low:.1f}–{100 * high:.1f}",
            f"{e.points_per_round:.2f}",
            f"{e.points_per_game:.2f}",
            "" if e.rating is None else f"{e.rating.mu:.2f}",
            "" if e.rating is None else f"{e.rating.ordinal:.2f}",
        )
    console.print(table)
    console.print(head_to_head_table(stats))


def head_to_head_table(stats: ArenaStats) -> Table:
    h2h = Table(
        title="head to head: % of games row finished ahead of column",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    h2h.add_column("", no_wrap=True)
    for e in stats.entries:
        h2h.add_column(e.label, justify="right", no_wrap=True)
    for i, e in enumerate(stats.entries):
        cells = []
        for j in range(len(stats.entries)):
            rate = stats.ahead_rate(i, j)
            cells.append("—" if rate is None else f"{100 * rate:.1f}")
        h2h.add_row(e.label, *cells)
    return h2h


def write_chart(path: Path, info: RunInfo, stats: ArenaStats) -> None:
    """A PNG: win rates with 95% error bars against the fair share, and ratings.

    matplotlib is imported here, with the Agg backend, so the arena works on a
    machine without a display and nothing else pays for the import.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [e.label for e in stats.entries]
    xs = list(range(len(labels)))
    rates = [e.win_rate for e in stats.entries]
    lows = [e.win_rate - e.win_rate_ci95[0] for e in stats.entries]
    highs = [e.win_rate_ci95[1] - e.win_rate for e in stats.entries]
    fig, (left, right) = plt.subplots(1, 2, figsize=(max(8.0, 1.6 * len(labels) + 4), 4.5))
    try:
        left.bar(xs, rates, yerr=[lows, highs], capsize=6, color="tab:blue", alpha=0.8)
        left.axhline(1 / info.seats, color="tab:red", linestyle="--", label="fair share")
        left.set_title("win rate (95% Wilson interval)")
        left.set_ylim(0, 1)
        left.legend()
        _label_axis(left, xs, labels)
        rated = [e.rating for e in stats.entries]
        if all(r is not None for r in rated):
            mus = [r.mu for r in rated if r is not None]
            ordinals = [r.ordinal for r in rated if r is not None]
            right.bar(xs, mus, color="tab:green", alpha=0.7, label="mu")
            right.scatter(xs, ordinals, color="black", zorder=3, label="ordinal (mu − 3σ)")
            right.legend()
        right.set_title("OpenSkill Plackett-Luce rating")
        _label_axis(right, xs, labels)
        fig.suptitle(f"{info.game}: {info.games} games, seed {info.seed}")
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, format="png", dpi=100)
    finally:
        plt.close(fig)


def _label_axis(axis: Any, xs: Sequence[int], labels: Sequence[str]) -> None:
    axis.set_xticks(list(xs))
    axis.set_xticklabels(labels, rotation=20, ha="right")
