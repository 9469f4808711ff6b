"""``cardtable arena``: bots against bots over many games, with a results table.

Only argument handling and display live here; the work is
:func:`cardtable.arena.run_arena`. Bad arguments are one ``error:`` line and
exit 2, like the other commands.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardtable.arena import ArenaError, run_arena
from cardtable.arena.pool import RayError
from cardtable.arena.report import print_tables, results_json, write_chart
from cardtable.cli import selfplay
from cardtable.cli.common import fail, game_option_flag, parse_options
from cardtable.cli.game_options import read_file_options
from cardtable.core.extras import install_command

ARENA_EXTRA = f"the arena needs openskill and matplotlib: {install_command('arena')}"
RAY_EXTRA = f"--ray needs ray: {install_command('ray')}"


def arena(
    ctx: typer.Context,
    game_name: selfplay.GameArgument,
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", help="one bot per seat, comma-separated: heuristic,random"),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="games to play in all")] = 100,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="seats (default: the number of bots)")
    ] = None,
    seed: selfplay.Seed = None,
    jobs: selfplay.Jobs = 1,
    ray: selfplay.RayAddress = None,
    option: Annotated[list[str] | None, game_option_flag()] = None,
    budget_ms: Annotated[
        float | None, typer.Option("--budget-ms", help="thinking time per decision, milliseconds")
    ] = None,
    iterations: selfplay.Iterations = None,
    json_output: selfplay.JsonOutput = False,
    save: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="write every game's record, results.json and results.png"),
    ] = None,
    chart: Annotated[Path | None, typer.Option(metavar="FILE", help="write the PNG chart")] = None,
    quiet: selfplay.Quiet = False,
) -> None:
    """Play bots against each other with duplicate deals and rotated seats."""

    options = parse_options(option or [])
    options.update(read_file_options(ctx, game_name))
    names = [name.strip() for name in bots.split(",")]
    if players is not None:
        options["players"] = players
    options.setdefault("players", len(names))
    budget = selfplay.search_budget(budget_ms, iterations)
    if not selfplay.installed("openskill", "matplotlib"):
        raise fail(ARENA_EXTRA)
    if ray is not None and not selfplay.installed("ray"):
        raise fail(RAY_EXTRA)

    with (
        selfplay.run_errors((ArenaError, RayError), "stopped before the end; nothing counted"),
        selfplay.progress_bar(Console(stderr=True), games, quiet) as advance,
    ):
        run = run_arena(
            game_name,
            names,
            games=games,
            seed=seed,
            options=options,
            budget=budget,
            jobs=jobs,
            ray_address=ray,
            save_dir=save,
            on_result=lambda task, result: advance(1),
        )

    results = results_json(run.info, run.stats)
    try:
        if save is not None:
            text = json.dumps(results, indent=2) + "\n"
            (save / "results.json").write_text(text, encoding="utf-8")
            write_chart(save / "results.png", run.info, run.stats)
        if chart is not None:
            write_chart(chart, run.info, run.stats)
    except OSError as exc:
        raise selfplay.write_failed(exc) from None
    if run.info.games % run.info.seats and not quiet:
        selfplay.note(
            f"note: {run.info.games} games for {run.info.seats} seats: the last deal was not "
            "played in every rotation; use a multiple of the seats for fully duplicate deals"
        )
    if json_output:
        sys.stdout.write(json.dumps(results) + "\n")
    else:
        print_tables(Console(highlight=False), run.info, run.stats)
    written = _written(save, chart, run.info.games)
    if written:
        selfplay.note(written)


def _written(save: Path | None, chart: Path | None, games: int) -> str:
    """What ``--save`` and ``--chart`` wrote, in one or two lines."""
    lines = []
    if save is not None:
        last = f" to game-{games:05d}.json" if games > 1 else ""
        lines.append(
            f"wrote {games} record{'s' if games != 1 else ''} (game-00001.json{last}),"
            f" results.json and the chart results.png to {save}"
        )
    if chart is not None:
        lines.append(f"wrote the chart to {chart}")
    return "\n".join(lines)
