"""``cardtable tournament``: a duplicate tournament of bots, without a server.

Only argument handling and display live here; the work is
:func:`cardtable.tournament.duplicate.run_tournament`. Bad arguments are one
``error:`` line and exit 2, like the other commands.
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from cardtable.arena import ArenaError
from cardtable.arena.duplicate import parse_contender
from cardtable.arena.pool import RayError
from cardtable.cli import selfplay
from cardtable.cli.common import fail, game_option_flag, parse_options
from cardtable.cli.game_options import read_file_options
from cardtable.tournament.duplicate import (
    Standing,
    TableDeal,
    TournamentSpec,
    run_tournament,
    standings,
)


def tournament(
    ctx: typer.Context,
    game_name: selfplay.GameArgument,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="the entrants, comma-separated (a multiple of the player count, at least two"
            " tables); a bot may carry its own budget: pimc@1000 (iterations) or medium@0.1s",
        ),
    ],
    deals: Annotated[
        int, typer.Option("--deals", "-d", help="deals played at every table (default 8)")
    ] = 8,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="seats at each table")
    ] = None,
    seed: selfplay.Seed = None,
    jobs: selfplay.Jobs = 1,
    option: Annotated[list[str] | None, game_option_flag()] = None,
    json_output: selfplay.JsonOutput = False,
) -> None:
    """A duplicate tournament of bots: every table plays the same deals, each
    result compared with those who held the same cards (matchpoints)."""
    options = parse_options(option or [])
    options.update(read_file_options(ctx, game_name))
    if players is not None:
        options["players"] = players
    try:
        entrants = tuple(parse_contender(name.strip()) for name in bots.split(","))
    except ArenaError as exc:
        raise fail(str(exc)) from None
    spec = TournamentSpec(
        game_name,
        tuple(sorted(options.items())),
        entrants,
        secrets.randbits(63) if seed is None else seed,  # printed, so the run can be replayed
    )
    with selfplay.run_errors((ArenaError, RayError), "stopped before the end; nothing counted"):
        tables = run_tournament(spec, deals, jobs=jobs)
    ranked = standings(spec, tables)
    if json_output:
        sys.stdout.write(json.dumps(results_json(spec, deals, tables, ranked)) + "\n")
    else:
        Console(highlight=False).print(standings_table(spec, deals, ranked))


def results_json(
    spec: TournamentSpec, deals: int, tables: list[TableDeal], ranked: list[Standing]
) -> dict[str, Any]:
    return {
        "schema": "cardtable-tournament/1",
        "game": spec.game_name,
        "options": dict(spec.options),
        "seed": spec.seed,
        "deals": deals,
        "entrants": [str(c) for c in spec.entrants],
        "standings": [
            {"entrant": s.entrant, "name": s.name, "total": round(s.total, 3), "deals": s.deals}
            for s in ranked
        ],
        "tables": [
            {
                "deal": t.deal,
                "table": t.table,
                "seats": list(t.seats),
                "points": list(t.points),
                "percentages": [round(p, 3) for p in t.percentages],
            }
            for t in tables
        ],
    }


def standings_table(spec: TournamentSpec, deals: int, ranked: list[Standing]) -> Table:
    table = Table(
        title=f"{spec.game_name}: {len(spec.entrants)} entrants, {deals} deals at every table,"
        f" seed {spec.seed} (matchpoints: 100% the best result in a seat on a deal, 50% the"
        " middle)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    for heading in ("place", "entrant", "total", "mean per deal"):
        table.add_column(heading, justify="left" if heading == "entrant" else "right")
    for place, s in enumerate(ranked, start=1):
        table.add_row(str(place), s.name, f"{s.total:.1f}", f"{s.total / max(1, s.deals):.1f}%")
    return table
