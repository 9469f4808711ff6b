"""``cardtable analyze``: which decisions of a recorded game cost each player.

Takes any record ``cardtable replay`` accepts and refuses the others with
the same message and exit code (2 malformed, 1 rule break).
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.console import Console

from cardtable.analysis.report import analysis_json, analysis_text
from cardtable.analysis.run import DEFAULT_BUDGET, DecisionAnalysis, analyze_record
from cardtable.cli.common import fail
from cardtable.cli.replay_cmd import read_source
from cardtable.cli.ui import make_ui
from cardtable.core.errors import CardtableError, RecordError
from cardtable.core.game import Game, View
from cardtable.core.registry import manifest
from cardtable.core.replay import error_json, parse_record, replay

__all__ = ["analyze", "draw_view"]


def draw_view(game: Game, names: Sequence[str], view: View, width: int = 100) -> str:
    """The table as the view's seat saw it, drawn by the game's terminal
    interface as plain text (JSON for a game without one)."""
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    # Drawn as a watcher of that seat's view: the interface then shows the
    # hand as well, which on a player's own turn it leaves to the move prompt.
    make_ui(game, console, names, None).show(view)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def report_text(
    analyses: Sequence[DecisionAnalysis],
    game: Game,
    names: Sequence[str],
    *,
    seed: int,
    budget: float,
) -> str:
    """The analysis as text, each costly decision drawn as its seat saw it."""
    return analysis_text(
        analyses,
        names,
        game=game.name,
        seed=seed,
        budget=budget,
        draw=lambda view, s: draw_view(game, names, view),
    )


def _refuse(error: CardtableError, as_json: bool) -> None:
    # The same words as ``cardtable replay`` for the same record.
    if as_json:
        sys.stdout.write(json.dumps({"error": error_json(error)}) + "\n")
        return
    message = str(error)
    if isinstance(error, RecordError) and error.round is not None:
        place = f"round {error.round}" + (f", move {error.move}" if error.move is not None else "")
        message = f"{place}: {message}"
    kind = "malformed record" if isinstance(error, RecordError) else "rule break"
    sys.stderr.write(f"{kind}: {message}\n")


def analyze(
    file: Annotated[
        str, typer.Argument(metavar="RECORD", help="a cardtable-record/1 file, or - for stdin")
    ],
    seat: Annotated[
        list[int] | None,
        typer.Option(
            "--seat",
            "-s",
            metavar="SEAT",
            help="analyze this seat (repeatable; default every seat)",
        ),
    ] = None,
    budget: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="nominal seconds per decision (a fixed amount of work: reproducible)",
        ),
    ] = DEFAULT_BUDGET,
    jobs: Annotated[
        int, typer.Option(metavar="N", help="processes to share the work (same result)")
    ] = 1,
    seed: Annotated[
        int, typer.Option(metavar="N", help="seed of the sampled deals and playouts")
    ] = 0,
    json_output: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Judge each decision of a recorded game from what that seat could see."""
    try:
        text = read_source(file)
    except CardtableError as exc:
        _refuse(exc, json_output)
        raise typer.Exit(2) from None
    outcome = replay(text)
    if outcome.error is not None:
        _refuse(outcome.error, json_output)
        raise typer.Exit(outcome.exit_code)
    game = parse_record(text).game
    if budget <= 0:
        raise fail(f"--budget {budget}: give a positive number of seconds")
    if jobs < 1:
        raise fail(f"--jobs {jobs}: give at least 1")
    n = game.num_players
    for s in seat or ():
        if not 0 <= s < n:
            raise fail(f"--seat {s}: this game has seats 0 to {n - 1}")
    if not manifest(game.name).has("determinize"):
        raise fail(
            f"{game.name} does not offer resampling of hidden cards, so it cannot be analyzed"
        )
    names = _names(json.loads(text), n)
    analyses = analyze_record(
        text,
        seats=None if not seat else sorted(set(seat)),
        budget=budget,
        seed=seed,
        jobs=jobs,
        progress=_progress if sys.stderr.isatty() else None,
    )
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    if json_output:
        document = analysis_json(analyses, names, game=game.name, seed=seed, budget=budget)
        sys.stdout.write(json.dumps(document) + "\n")
        return
    sys.stdout.write(report_text(analyses, game, names, seed=seed, budget=budget))


def _names(record: Any, n: int) -> list[str]:
    players = record.get("players") if isinstance(record, dict) else None
    if isinstance(players, list) and len(players) == n:
        return [str(p) for p in players]
    return [f"seat {s}" for s in range(n)]


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\ranalyzed {done}/{total} decisions")
    sys.stderr.flush()
