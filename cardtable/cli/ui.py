"""The terminal UI protocol, and the commands every move prompt shares.

A game's terminal UI (``terminal_ui`` in its manifest) implements
:class:`TerminalUI` and imports this module only: the game loop
(:mod:`cardtable.cli.play`) pulls in hints and the analysis, which a game's
drawing has no use for. So this module imports nothing but ``rich``,
``core`` and the view reader :mod:`cardtable.cli.generic_view`.

Every prompt answers the same words, in one place each:

- ``quit`` (``exit``, ``q``) and ``help`` (``h``, ``?``): :func:`read_command`,
  which every UI's ``ask`` reads its lines through;
- ``rules`` and ``rules NUMBER``: :func:`with_rules`, put around the
  terminal's ``read_line`` by the loop, so every prompt of every game has it;
- ``hint``: :class:`cardtable.cli.hint.Hints`, likewise put around it by the
  loop (it needs the analysis, so it lives there).

A game without a UI of its own is drawn by :class:`PlainUI`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from cardtable.cli.generic_view import name_seats, view_lines
from cardtable.core.game import Game, Move, View
from cardtable.core.registry import manifest
from cardtable.core.rulebook import UnknownRuleError, rulebook

__all__ = [
    "HELP_WORDS",
    "QUIT_WORDS",
    "PlainUI",
    "QuitGame",
    "ReadLine",
    "RefusalReader",
    "TerminalUI",
    "UIFactory",
    "commands_help",
    "console_reader",
    "make_ui",
    "read_command",
    "with_rules",
]

ReadLine = Callable[[str], str]
QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "h", "?")


class QuitGame(Exception):
    """The person asked to stop (``quit``, end of input or Ctrl-C)."""


def console_reader(console: Console) -> ReadLine:
    """Lines typed at ``console``; end of input or Ctrl-C raise :class:`QuitGame`."""

    def read(prompt: str) -> str:
        try:
            return console.input(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None

    return read


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
    """The game's own terminal UI, or :class:`PlainUI` for a game without one."""
    game_manifest = manifest(game.name)
    factory: UIFactory = (
        game_manifest.part("terminal_ui") if game_manifest.has("terminal_ui") else PlainUI
    )
    return factory(game, console, names, seat)


def read_command(read_line: ReadLine, prompt: str, show_help: Callable[[], None]) -> str:
    """The next line typed at ``prompt`` that is neither ``quit`` nor ``help``.

    ``quit`` raises :class:`QuitGame`; ``help`` calls ``show_help`` and asks
    again. Each is the whole line, so a move that merely starts with one of
    the letters is never taken for it."""
    while True:
        line = read_line(prompt)
        word = line.strip().lower()
        if word in QUIT_WORDS:
            raise QuitGame
        if word not in HELP_WORDS:
            return line
        show_help()


def commands_help(game: Game) -> str:
    """The words every move prompt of ``game`` answers, listed for a UI's help
    text (``Commands: …``)."""
    game_manifest = manifest(game.name)
    words = ["help"]
    if game_manifest.has("rules"):
        words.append("rules (or rules NUMBER) shows the rules")
    if game_manifest.has("determinize"):
        words.append("hint values each legal move from your view")
    return ", ".join([*words, "quit"])


def with_rules(read_line: ReadLine, game: Game, console: Console) -> ReadLine:
    """``read_line`` that answers ``rules`` and ``rules NUMBER`` itself and
    asks again, so every game's prompts offer the rules text (and a game
    without one says so instead of reading ``rules`` as a move)."""
    game_manifest = manifest(game.name)

    def read(prompt: str) -> str:
        while True:
            line = read_line(prompt)
            words = line.split()
            if not words or words[0].lower() != "rules":
                return line
            if not game_manifest.has("rules"):
                console.print(Text(f"{game_manifest.title} has no rules text; type help."))
                continue
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


@runtime_checkable
class RefusalReader(Protocol):
    """A UI that words a refused move with the engine's reason: before the
    first prompt the loop hands it ``why_not``, which answers for the
    person's seat (the words and rule an engine gives that seat, or ``None``
    for a legal move). A UI that explains refusals from the view alone (as
    the built-in games' do) need not have it."""

    def explain_refusals(self, why_not: Callable[[Move], str | None]) -> None: ...


class PlainUI:
    """The terminal for a game without a UI of its own: the view read as a
    table is seen (:mod:`cardtable.cli.generic_view`), moves typed in the
    game's notation (``parse_move``), a refused move answered with the
    engine's reason and rule."""

    def __init__(
        self, game: Game, console: Console, names: Sequence[str], seat: int | None
    ) -> None:
        self.game = game
        self.console = console
        self.names = names
        self.seat = seat
        self.why_not: Callable[[Move], str | None] = lambda move: None

    def explain_refusals(self, why_not: Callable[[Move], str | None]) -> None:
        self.why_not = why_not

    def show(self, view: View) -> None:
        lines = view_lines(view.to_json(), self.names, self.seat)
        self.console.print(Text("\n" + "\n".join(lines)))

    def ask(self, view: View, legal: Sequence[Move], read_line: ReadLine) -> Move:
        choices = ", ".join(str(m) for m in legal)
        while True:
            text = read_command(
                read_line, f"your move ({choices}): ", lambda: self._help(choices)
            ).strip()
            try:
                move = self.game.parse_move(text)
            except ValueError as exc:
                self.console.print(Text(str(exc), style="red"))
                continue
            if move in legal:
                return move
            reason = self.why_not(move)
            because = f": {name_seats(reason, self.names, self.seat)}" if reason else ""
            self.console.print(Text(f"{text!r} is not legal now{because}", style="red"))
            self.console.print(Text(f"legal now: {choices}"))

    def _help(self, choices: str) -> None:
        title = manifest(self.game.name).title
        self.console.print(
            Text(
                f"Type a move in {title}'s notation; legal now: {choices}.\n"
                f"The lines above are your seat's view. Commands: {commands_help(self.game)}."
            )
        )

    def narrate(self, before: View, seat: int, move: Move, after: View) -> None:
        self.console.print(Text(f"{self.names[seat]}: {move}"))

    def finish(self, view: View) -> None:
        self.console.print("[bold]Game over.[/bold]")
        self.console.print(Text("\n".join(view_lines(view.to_json(), self.names, self.seat))))
        winners = view.to_json().get("winners")
        if isinstance(winners, list) and winners:
            won = " and ".join(self.names[w] for w in winners if isinstance(w, int))
            self.console.print(Text(f"Winner: {won}" if len(winners) == 1 else f"Winners: {won}"))
