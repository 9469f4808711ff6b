"""``cardtable learn GAME``: the guided first game in the terminal.

Each step is drawn by the game's own terminal UI from the learner's view
and read through it (so its commands — ``help``, ``rules``, MyRummy's
``preview`` — work as in a game). A move the game's notation names is
judged first (:func:`cardtable.learn.lesson.judge`): a move the rules
refuse is answered with the rule and the step's hint, a legal move that
misses the idea with the hint, and the prompt asks again; the right move is
played, narrated and praised. The lesson ends in a first real game against
``easy`` bots, with hints on.
"""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from cardtable.bots import make_bot
from cardtable.cli.common import fail
from cardtable.cli.play import play_game
from cardtable.cli.ui import (
    QUIT_WORDS,
    QuitGame,
    ReadLine,
    TerminalUI,
    console_reader,
    make_ui,
    with_rules,
)
from cardtable.core.errors import CardtableError
from cardtable.core.game import Move, State
from cardtable.learn.lesson import Verdict, judge
from cardtable.learn.tutorial import Step, Tutorial, load_tutorial
from cardtable.learn.words import words

__all__ = ["learn", "run_tutorial"]


def learn(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="the game to learn")],
    lang: Annotated[str, typer.Option(help="the lesson's language: en, de or fr")] = "en",
    seed: Annotated[int | None, typer.Option(help="seed for the first real game")] = None,
) -> None:
    """Learn GAME step by step on real deals, then play a first game against easy bots."""
    try:
        tutorial = load_tutorial(game_name, lang)
    except CardtableError as exc:
        raise fail(str(exc)) from None
    console = Console(highlight=False)
    read_line = console_reader(console)
    run_tutorial(tutorial, console, read_line, rng=random.Random(seed))


def run_tutorial(
    tutorial: Tutorial, console: Console, read_line: ReadLine, *, rng: random.Random
) -> bool:
    """The steps, then the first game; ``False`` if the learner quit during the steps."""
    game, seat = tutorial.game, tutorial.seat
    say = words(tutorial.language)
    names = [say["you"] if name is None else name for name in tutorial.names]
    ui = make_ui(game, console, names, seat)
    read = with_rules(read_line, game, console)
    console.rule(f"[bold]{tutorial.words.title}[/bold]")
    console.print(Text(tutorial.words.intro))
    try:
        for number, step in enumerate(tutorial.steps, start=1):
            console.rule(
                say["step"].format(
                    number=number, total=len(tutorial.steps), title=step.words["title"]
                )
            )
            _run_step(tutorial, step, ui, read, console)
        console.print(Text(f"{say['done']} {tutorial.words.finale}", style="bold"))
        if read(say["start_game"]).strip().lower() in QUIT_WORDS:
            return True
    except QuitGame:
        return False
    bots = {
        s: make_bot("easy", game, s, random.Random(rng.getrandbits(64)))
        for s in range(game.num_players)
        if s != seat
    }
    play_game(
        game,
        human_seat=seat,
        bots=bots,
        names=names,
        rng=random.Random(rng.getrandbits(64)),
        console=console,
        read_line=read_line,
    )
    return True


def _run_step(
    tutorial: Tutorial, step: Step, ui: TerminalUI, read: ReadLine, console: Console
) -> None:
    game, seat = tutorial.game, tutorial.seat
    state = step.position(game)
    view, legal = state.view(seat), state.legal_moves()
    ui.show(view)
    console.print(Text(step.words["idea"], style="cyan"))

    def judged(prompt: str) -> str:
        # Lines in the game's notation are judged here, before the UI sees
        # them; anything else (help, preview, the UI's shortcuts) goes on.
        while True:
            line = read(prompt)
            try:
                move = game.parse_move(line)
            except ValueError:
                return line
            verdict = judge(step, state, seat, move)
            if verdict.kind == "right":
                return line
            _tell(tutorial, step, verdict, console)

    while True:
        move: Move = ui.ask(view, legal, judged)
        verdict = judge(step, state, seat, move)
        if verdict.kind == "right":
            break
        _tell(tutorial, step, verdict, console)
    _play(state, seat, move, ui)
    console.print(Text(step.words["right"], style="green"))


def _play(state: State, seat: int, move: Move, ui: TerminalUI) -> None:
    before = state.view(seat)
    state.apply_as(seat, move)
    ui.narrate(before, seat, move, state.view(seat))


def _tell(tutorial: Tutorial, step: Step, verdict: Verdict, console: Console) -> None:
    say = words(tutorial.language)
    if verdict.kind == "illegal":
        console.print(
            Text(say["illegal"].format(reason=verdict.reason, rule=verdict.rule), style="red")
        )
    else:
        console.print(Text(say["wrong"], style="red"))
    console.print(Text(f"{step.words['wrong']} {say['again']}", style="yellow"))
