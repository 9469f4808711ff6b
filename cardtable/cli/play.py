"""The terminal game loop, shared by both games.

The loop owns the state; everything shown to the person is built from their
seat's view, and bots get their own seat's view, so the terminal never shows
a card the person may not see. Each game supplies a :class:`TerminalUI` that
draws its table, reads a move and narrates what happened.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from rich.console import Console

from cardtable.bots import Bot
from cardtable.core.game import Game, Move, State, View
from cardtable.core.records import dumps
from cardtable.core.registry import manifest

ReadLine = Callable[[str], str]


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
) -> State:
    """Play one game to its end (or until the person quits) and return the state.

    With ``save`` the record is written when the game ends or the person
    quits; not during play, since a record holds every hand and the file
    would show the person cards their seat may not see.
    """
    ui = make_ui(game, console, names, human_seat)
    state = game.new_game(rng)
    watcher = human_seat  # None: a spectator watches bots play
    try:
        while not state.finished:
            seat = state.to_move
            assert seat is not None  # a state with a generator never awaits a deal
            legal = state.legal_moves()
            before = state.view(watcher)
            if seat == human_seat:
                ui.show(before)
                move = ui.ask(state.view(seat), legal, read_line)
            else:
                move = bots[seat].choose(state.view(seat), legal)
            state.apply(move)
            ui.narrate(before, seat, move, state.view(watcher))
    except QuitGame:
        console.print("[bold]Game stopped.[/bold]")
        if save is not None:
            _save(state, names, save)
            console.print(f"The record so far is in {save}.")
        return state
    ui.finish(state.view(watcher))
    if save is not None:
        _save(state, names, save)
        console.print(f"Record saved to {save}; check it with: cardtable replay {save}")
    return state


def _save(state: State, names: Sequence[str], path: Path) -> None:
    path.write_text(dumps(state.record(list(names)), indent=1) + "\n", encoding="utf-8")


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
            if text in ("quit", "q"):
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
