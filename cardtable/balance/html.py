"""``report.html``: the run in one self-contained file, charts embedded as PNG.

Every chart plots each figure against the configurations (for a sweep, the
option's values) with its 95% interval as error bars. matplotlib is imported
here, with the Agg backend, only when a report is written (the ``arena``
extra); the tables are the terminal's numbers as HTML.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.balance.measure import PHASES
from cardtable.balance.report import num, p_value, pct, summary_rows
from cardtable.core.game import JSON

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border-bottom: 1px solid #ccc; padding: 0.2em 0.7em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
img { max-width: 100%; display: block; margin: 0.5em 0 1.5em; }
code { background: #f3f3f3; padding: 0 0.3em; }
"""


def _errorbar(
    axis: Any, xs: Sequence[float], figures: Sequence[tuple[float, Sequence[float]]], **style: Any
) -> None:
    """Points with asymmetric 95% error bars: ``figures`` are (value, [low, high])."""
    values = [v for v, _ in figures]
    below = [max(0.0, v - ci[0]) for v, ci in figures]
    above = [max(0.0, ci[1] - v) for v, ci in figures]
    axis.errorbar(xs, values, yerr=[below, above], capsize=4, marker="o", **style)


def _shift(at: int, count: int) -> float:
    """Where series ``at`` of ``count`` sits beside its configuration's tick."""
    return 0.3 * (at / (count - 1) - 0.5) if count > 1 else 0.0


