"""``cardtable balance``: a game designer's questions, answered by self-play.

Only argument handling and display live here; the work is
:func:`cardtable.balance.run_balance`. Bad arguments are one ``error:`` line
and exit 2, worded as ``play`` and ``arena`` word them.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardtable.arena.pool import RayError
from cardtable.balance import BalanceError, parse_sweep, plan_run, run_balance
from cardtable.balance.html import report_html
from cardtable.balance.plan import MAX_DECISIONS
from cardtable.balance.report import print_report
from cardtable.cli import selfplay
from cardtable.cli.common import fail, game_option_flag, parse_options
from cardtable.cli.game_options import read_file_options
from cardtable.core.extras import install_command


def balance(
    ctx: typer.Context,
    game_name: selfplay.GameArgument,
    players: Annotated[
        list[int] | None,
        typer.Option("--players", "-p", help="a player count, repeatable (default: the game's)"),
    ] = None,
    option: Annotated[
        list[str] | None, game_option_flag("a game option fixed for every configuration")
    ] = None,
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            metavar="KEY=V1,V2,…",
            help="an option's values to compare, repeatable (each combination is a configuration)",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help="one bot per seat, comma-separated, rotated over each deal's games"
            " (default: heuristic at every seat)",
        ),
    ] = None,
    fixed_seats: Annotated[
        bool,
        typer.Option(
            "--fixed-seats",
            help="keep each bot at its seat instead of rotating (for per-seat handicaps)",
        ),
    ] = False,
    games: Annotated[int, typer.Option("--games", "-n", help="games per configuration")] = 200,
    seed: selfplay.Seed = None,
    jobs: selfplay.Jobs = 1,
    ray: selfplay.RayAddress = None,
    save: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            help="keep finished games there (a rerun resumes), write balance.json and report.html",
        ),
    ] = None,
    budget_ms: Annotated[
        float | None, typer.Option("--budget-ms", help="search bots' time per decision, ms")
    ] = None,
    iterations: selfplay.Iterations = None,
    max_decisions: Annotated[
        int | None,
        typer.Option(
            help="a game still running after this many decisions is a rule hole"
            f" (default: the most the game declares, else {MAX_DECISIONS})"
        ),
    ] = None,
    json_output: selfplay.JsonOutput = False,
    quiet: selfplay.Quiet = False,
) -> None:
    """Self-play to measure a game's balance: seats, length, drama, choice, skill, rule holes."""
    options = parse_options(option or [])
    options.update(read_file_options(ctx, game_name))
    budget = selfplay.search_budget(budget_ms, iterations)
    if save is not None and not selfplay.installed("matplotlib"):
        raise fail(f"--save writes charts with matplotlib: {install_command('arena')}")
    if ray is not None and not selfplay.installed("ray"):
        raise fail(f"--ray needs ray: {install_command('ray')}")
    names = None if bots is None else [name.strip() for name in bots.split(",")]
    if save is not None:
        stopped = (
            f"stopped before the end; the finished chunks are kept in {save}:"
            " run the same command again to resume"
        )
    else:
        stopped = "stopped before the end; nothing counted (--save DIR keeps a run)"
    with selfplay.run_errors((BalanceError, RayError), stopped):
        sweeps = [parse_sweep(text) for text in sweep or []]
        spec = plan_run(
            game_name,
            players=players or [],
            options=options,
            sweeps=sweeps,
            bots=names,
            games=games,
            budget=budget,
            max_decisions=max_decisions,
            keep_holes=save is not None,
            fixed_seats=fixed_seats,
        )
        total = games * len(spec.configs)
        with selfplay.progress_bar(Console(stderr=True), total, quiet) as advance:
            run = run_balance(
                spec,
                games=games,
                seed=seed,
                jobs=jobs,
                ray_address=ray,
                save_dir=save,
                on_progress=advance,
            )

    if save is not None:
        # The command as typed, for the report; not shown when called in-process.
        typed = sys.argv[1:2] == ["balance"]
        command = shlex.join(["cardtable", *sys.argv[1:]]) if typed else ""
        try:
            (save / "balance.json").write_text(
                json.dumps(run.results, indent=2) + "\n", encoding="utf-8"
            )
            (save / "report.html").write_text(report_html(run.results, command), encoding="utf-8")
        except OSError as exc:
            raise selfplay.write_failed(exc) from None
    if json_output:
        sys.stdout.write(json.dumps(run.results) + "\n")
    else:
        print_report(Console(highlight=False), run.results)
    if save is not None:
        resumed = f" ({run.resumed} games read back from the earlier run)" if run.resumed else ""
        selfplay.note(f"wrote balance.json and report.html to {save}{resumed}")
