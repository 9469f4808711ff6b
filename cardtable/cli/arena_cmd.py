"""``cardtable arena``: bots against bots over many games, with a results table.

Only argument handling and display live here; the work is
:func:`cardtable.arena.run_arena`. Bad arguments are one ``error:`` line and
exit 2, like the other commands.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cardtable.arena import ArenaError, run_arena
from cardtable.arena.pool import RayError
from cardtable.arena.report import print_tables, results_json, write_chart
from cardtable.bots import Budget
from cardtable.cli.common import fail, parse_options
from cardtable.cli.game_options import read_file_options
from cardtable.core.errors import CardtableError
from cardtable.core.extras import install_command

ARENA_EXTRA = f"the arena needs openskill and matplotlib: {install_command('arena')}"
RAY_EXTRA = f"--ray needs ray: {install_command('ray')}"


def arena(
    ctx: typer.Context,
    game_name: Annotated[
        str, typer.Argument(metavar="GAME", help="the game (`cardtable games` lists them)")
    ],
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", help="one bot per seat, comma-separated: heuristic,random"),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="games to play in all")] = 100,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="seats (default: the number of bots)")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="seed for every deal and bot: a run replays exactly")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="local worker processes")] = 1,
    ray: Annotated[
        str | None,
        typer.Option("--ray", metavar="ADDRESS", help="run on a Ray cluster ('local' starts one)"),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="KEY=VALUE",
            help="a game option, repeatable (`cardtable games` lists them)",
        ),
    ] = None,
    budget_ms: Annotated[
        float | None, typer.Option("--budget-ms", help="thinking time per decision, milliseconds")
    ] = None,
    iterations: Annotated[int | None, typer.Option(help="search iterations per decision")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    save: Annotated[
        Path | None,
        typer.Option(metavar="DIR", help="write every game's record, results.json and results.png"),
    ] = None,
    chart: Annotated[Path | None, typer.Option(metavar="FILE", help="write the PNG chart")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
) -> None:
    """Play bots against each other with duplicate deals and rotated seats."""

    options = parse_options(option or [])
    options.update(read_file_options(ctx, game_name))
    names = [name.strip() for name in bots.split(",")]
    if players is not None:
        options["players"] = players
    options.setdefault("players", len(names))
    if budget_ms is not None and not 0 < budget_ms < math.inf:
        raise fail(f"--budget-ms {budget_ms:g}: give a positive time")
    if iterations is not None and iterations < 1:
        raise fail(f"--iterations {iterations}: give at least 1")
    budget = None
    if budget_ms is not None or iterations is not None:
        budget = Budget(None if budget_ms is None else budget_ms / 1000, iterations)
    if not _installed("openskill", "matplotlib"):
        raise fail(ARENA_EXTRA)
    if ray is not None and not _installed("ray"):
        raise fail(RAY_EXTRA)

    try:
        with progress_bar(Console(stderr=True), games, quiet) as advance:
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
    except (ArenaError, RayError) as exc:
        raise fail(str(exc)) from None
    except CardtableError as exc:  # a game or bot broke during play: not the user's fault
        raise fail(str(exc), code=1) from None
    except KeyboardInterrupt:
        raise fail("stopped before the end; nothing counted", code=130) from None

    results = results_json(run.info, run.stats)
    try:
        if save is not None:
            text = json.dumps(results, indent=2) + "\n"
            (save / "results.json").write_text(text, encoding="utf-8")
            write_chart(save / "results.png", run.info, run.stats)
        if chart is not None:
            write_chart(chart, run.info, run.stats)
    except OSError as exc:
        raise fail(f"cannot write {exc.filename}: {exc.strerror}", code=1) from None
    if run.info.games % run.info.seats and not quiet:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"note: {run.info.games} games for {run.info.seats} seats: the last deal was not "
            "played in every rotation; use a multiple of the seats for fully duplicate deals"
        )
    if json_output:
        sys.stdout.write(json.dumps(results) + "\n")
    else:
        print_tables(Console(highlight=False), run.info, run.stats)
    written = _written(save, chart, run.info.games)
    if written:
        # On stderr, like the progress bar, so that --json output stays one object.
        Console(stderr=True, highlight=False, soft_wrap=True).print(written)


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


@contextmanager
def progress_bar(console: Console, total: int, quiet: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar of games on stderr with the time left (nothing when
    quiet); the caller advances it by the games just finished."""
    bar = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
        transient=True,
    )
    task_id = bar.add_task("games", total=total)

    def advance(count: int) -> None:
        bar.advance(task_id, count)

    with bar:
        yield advance


def _installed(*modules: str) -> bool:
    """Whether every module can be imported, without the cost of importing it."""
    return all(importlib.util.find_spec(name) is not None for name in modules)
