"""``cardtable conformance GAME``: check an installed game against every
promise a game makes (:mod:`cardtable.conformance`, docs/conformance.md).

One line per promise: a mark, the promise in words and the section of
docs/conformance.md that states it; under a broken one, where it broke (the
player count, seed and decision to replay) and why. Exit 0 when every
promise holds, 1 when one breaks, 2 for bad arguments.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from cardtable.cli.common import fail
from cardtable.conformance import PROMISES, Outcome, check
from cardtable.core.registry import UnknownGameError, game_names, manifest

BROKEN = 1
#: At most this many games per player count: the checks stay minutes, not hours.
MAX_GAMES = 1000

HELD, FAILED, NOT_MADE = "[green]✓[/green]", "[bold red]✗[/bold red]", "[dim]-[/dim]"


def conformance(
    game_name: Annotated[
        str, typer.Argument(metavar="GAME", help="an installed game (`cardtable games` lists them)")
    ],
    games: Annotated[
        int | None,
        typer.Option(
            "--games", "-n", help="random games per player count (default: each promise's own)"
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="the first seed; games use it and the next ones")] = 0,
) -> None:
    """Check GAME keeps every promise of docs/conformance.md: exit 0 all hold, 1 one broke."""
    if game_name not in game_names():
        raise fail(str(UnknownGameError(game_name)))
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise fail(f"--games {games}: give a number from 1 to {MAX_GAMES}")
    if seed < 0:
        raise fail(f"--seed {seed}: give a seed of 0 or more")
    console = Console(highlight=False, soft_wrap=True)
    game = manifest(game_name)
    console.print(f"[bold]{escape(game.title)}[/bold] ({escape(game_name)}):")
    broken = 0
    for promise in PROMISES:
        words = f"{escape(promise.words)} — {promise.reference}"
        if not promise.binds(game):
            console.print(f"{NOT_MADE} {words} [dim](no {promise.part}: not promised)[/dim]")
            continue
        outcome = check(game_name, promise, games=games, seed=seed)
        console.print(f"{HELD if outcome.held else FAILED} {words}")
        if not outcome.held:
            broken += 1
            console.print(f"    {escape(_why(outcome))}")
    if broken:
        console.print(f"[bold red]{broken} promise(s) broken[/bold red]")
        raise typer.Exit(BROKEN)
    console.print("[green]every promise holds[/green]")


def _why(outcome: Outcome) -> str:
    return f"at {outcome.where}: {outcome.why}" if outcome.where else outcome.why
