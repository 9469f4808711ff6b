"""Showing a balance run in the terminal: one summary row per configuration,
then each configuration's seats, positions and bot levels.

Every figure is shown with its 95% interval in brackets; ``p`` is the test
against the fair value (small ``p``: the seat or bot is not at its fair share).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from cardtable.core.game import JSON


def pct(figure: dict[str, Any]) -> str:
    """``52.1% [49.0–55.2]`` for a share with its interval."""
    return _share_text(figure["share"], figure["ci95"])


def num(mean: float, ci: list[float], digits: int = 1) -> str:
    return f"{mean:.{digits}f} [{ci[0]:.{digits}f}–{ci[1]:.{digits}f}]"


def p_value(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _table(title: str) -> Table:
    return Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )


def summary_rows(config: dict[str, Any]) -> list[tuple[str, str]]:
    """(figure, value) for the headline figure of each question about one configuration."""
    length, decisive, choice = config["length"], config["decisiveness"], config["choice"]
    holes = sum(config["holes"][k] for k in ("turn_limit", "no_legal_move", "error"))
    return [
        ("games finished", f"{config['finished']} of {config['games']}"),
        ("seats: χ² test p", p_value(config["seats"]["chi_square"]["p"])),
        ("first mover wins", pct(config["positions"]["rows"][0])),
        ("rounds per game", num(length["rounds"]["mean"], length["rounds"]["ci95"])),
        ("decisions per game", num(length["decisions"]["mean"], length["decisions"]["ci95"], 0)),
        (
            "decisions 5–95%",
            "–".join(f"{length['decisions']['percentiles'][q]:.0f}" for q in ["5", "95"]),
        ),
        ("at the turn limit", pct(length["turn_limit"])),
        ("ties", pct(decisive["ties"])),
        ("margin of victory", num(decisive["margin"]["mean"], decisive["margin"]["ci95"])),
        ("winner trailed", pct(decisive["winner_trailed"])),
        (
            "lead changes",
            num(decisive["lead_changes"]["mean"], decisive["lead_changes"]["ci95"], 2),
        ),
        (
            "points per round",
            num(config["scores"]["overall"]["mean"], config["scores"]["overall"]["ci95"], 2),
        ),
        *(
            (f"branching, {phase}", num(f["branching"], f["branching_ci95"], 2))
            for phase, f in choice["phases"].items()
        ),
        *(
            (f"forced, {phase}", _share_text(f["forced_share"], f["forced_ci95"]))
            for phase, f in choice["phases"].items()
        ),
        ("rule holes", str(holes)),
    ]


def _share_text(value: float, ci: list[float]) -> str:
    return f"{100 * value:.1f}% [{100 * ci[0]:.1f}–{100 * ci[1]:.1f}]"


def summary_tables(results: dict[str, JSON], width: int) -> list[Table]:
    """One column per configuration, one row per figure; as many tables as it
    takes for every column to fit ``width`` whole (a truncated heading would
    leave the configurations impossible to tell apart). A heading shows one
    option a line."""
    columns = [summary_rows(c) for c in results["configs"]]
    figures = [figure for figure, _ in columns[0]]
    headings = [config["label"].replace(" ", "\n") for config in results["configs"]]
    title = (
        f"{results['title']}: {results['games']} games per configuration,"
        f" seed {results['seed']} (value [95% interval])"
    )

    def table_of(group: list[int], titled: bool) -> Table:
        table = _table(title if titled else "")
        table.add_column("", no_wrap=True)
        for at in group:
            table.add_column(headings[at], justify="right", no_wrap=True)
        for row, figure in enumerate(figures):
            table.add_row(figure, *(columns[at][row][1] for at in group))
        return table

    # Rich measures the table as it will draw it (edges, padding, the
    # widest value of each column), so no cell is cut to "…" whatever the
    # figures come to; the title wraps and is left out of the measure.
    unbounded = Console(width=1 << 16)

    def fits(group: list[int]) -> bool:
        needed = Measurement.get(unbounded, unbounded.options, table_of(group, False))
        return needed.maximum <= width

    groups: list[list[int]] = [[]]
    for at in range(len(columns)):
        if groups[-1] and not fits([*groups[-1], at]):
            groups.append([])
        groups[-1].append(at)
    return [table_of(group, titled=not index) for index, group in enumerate(groups)]


def seat_table(config: dict[str, Any]) -> Table:
    """Wins and points by seat, and by position after the first mover where
    that seat varies (where it does not, positions are the seats renamed)."""
    fair = config["seats"]["fair_share"]
    first = config["first_movers"]
    moved = (
        f"seat {first[0]} moved first in every game"
        if len(first) == 1
        else "position 0 moved first"
    )
    table = _table(
        f"{config['label']}: {config['finished']} finished games, {moved};"
        f" fair share {100 * fair:.1f}%, p: test against it"
    )
    keys = ["seats"] if len(first) == 1 else ["seats", "positions"]
    table.add_column("", no_wrap=True)
    for key in keys:
        name = key[:-1]
        for heading in (f"{name} wins", "p", "points/game"):
            table.add_column(heading, justify="right", no_wrap=True)
    for at in range(len(config["seats"]["rows"])):
        cells = [str(at)]
        for key in keys:
            row = config[key]["rows"][at]
            cells += [
                pct(row),
                p_value(row["p_fair"]),
                num(row["points_per_game"], row["points_ci95"]),
            ]
        table.add_row(*cells)
    return table


def skill_table(config: dict[str, Any]) -> Table | None:
    """Each bot's wins per seat it holds, and how often it finished ahead of each other bot."""
    skill = config["skill"]
    if skill is None:
        return None
    table = _table(
        f"{config['label']}: skill (wins per seat held; fair {100 * skill['fair_share']:.1f}%)"
    )
    levels = [row["bot"] for row in skill["levels"]]
    for heading in ("bot", "seats", "wins", "p", *(f"ahead of {b[:9]}" for b in levels)):
        table.add_column(heading, justify="right", no_wrap=True)
    ahead = {(a["bot"], a["against"]): a for a in skill["ahead"]}
    for row in skill["levels"]:
        cells = ["—" if b == row["bot"] else pct(ahead[row["bot"], b]) for b in levels]
        table.add_row(row["bot"], str(row["seats"]), pct(row), p_value(row["p_fair"]), *cells)
    return table


def holes_lines(config: dict[str, Any]) -> list[str]:
    holes = config["holes"]
    listed = holes["games"][:5]
    lines = [
        f"{config['label']}: rule hole in game {h['game']} ({h['end']}): {h['detail']}"
        + (f" — record {h['record']}" if h["record"] else "")
        for h in listed
    ]
    if len(holes["games"]) > len(listed):
        lines.append(f"{config['label']}: … and {len(holes['games']) - len(listed)} more")
    return lines


def print_report(console: Console, results: dict[str, JSON]) -> None:
    for table in summary_tables(results, console.width):
        console.print(table)
    for config in results["configs"]:
        console.print(seat_table(config))
        skill = skill_table(config)
        if skill is not None:
            console.print(skill)
        for line in holes_lines(config):
            console.print(line)
