"""The terminal game loop, shared by every game.

The loop owns the state; everything shown to the person is built from their
seat's view, and bots get their own seat's view, so the terminal never shows
a card the person may not see. Each game supplies a :class:`TerminalUI` that
draws its table, reads a move and narrates what happened.

Two things every game gets from the loop itself: ``rules [NUMBER]`` typed at
any prompt prints the game's rules (or one rule), and pacing: a pause of
``pace`` seconds after each bot move and, when asked, a wait for Enter at the
end of each round, so a round's last plays and the next deal do not scroll
past in one burst.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.markup import escape

from cardtable.bots import Bot
from cardtable.cli.hint import Hints, offer_analysis
from cardtable.core.game import Game, Move, State, View
from cardtable.core.records import dumps
from cardtable.core.registry import manifest
from cardtable.core.rulebook import UnknownRuleError, rulebook

ReadLine = Callable[[str], str]
QUIT_WORDS = ("quit", "q")


class QuitGame(Exception):
    """The person asked to stop (``quit``, end of input or Ctrl-C)."""


class TerminalUI(Protocol):
    def show(self, view: View) -> None:
        """Draw the table as the person's seat sees it."""

    def ask(self, view: View, legal: Sequence[Move], read_line: ReadLine) -> Move:
        """Read the person's next move, explaining bad input until it is legal.

        Raises :class:`QuitGame` on ``quit``."""

    def narrate(self, before: View, seat: int, move: Move, after: View) -> None:
        """Say what ``seat`` just did, from the watching seat's views."""

    def finish(self, view: View) -> None:
        """The final standings."""


class UIFactory(Protocol):
    def __call__(
        self, game: Game, console: Console, names: Sequence[str], seat: int | None
    ) -> TerminalUI: ...


def make_ui(game: Game, console: Console, names: Sequence[str], seat: int | None) -> TerminalUI:
    game_manifest = manifest(game.name)
    factory: UIFactory = (
        game_manifest.part("terminal_ui") if game_manifest.has("terminal_ui") else PlainUI
    )
    return factory(game, console, names, seat)


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


def _wait_for_enter(read_line: ReadLine, round_number: int) -> None:
    answer = read_line(f"Round {round_number} is over. Press Enter for the next round (or quit): ")
    if answer.strip().lower() in QUIT_WORDS:
        raise QuitGame


def with_rules(read_line: ReadLine, game: Game, console: Console) -> ReadLine:
    """``read_line`` that answers ``rules`` and ``rules NUMBER`` itself and
    asks again, so every game's prompts offer the rules text."""
    game_manifest = manifest(game.name)
    if not game_manifest.has("rules"):
        return read_line

    def read(prompt: str) -> str:
        while True:
            line = read_line(prompt)
            words = line.split()
            if not words or words[0].lower() != "rules":
                return line
            book = rulebook(game_manifest)
            if len(words) == 1:
                sections = [n for n in book.parts if "." not in n]
                console.print(
                    "Sections: "
                    + ", ".join(book.parts[n].splitlines()[0].removeprefix("## ") for n in sections)
                )
                example = next(n for n in book.parts if "." in n)
                console.print(
                    f"Type rules NUMBER for one (e.g. rules {example}); the whole text:"
                    f" cardtable rules {game.name}"
                )
                continue
            try:
                console.print(escape(book.rule(" ".join(words[1:]))))
            except UnknownRuleError as exc:
                console.print(f"[red]{escape(str(exc))}[/red]")

    return read


def _save(state: State, names: Sequence[str], path: Path, hints: Hints | None) -> None:
    record = {**state.record(list(names)), **(hints.record_fields() if hints else {})}
    path.write_text(dumps(record, indent=1) + "\n", encoding="utf-8")


class PlainUI:
    """The terminal for a game without a UI of its own: views as JSON, moves
    typed in the game's notation (``parse_move``)."""

    def __init__(
        self, game: Game, console: Console, names: Sequence[str], seat: int | None
    ) -> None:
        self.game = game
        self.console = console
        self.names = names
        self.seat = seat

    def show(self, view: View) -> None:
        self.console.print_json(data=view.to_json())

    def ask(self, view: View, legal: Sequence[Move], read_line: ReadLine) -> Move:
        choices = ", ".join(str(m) for m in legal)
        while True:
            text = read_line(f"your move ({choices}): ").strip()
            if text in QUIT_WORDS:
                raise QuitGame
            try:
                move = self.game.parse_move(text)
            except ValueError as exc:
                self.console.print(f"[red]{exc}[/red]")
                continue
            if move in legal:
                return move
            self.console.print(f"[red]{text!r} is not legal now; legal: {choices}[/red]")

    def narrate(self, before: View, seat: int, move: Move, after: View) -> None:
        self.console.print(f"{self.names[seat]}: {move}")

    def finish(self, view: View) -> None:
        self.console.print("[bold]Game over.[/bold]")
        self.console.print_json(data=view.to_json())
