"""``cardtable puzzle GAME`` (solve one) and ``cardtable puzzles build GAME`` (make a set).

A puzzle is drawn by the game's terminal UI from the seat's view it keeps,
and read through it: one try, then the answer — the solution, its idea and
the rule it hinges on, and every alternative's value from that view — and
the player's and the puzzle's ratings move (:mod:`cardtable.learn.trainer`).

Every game with a search bot has puzzles: a built-in game's set ships in its
tutorial folder; any other game's (a plugin's) is built into the user's
folder, ``~/.cardtable/puzzles/GAME.json``, or where ``--out`` says, and
``cardtable puzzle GAME`` reads it from there (``--from`` for another place).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from cardtable.cli.commands import Command, Group
from cardtable.cli.common import fail, game_option_flag, parse_options
from cardtable.cli.ui import QuitGame, ReadLine, console_reader, make_ui, with_rules
from cardtable.core.errors import CardtableError
from cardtable.core.registry import load, manifest
from cardtable.core.rulebook import rulebook
from cardtable.learn.build import BuildStats, build_puzzles, recheck_set, require_search
from cardtable.learn.puzzles import (
    Puzzle,
    PuzzleSet,
    legal_of,
    load_puzzles,
    parse_puzzles,
    puzzles_path,
    set_file,
)
from cardtable.learn.trainer import Outcome, Profile, daily_puzzle, next_puzzle
from cardtable.learn.words import words

__all__ = ["DEFAULT_PROFILE", "puzzle", "puzzles_app", "solve"]

DEFAULT_PROFILE = Path.home() / ".cardtable" / "puzzle-profile.json"

puzzles_app = typer.Typer(cls=Group, help="Make puzzle sets from games bots play.")


def puzzle(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    daily: Annotated[bool, typer.Option(help="today's puzzle, the same for everyone")] = False,
    puzzle_id: Annotated[str | None, typer.Option("--id", help="a puzzle by its id")] = None,
    profile: Annotated[
        Path, typer.Option(help="your ratings file (created on first use)")
    ] = DEFAULT_PROFILE,
    lang: Annotated[str, typer.Option(help="language of the answer's words: en, de or fr")] = "en",
    source: Annotated[
        Path | None,
        typer.Option(
            "--from",
            metavar="PATH",
            help="a built set: its .json file, or the folder `puzzles build --out` wrote it to",
        ),
    ] = None,
) -> None:
    """Solve a puzzle from a real game: one try, then the answer and every choice's value."""
    try:
        puzzles = load_puzzles(game_name, source)
        player = Profile(profile)
        if puzzle_id is not None:
            chosen = puzzles.by_id(puzzle_id)
        elif daily:
            chosen = daily_puzzle(puzzles, datetime.datetime.now(datetime.UTC).date())
        else:
            chosen = next_puzzle(puzzles, player)
    except CardtableError as exc:
        raise fail(str(exc)) from None
    console = Console(highlight=False)
    read_line = console_reader(console)
    try:
        solve(puzzles, chosen, player, console, read_line, language=lang)
    except QuitGame:
        return
    player.save()


def solve(
    puzzles: PuzzleSet,
    puzzle: Puzzle,
    player: Profile,
    console: Console,
    read_line: ReadLine,
    *,
    language: str = "en",
) -> Outcome:
    """Show ``puzzle``, take one try, tell the answer and rate the try."""
    say = words(language)
    game = load(puzzles.game, **puzzles.options)
    view = game.view_from_json(puzzle.view)
    legal = legal_of(game, puzzle)
    names = [say["you"] if s == puzzle.seat else f"seat {s}" for s in range(game.num_players)]
    ui = make_ui(game, console, names, puzzle.seat)
    console.rule(
        f"puzzle {puzzle.id} · rating {player.puzzle_rating(puzzles.game, puzzle).rating:.0f}"
    )
    ui.show(view)
    move = ui.ask(view, legal, with_rules(read_line, game, console))
    played = legal.index(move)
    solved = played in puzzle.solution
    answer = " = ".join(str(legal[i]) for i in puzzle.solution)
    if solved:
        console.print(Text(say["solved"].format(move=answer), style="bold green"))
    else:
        console.print(Text(say["missed"].format(played=move, move=answer), style="bold red"))
    console.print(Text(say["theme"].format(theme=puzzle.theme)))
    if puzzle.rule is not None and manifest(game.name).has("rules"):
        rule = rulebook(manifest(game.name)).rule(puzzle.rule)
        console.print(say["rule"].format(rule=escape(rule)))
    console.print(Text(say["values"]))
    for alternative in puzzle.alternatives:
        names_of = " = ".join(str(legal[i]) for i in alternative.moves)
        mark = "▶" if played in alternative.moves else " "
        win = f"{100 * alternative.win:5.1f}% ±{100 * alternative.win_se:.1f}"
        points = f"{alternative.points:6.2f}  (-{alternative.loss:.1f})"
        console.print(Text(f"{mark} {names_of:<28} {win}  {points}"))
    outcome = player.record(puzzles.game, puzzle, solved)
    console.print(
        Text(
            say["rating"].format(
                before=outcome.player_before.rating,
                after=outcome.player_after.rating,
                puzzle_before=outcome.puzzle_before.rating,
                puzzle_after=outcome.puzzle_after.rating,
            )
        )
    )
    return outcome


