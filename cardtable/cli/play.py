"""The terminal game loop, shared by every game.

The loop owns the state; everything shown to the person is built from their
seat's view, and bots get their own seat's view, so the terminal never shows
a card the person may not see. Each game supplies a
:class:`~cardtable.cli.ui.TerminalUI` that draws its table, reads a move and
narrates what happened (a game without one gets :class:`~cardtable.cli.ui.PlainUI`).

What every game gets from the loop itself: ``rules [NUMBER]`` typed at any
prompt prints the game's rules (or one rule), ``hint`` at the person's move
values each legal move, and pacing: a pause of ``pace`` seconds after each
bot move and, when asked, a wait for Enter at the end of each round, so a
round's last plays and the next deal do not scroll past in one burst.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console

from cardtable.bots import Bot
from cardtable.cli.hint import Hints, offer_analysis
from cardtable.cli.ui import QUIT_WORDS, QuitGame, ReadLine, RefusalReader, make_ui, with_rules
from cardtable.core.engine import refusal
from cardtable.core.game import Game, Move, State
from cardtable.core.records import dumps
from cardtable.core.registry import manifest


def play_game(
    game: Game,
    *,
    human_seat: int | None,
    bots: dict[int, Bot],
    names: Sequence[str],
    rng: random.Random,
    console: Console,
    read_line: ReadLine,
    save: Path | None = None,
    pace: float = 0.0,
    pause_between_rounds: bool = False,
    sleep: Callable[[float], None] = time.sleep,
) -> State:
    """Play one game to its end (or until the person quits) and return the state.

    With ``save`` the record is written when the game ends or the person
    quits; not during play, since a record holds every hand and the file
    would show the person cards their seat may not see. ``pace`` seconds pass
    after each bot move; with ``pause_between_rounds`` the loop waits for
    Enter when a round ends.
    """
    ui = make_ui(game, console, names, human_seat)
    read_line = with_rules(read_line, game, console)
    state = game.new_game(rng)
    if human_seat is not None and isinstance(ui, RefusalReader):
        ui.explain_refusals(lambda move: _why_not(state, human_seat, move))
    watcher = human_seat  # None: a spectator watches bots play
    if manifest(game.name).has("rules"):
        console.print(
            f"The rules: type [bold]rules[/bold] (or rules NUMBER) at any prompt,"
            f" or run: cardtable rules {game.name}"
        )
    hints = None if human_seat is None else Hints(game, human_seat, console)
    try:
        while not state.finished:
            seat = state.to_move
            assert seat is not None  # a state with a generator never awaits a deal
            legal = state.legal_moves()
            before = state.view(watcher)
            round_number = state.round_number
            if seat == human_seat:
                ui.show(before)
                read = read_line if hints is None else hints.reader(read_line, state)
                move = ui.ask(state.view(seat), legal, read)
            else:
                move = bots[seat].choose(state.view(seat), legal)
            state.apply(move)
            ui.narrate(before, seat, move, state.view(watcher))
            if seat != human_seat and pace > 0:
                sleep(pace)
            if pause_between_rounds and not state.finished and state.round_number != round_number:
                _wait_for_enter(read_line, round_number)
    except QuitGame:
        console.print("[bold]Game stopped.[/bold]")
        if save is not None:
            _save(state, names, save, hints)
            console.print(f"The record so far is in {save}.")
        return state
    ui.finish(state.view(watcher))
    if save is not None:
        _save(state, names, save, hints)
        console.print(f"Record saved to {save}; check it with: cardtable replay {save}")
    if hints is not None and human_seat is not None:
        with contextlib.suppress(QuitGame):
            record = {**state.record(list(names)), **hints.record_fields()}
            offer_analysis(record, human_seat, names, console, read_line, game=game)
    return state


def _why_not(state: State, seat: int, move: Move) -> str | None:
    """The engine's words and rule for a move of ``seat`` it refuses now: the
    same reason the browser's table gives that seat."""
    error = refusal(state, seat, move)
    if error is None:
        return None
    return f"{error.reason} ({error.rule})" if error.rule else error.reason


def _wait_for_enter(read_line: ReadLine, round_number: int) -> None:
    answer = read_line(f"Round {round_number} is over. Press Enter for the next round (or quit): ")
    if answer.strip().lower() in QUIT_WORDS:
        raise QuitGame


def _save(state: State, names: Sequence[str], path: Path, hints: Hints | None) -> None:
    record = {**state.record(list(names)), **(hints.record_fields() if hints else {})}
    path.write_text(dumps(record, indent=1) + "\n", encoding="utf-8")