def _png(draw: Callable[[Any], None], panels: int, labels: Sequence[str] | None) -> str:
    """One figure of ``panels`` side by side, drawn by ``draw(axes)``, as base64
    PNG; with ``labels`` the x axis of every panel is the configurations."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    width = max(5.0, 0.7 * len(labels) + 3.0) if labels is not None else 8.0
    # Wide sweeps get their panels one under another instead of a page too wide to read.
    rows, columns = (panels, 1) if width * panels > 16 else (1, panels)
    fig, grid = plt.subplots(rows, columns, figsize=(width * columns, 3.8 * rows), squeeze=False)
    axes = [axis for row in grid for axis in row]
    try:
        draw(axes)
        for axis in axes:
            if labels is not None:
                axis.set_xticks(range(len(labels)))
                axis.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
                axis.set_xlim(-0.5, len(labels) - 0.5)
            axis.grid(alpha=0.3)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=90)
    finally:
        plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def short_labels(results: dict[str, Any]) -> list[str]:
    """The configurations named by what differs between them only.

    >>> short_labels({"varied": ["players", "target"], "configs": [
    ...     {"varied": {"players": 4, "target": 10}}, {"varied": {"players": 4, "target": 20}}]})
    ['target=10', 'target=20']
    """
    configs = results["configs"]
    keys = [
        key
        for key in results["varied"]
        if len({json.dumps(c["varied"].get(key)) for c in configs}) > 1
    ] or ["players"]
    return [" ".join(f"{k}={json.dumps(c['varied'][k])}" for k in keys) for c in configs]


def charts(results: dict[str, Any]) -> list[tuple[str, str]]:
    """(caption, base64 PNG) for every figure of the run."""
    configs = results["configs"]
    labels = short_labels(results)
    xs = list(range(len(configs)))
    most = max(len(c["positions"]["rows"]) for c in configs)
    found = []

    def seats(axes: Any) -> None:
        for axis, key, name in ((axes[0], "seats", "seat"), (axes[1], "positions", "position")):
            for at in range(most):
                rows = [c[key]["rows"][at] if at < len(c[key]["rows"]) else None for c in configs]
                shown = [(x, r) for x, r in zip(xs, rows, strict=True) if r is not None]
                _errorbar(
                    axis,
                    [x + _shift(at, most) for x, _ in shown],
                    [(r["share"], r["ci95"]) for _, r in shown],
                    label=f"{name} {at}",
                )
            axis.scatter(
                xs,
                [c[key]["fair_share"] for c in configs],
                marker="_",
                s=400,
                color="red",
                label="fair share",
            )
            axis.set_title(
                f"win rate by {name} (position 0 moved first)"
                if name == "position"
                else "win rate by seat"
            )
            axis.legend(fontsize=7)

    found.append(
        (
            "Seat and order advantage: win rate with 95% interval, against the fair share",
            _png(seats, 2, labels),
        )
    )

    def length(axes: Any) -> None:
        for axis, key in ((axes[0], "rounds"), (axes[1], "decisions")):
            figure = [c["length"][key] for c in configs]
            _errorbar(axis, xs, [(f["mean"], f["ci95"]) for f in figure], label="mean")
            for percentile, marker in (("5", "v"), ("95", "^")):
                axis.scatter(
                    xs,
                    [f["percentiles"][percentile] for f in figure],
                    marker=marker,
                    color="grey",
                    label=f"{percentile}th percentile",
                )
            axis.set_title(f"{key} per game")
            axis.legend(fontsize=7)
        shares = [c["length"]["turn_limit"] for c in configs]
        _errorbar(axes[2], xs, [(s["share"], s["ci95"]) for s in shares], color="tab:red")
        axes[2].set_title("share of games at the turn limit")

    found.append(
        (
            "Length: rounds and decisions per game"
            " (mean with 95% interval, 5th and 95th percentiles)",
            _png(length, 3, labels),
        )
    )

    def histograms(axes: Any) -> None:
        for c in configs:
            hist = c["length"]["decisions"]["histogram"]
            if hist["counts"]:
                axes[0].stairs(hist["counts"], hist["edges"], label=c["label"])
        axes[0].set_title("decisions per game: histogram")
        axes[0].set_xlabel("decisions")
        axes[0].set_ylabel("games")
        axes[0].legend(fontsize=7)

    found.append(("Length: histogram of decisions per game", _png(histograms, 1, None)))

    def decisive(axes: Any) -> None:
        for key, name in (("ties", "ties"), ("winner_trailed", "winner trailed after some round")):
            _errorbar(
                axes[0],
                xs,
                [
                    (c["decisiveness"][key]["share"], c["decisiveness"][key]["ci95"])
                    for c in configs
                ],
                label=name,
            )
        axes[0].set_title("share of games")
        axes[0].legend(fontsize=7)
        for key, name in (("margin", "margin of victory"), ("lead_changes", "lead changes")):
            _errorbar(
                axes[1],
                xs,
                [(c["decisiveness"][key]["mean"], c["decisiveness"][key]["ci95"]) for c in configs],
                label=name,
            )
        axes[1].set_title("per game (mean)")
        axes[1].legend(fontsize=7)

    found.append(("Decisiveness and drama", _png(decisive, 2, labels)))

    def scores(axes: Any) -> None:
        stats = []
        for c in configs:
            p = c["scores"]["overall"]["percentiles"]
            stats.append(
                {
                    "med": p["50"],
                    "q1": p["25"],
                    "q3": p["75"],
                    "whislo": p["5"],
                    "whishi": p["95"],
                    "mean": c["scores"]["overall"]["mean"],
                }
            )
        axes[0].bxp(stats, positions=xs, showmeans=True, showfliers=False)
        axes[0].set_title("points in one round, all seats (box 25–75%, whiskers 5–95%)")

    found.append(("Scores per round", _png(scores, 1, labels)))

    def choice(axes: Any) -> None:
        for at, phase in enumerate(PHASES):
            figure = [c["choice"]["phases"][phase] for c in configs]
            shifted = [x + _shift(at, len(PHASES)) for x in xs]
            _errorbar(
                axes[0],
                shifted,
                [(f["branching"], f["branching_ci95"]) for f in figure],
                label=phase,
            )
            _errorbar(
                axes[1],
                shifted,
                [(f["forced_share"], f["forced_ci95"]) for f in figure],
                label=phase,
            )
        axes[0].set_title("branching factor (legal moves per decision)")
        axes[1].set_title("share of forced decisions (one legal move)")
        axes[0].legend(fontsize=7)
        axes[1].legend(fontsize=7)

    found.append(
        ("Choice, by phase of the round (thirds of its decisions)", _png(choice, 2, labels))
    )

    if any(c["skill"] is not None for c in configs):

        def skill(axes: Any) -> None:
            bots = list(
                dict.fromkeys(r["bot"] for c in configs if c["skill"] for r in c["skill"]["levels"])
            )
            for at, bot in enumerate(bots):
                shown = [
                    (x + _shift(at, len(bots)), row)
                    for x, c in zip(xs, configs, strict=True)
                    if c["skill"]
                    for row in c["skill"]["levels"]
                    if row["bot"] == bot
                ]
                _errorbar(
                    axes[0],
                    [x for x, _ in shown],
                    [(r["share"], r["ci95"]) for _, r in shown],
                    label=bot,
                )
            axes[0].scatter(
                xs,
                [c["seats"]["fair_share"] for c in configs],
                marker="_",
                s=400,
                color="red",
                label="fair share",
            )
            axes[0].set_title("wins per seat held, by bot")
            axes[0].legend(fontsize=7)

        found.append(("Skill gradient in mixed tables", _png(skill, 1, labels)))
    return found


def _rows(headings: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headings)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _config_tables(c: dict[str, Any]) -> str:
    parts = [f"<h3>{html.escape(c['label'])}: {c['finished']} of {c['games']} games finished</h3>"]
    seat_rows = [
        [
            str(at),
            pct(s),
            p_value(s["p_fair"]),
            num(s["points_per_game"], s["points_ci95"]),
            pct(p),
            p_value(p["p_fair"]),
        ]
        for at, (s, p) in enumerate(zip(c["seats"]["rows"], c["positions"]["rows"], strict=True))
    ]
    parts.append(_rows(["", "seat wins", "p", "points/game", "position wins", "p"], seat_rows))
    chi = c["seats"]["chi_square"]
    parts.append(
        f"<p>Seats together: χ² = {chi['statistic']:.2f}, df {chi['df']},"
        f" p {p_value(chi['p'])}.</p>"
    )
    if c["skill"] is not None:
        skill_rows = [
            [r["bot"], str(r["seats"]), pct(r), p_value(r["p_fair"])] for r in c["skill"]["levels"]
        ]
        skill_rows += [
            [f"{a['bot']} ahead of {a['against']}", "", pct(a), ""] for a in c["skill"]["ahead"]
        ]
        parts.append(_rows(["bot", "seats", "wins per seat held", "p"], skill_rows))
    trailed = c["decisiveness"]["winner_trailed_after_round"]
    if trailed:
        parts.append(
            _rows(
                ["after round", "eventual winner behind", "games still going"],
                [[str(r + 1), pct(t), str(t["of"])] for r, t in enumerate(trailed)],
            )
        )
    holes = c["holes"]["games"]
    if holes:
        hole_rows = [[str(h["game"]), h["end"], h["detail"], h["record"] or ""] for h in holes[:50]]
        parts.append(_rows(["game", "end", "what happened", "record"], hole_rows))
    return "\n".join(parts)


def report_html(results: dict[str, JSON], command: str = "") -> str:
    """The whole report as one HTML page."""
    columns = [summary_rows(c) for c in results["configs"]]
    headings = ["", *(c["label"] for c in results["configs"])]
    summary = _rows(
        headings,
        [
            [figure, *(column[at][1] for column in columns)]
            for at, (figure, _) in enumerate(columns[0])
        ],
    )
    figures = "\n".join(
        f'<h3>{html.escape(caption)}</h3><img alt="{html.escape(caption)}"'
        f' src="data:image/png;base64,{png}">'
        for caption, png in charts(results)
    )
    title = f"{results['title']}: balance"
    ran = f"<p>Command: <code>{html.escape(command)}</code></p>" if command else ""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        f"<style>{CSS}</style></head><body>\n<h1>{html.escape(title)}</h1>\n{ran}"
        f"<p>{results['games']} games per configuration, seed {results['seed']}."
        " Every figure: value [95% interval]; p: two-sided test against the fair share.</p>\n"
        f"<h2>Summary</h2>\n{summary}\n<h2>Charts</h2>\n{figures}\n<h2>Configurations</h2>\n"
        + "\n".join(_config_tables(c) for c in results["configs"])
        + "\n</body></html>\n"
    )
