"""``cardtable``: play against bots in the terminal, replay and check records."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cardtable.bots import bot_names, make_bot
from cardtable.cli.arena_cmd import arena
from cardtable.cli.common import fail, parse_options
from cardtable.cli.play import QuitGame, play_game
from cardtable.cli.replay_cmd import run_replay
from cardtable.cli.serve_cmd import serve
from cardtable.core.errors import CardtableError
from cardtable.core.registry import game_names, load, manifest

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    help="Marshmallow Test and MyRummy 111 in the terminal, with bots and game records.",
)

BOT_NAMES = ["Ada", "Bob", "Cleo", "Dev", "Eve"]


@app.callback(invoke_without_command=True)
def default(ctx: typer.Context) -> None:
    """With no command, start a game at once: you against three bots."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(play)


@app.command()
def play(
    game_name: Annotated[
        str, typer.Argument(metavar="GAME", help="the game (`cardtable games` lists them)")
    ] = "marshmallow-test",
    players: Annotated[int | None, typer.Option("--players", "-p", help="2 to 5")] = None,
    seat: Annotated[int, typer.Option(help="your seat, 0-based")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            help="bot for the other seats: one name for all, or one per seat, comma-separated"
        ),
    ] = "medium",
    seed: Annotated[
        int | None, typer.Option(help="seed for deals and bots (a game replays exactly)")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="write the game's record here when it ends")
    ] = None,
    name: Annotated[str, typer.Option(help="your name at the table")] = "You",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="a game option KEY=VALUE (repeatable)"),
    ] = None,
    symbols: Annotated[
        Path | None, typer.Option(help="MyRummy 111: a file with the 110 joker-symbol counts")
    ] = None,
    watch: Annotated[bool, typer.Option(help="watch bots play every seat")] = False,
) -> None:
    """Play a game against bots."""
    if game_name not in game_names():
        raise fail(f"unknown game {game_name!r}; choose one of {', '.join(game_names())}")
    options = parse_options(option or [])
    default_players = manifest(game_name).default_players
    options["players"] = players if players is not None else options.get("players", default_players)
    if symbols is not None:
        options["symbols"] = _load_symbols(game_name, symbols)
    try:
        game = load(game_name, **options)
    except CardtableError as exc:
        raise fail(str(exc)) from None
    n = game.num_players
    human_seat = None if watch else seat
    if human_seat is not None and not 0 <= human_seat < n:
        raise fail(f"--seat {seat}: choose a seat from 0 to {n - 1}")
    bot_seats = [s for s in range(n) if s != human_seat]
    specs = [b.strip() for b in bots.split(",")]
    if len(specs) == 1:
        specs = specs * len(bot_seats)
    if len(specs) != len(bot_seats):
        raise fail(
            f"--bots: {len(specs)} names for {len(bot_seats)} bot seats;"
            f" give one or {len(bot_seats)}"
        )
    rng = random.Random(seed)
    try:
        seated = {
            s: make_bot(spec, game, s, random.Random(rng.getrandbits(64)))
            for s, spec in zip(bot_seats, specs, strict=True)
        }
    except CardtableError as exc:
        raise fail(f"--bots: {exc}") from None
    names = [
        name if s == human_seat else f"{BOT_NAMES[s]} ({spec})"
        for s, spec in zip(range(n), _spec_per_seat(specs, bot_seats, n), strict=True)
    ]
    console = Console(highlight=False)
    try:
        play_game(
            game,
            human_seat=human_seat,
            bots=seated,
            names=names,
            rng=random.Random(rng.getrandbits(64)),
            console=console,
            read_line=_read_line(console),
            save=save,
        )
    except KeyboardInterrupt:
        console.print("\n[bold]Game stopped.[/bold]")


def _spec_per_seat(specs: list[str], bot_seats: list[int], n: int) -> list[str]:
    by_seat = dict(zip(bot_seats, specs, strict=True))
    return [by_seat.get(s, "") for s in range(n)]


def _read_line(console: Console) -> Any:
    def read(prompt: str) -> str:
        try:
            return console.input(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None

    return read


def _load_symbols(game_name: str, path: Path) -> list[int]:
    if game_name != "myrummy-111":
        raise fail("--symbols is an option of myrummy-111 only")
    from cardtable.games.myrummy_111 import load_symbols

    try:
        return list(load_symbols(path))
    except CardtableError as exc:
        raise fail(f"--symbols {path}: {exc}") from None


@app.command()
def replay(
    file: Annotated[
        str, typer.Argument(metavar="FILE", help="a cardtable-record/1 file, or - for stdin")
    ],
    json_output: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    trace: Annotated[
        bool, typer.Option(help="print each decision point's legal moves as JSON lines")
    ] = False,
) -> None:
    """Replay a record against the rules: exit 0 legal, 1 rule break, 2 malformed."""
    code = run_replay(file, as_json=json_output, trace=trace, out=sys.stdout, err=sys.stderr)
    raise typer.Exit(code)


@app.command("bots")
def list_bots(
    game_name: Annotated[str, typer.Argument(metavar="GAME")] = "marshmallow-test",
) -> None:
    """List the bots and levels you can seat in GAME."""
    if game_name not in game_names():
        raise fail(f"unknown game {game_name!r}; choose one of {', '.join(game_names())}")
    print("\n".join(bot_names(game_name)))


app.command()(arena)
app.command()(serve)


def main() -> None:
    app()
