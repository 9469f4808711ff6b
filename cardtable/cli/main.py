"""``cardtable``: play against bots in the terminal, replay and check records.

The commands know no game by name: games, their options, bots and rules come
from the registry's manifests when a command runs.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import cardtable
from cardtable.bots import make_bot
from cardtable.cli.admin_cmd import admin
from cardtable.cli.analyze_cmd import analyze
from cardtable.cli.arena_cmd import arena
from cardtable.cli.balance_cmd import balance
from cardtable.cli.commands import Command, Group
from cardtable.cli.common import fail, game_option_flag, parse_options
from cardtable.cli.conformance_cmd import conformance
from cardtable.cli.game_options import GameCommand, PlayCommand, read_file_options
from cardtable.cli.info_cmd import bots_text, default_bots, games_text, rules_text
from cardtable.cli.learn_cmd import learn
from cardtable.cli.new_game_cmd import new_game
from cardtable.cli.play import play_game
from cardtable.cli.puzzle_cmd import puzzle, puzzles_app
from cardtable.cli.replay_cmd import run_replay
from cardtable.cli.serve_cmd import serve
from cardtable.cli.tournament_cmd import tournament
from cardtable.cli.ui import console_reader
from cardtable.core.compiled import in_use
from cardtable.core.errors import CardtableError
from cardtable.core.registry import UnknownGameError, game_names, load

app = typer.Typer(
    cls=Group,
    add_completion=False,
    no_args_is_help=False,
    help="Card games with exact rules in the terminal, with bots and game records"
    " (`cardtable games` lists the games).",
)

BOT_NAMES = ["Ada", "Bob", "Cleo", "Dev", "Eve"]
#: Seconds between bot moves when a person watches at a terminal (``--pace``).
TERMINAL_PACE = 0.6


def _show_version(value: bool) -> None:
    if value:
        # As black says it: whether the engines run compiled (docs/architecture.md).
        print(f"cardtable {cardtable.__version__} (compiled: {'yes' if in_use() else 'no'})")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def default(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="print the version and exit"
        ),
    ] = False,
) -> None:
    """With no command, start a game at once: you against bots."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(play, ctx)


def _game(game_name: str | None) -> str:
    """The game a command names; the first registered game when it names none."""
    if game_name is None:
        return game_names()[0]
    if game_name not in game_names():
        raise fail(str(UnknownGameError(game_name)))  # says why where a plugin was left out
    return game_name


@app.command(cls=PlayCommand)
def play(
    ctx: typer.Context,
    game_name: Annotated[
        str | None,
        typer.Argument(
            metavar="GAME", help="the game (`cardtable games` lists them; default: the first)"
        ),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of players")
    ] = None,
    seat: Annotated[int, typer.Option(help="your seat, 0-based")] = 0,
    bots: Annotated[
        str | None,
        typer.Option(
            help="bot for the other seats: one name for all, or one per seat, comma-separated"
            " (`cardtable bots GAME` lists them; default: medium)",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="seed for deals and bots (a game replays exactly)")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="write the game's record here when it ends")
    ] = None,
    name: Annotated[str, typer.Option(help="your name at the table")] = "You",
    option: Annotated[list[str] | None, game_option_flag()] = None,
    watch: Annotated[bool, typer.Option(help="watch bots play every seat")] = False,
    pace: Annotated[
        float | None,
        typer.Option(
            metavar="SECONDS",
            help=f"pause after each bot move (default {TERMINAL_PACE:g} at a terminal, else 0)",
        ),
    ] = None,
) -> None:
    """Play a game against bots."""
    game_name = _game(game_name)
    options = parse_options(option or [])
    if players is not None:
        options["players"] = players
    options.update(read_file_options(ctx, game_name))
    try:
        game = load(game_name, **options)
    except CardtableError as exc:
        raise fail(str(exc)) from None
    if pace is not None and not 0 <= pace < math.inf:
        raise fail(f"--pace {pace:g}: give a number of seconds, 0 or more")
    n = game.num_players
    human_seat = None if watch else seat
    if human_seat is not None and not 0 <= human_seat < n:
        raise fail(f"--seat {seat}: choose a seat from 0 to {n - 1}")
    bot_seats = [s for s in range(n) if s != human_seat]
    specs = [b.strip() for b in (bots or default_bots(game_name)).split(",")]
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
        name if s == human_seat else f"{BOT_NAMES[s % len(BOT_NAMES)]} ({spec})"
        for s, spec in zip(range(n), _spec_per_seat(specs, bot_seats, n), strict=True)
    ]
    console = Console(highlight=False)
    at_terminal = sys.stdin.isatty() and sys.stdout.isatty()
    try:
        play_game(
            game,
            human_seat=human_seat,
            bots=seated,
            names=names,
            rng=random.Random(rng.getrandbits(64)),
            console=console,
            read_line=console_reader(console),
            save=save,
            pace=pace if pace is not None else TERMINAL_PACE if at_terminal else 0.0,
            pause_between_rounds=at_terminal,
        )
    except KeyboardInterrupt:
        console.print("\n[bold]Game stopped.[/bold]")


def _spec_per_seat(specs: list[str], bot_seats: list[int], n: int) -> list[str]:
    by_seat = dict(zip(bot_seats, specs, strict=True))
    return [by_seat.get(s, "") for s in range(n)]


@app.command(cls=Command)
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


@app.command("games", cls=Command)
def list_games() -> None:
    """List the games: name, title, players (and default), options."""
    sys.stdout.write(games_text())


@app.command("bots", cls=Command)
def list_bots(
    game_name: Annotated[str | None, typer.Argument(metavar="GAME")] = None,
) -> None:
    """List the bots and levels you can seat in GAME, with strength and time per move."""
    sys.stdout.write(bots_text(_game(game_name)))


@app.command("rules", cls=Command)
def show_rules(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    rule: Annotated[
        str | None, typer.Argument(metavar="RULE", help="one rule or section, e.g. 5.4 or MT-5")
    ] = None,
) -> None:
    """Print the rules of GAME, or one rule by its number."""
    sys.stdout.write(rules_text(_game(game_name), rule))


app.command(cls=GameCommand)(arena)
app.command(cls=GameCommand)(balance)
app.command(cls=GameCommand)(tournament)
app.command(cls=Command)(serve)
app.command(cls=Command)(analyze)
app.command(cls=Command)(learn)
app.command(cls=Command)(puzzle)
app.command(cls=Command)(conformance)
app.command("new-game", cls=Command)(new_game)
app.add_typer(puzzles_app, name="puzzles")
app.add_typer(admin, name="admin")


def main() -> None:
    app()