def _write_set(target: Path, puzzles: PuzzleSet) -> None:
    # Written beside and moved into place: a build stopped half-way leaves the old set whole.
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps(puzzles.to_json(), separators=(",", ":")) + "\n", "utf-8")
        partial.replace(target)
    except OSError as exc:  # a read-only package, a full disk
        raise fail(f"cannot write the set to {target}: {exc.strerror or exc}; give --out") from None


@puzzles_app.command("build", cls=Command)
def build(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    games: Annotated[int, typer.Option(min=0, help="games bots play for it")] = 10,
    per_game: Annotated[int, typer.Option(min=1, help="unforced decisions analyzed per game")] = 15,
    budget: Annotated[
        float, typer.Option(min=0.01, help="nominal seconds of analysis per decision (screen)")
    ] = 0.4,
    seed: Annotated[int, typer.Option(help="seed for the games and the analysis")] = 0,
    count: Annotated[
        int | None,
        typer.Option(min=1, help="stop once this many puzzles are found (at most --games games)"),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="PATH",
            help="a folder (the set goes there as GAME.json) or a .json file (default: the"
            " game's shipped set; for a game that ships none, ~/.cardtable/puzzles/GAME.json)",
        ),
    ] = None,
    record: Annotated[
        list[Path] | None,
        typer.Option("--record", metavar="FILE", help="a person's game record to mine, repeatable"),
    ] = None,
    add: Annotated[
        bool, typer.Option(help="add to the set already there instead of replacing it")
    ] = False,
    option: Annotated[list[str] | None, game_option_flag("a game option")] = None,
) -> None:
    """Keep the clearest decisions of GAME as puzzles: from games bots of mixed levels
    play, and from people's records (--record)."""
    try:
        game = load(game_name, **parse_options(option or []))
        require_search(game_name)
        target = (
            set_file(out, game_name)
            if out is not None
            else Path(str(puzzles_path(manifest(game_name))))
        )
        before = parse_puzzles(json.loads(target.read_text("utf-8")), str(target)) if add else None
        records = [path.read_text(encoding="utf-8") for path in record or []]
    except (CardtableError, OSError) as exc:
        raise fail(str(exc)) from None
    console = Console(stderr=True, highlight=False)

    def progress(s: BuildStats) -> None:
        console.print(
            Text(
                f"game {s.games}: {s.puzzles} puzzles from {s.analysed} decisions,"
                f" {s.cpu_seconds:.0f} CPU seconds"
            )
        )

    try:
        puzzles, stats = build_puzzles(
            game,
            games=games,
            budget=budget,
            seed=seed,
            per_game=per_game,
            records=records,
            progress=progress,
            count=count,
        )
    except CardtableError as exc:
        raise fail(str(exc)) from None
    if before is not None:
        try:
            puzzles = before.merged(puzzles)
        except CardtableError as exc:
            raise fail(str(exc)) from None
    _write_set(target, puzzles)
    minutes = stats.cpu_seconds / 60
    print(
        f"{stats.puzzles} puzzles from {stats.analysed} decisions of {stats.games} games"
        f" ({100 * stats.puzzles / max(1, stats.analysed):.1f}%),"
        f" {stats.puzzles / minutes if minutes else 0:.1f} per CPU-minute; the set at {target}"
        f" holds {len(puzzles.puzzles)}"
    )
    if count is not None and stats.puzzles < count:
        print(f"{stats.puzzles} of the {count} asked for in {games} games: allow more with --games")


@puzzles_app.command("recheck", cls=Command)
def recheck(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    budget: Annotated[
        float, typer.Option(min=0.01, help="the build's nominal seconds per decision (screen)")
    ] = 0.4,
    file: Annotated[
        Path | None, typer.Option(help="the set to recheck (default: the game's shipped one)")
    ] = None,
) -> None:
    """Value every puzzle of a set again, on other deals at twice the confirming
    budget, and drop those whose solution is not found best again."""
    try:
        target = file if file is not None else Path(str(puzzles_path(manifest(game_name))))
        before = parse_puzzles(json.loads(target.read_text("utf-8")), str(target))
        game = load(before.game, **before.options)
    except (CardtableError, OSError) as exc:
        raise fail(str(exc)) from None
    after = recheck_set(game, before, budget)
    _write_set(target, after)
    kept = f"{len(after.puzzles)} of {len(before.puzzles)} puzzles kept their solution"
    print(f"{kept}; the set at {target}")
