"""``cardtable learn GAME``: the guided first game in the terminal.

Each step is drawn by the game's own terminal UI from the learner's view
and read through it (so its commands — ``help``, ``rules``, MyRummy's
``preview`` — work as in a game). A move the game's notation names is
judged first (:func:`cardtable.learn.lesson.judge`): a move the rules
refuse is answered with the rule and the step's hint, a legal move that
misses the idea with the hint, and the prompt asks again; the right move is
played, narrated and praised. The lesson ends in a first real game against
``easy`` bots, with hints on.

A game without a tutorial of its own gets the generic lesson
(:mod:`cardtable.learn.generic`): the sections of its rules text, one at a
time, then a guided game against ``easy`` bots (``random`` where the game
has no such level) in which a refused move is answered with the engine's
reason and rule (and the rule's words, where the game has a rules text), and
``hint`` names the legal moves and the rules that refuse the others — with
every choice's value too, from the existing hint machinery
(:class:`cardtable.cli.hint.Hints`), where the game resamples hidden cards.
"""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from cardtable.bots import make_bot
from cardtable.cli.common import fail
from cardtable.cli.generic_view import name_seats
from cardtable.cli.hint import HINT_WORDS, Hints
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
from cardtable.core.engine import refusal
from cardtable.core.errors import CardtableError
from cardtable.core.game import Game, Move, State
from cardtable.core.registry import load, manifest
from cardtable.learn.build import has_search
from cardtable.learn.generic import limits, opponent_level, rule_sections, rule_text
from cardtable.learn.lesson import Verdict, judge
from cardtable.learn.tutorial import Step, Tutorial, load_tutorial
from cardtable.learn.words import WORD_LANGUAGES, words

__all__ = ["learn", "run_generic_lesson", "run_tutorial"]


def learn(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="the game to learn")],
    lang: Annotated[str, typer.Option(help="the lesson's language: en, de or fr")] = "en",
    seed: Annotated[int | None, typer.Option(help="seed for the first real game")] = None,
) -> None:
    """Learn GAME step by step on real deals, then play a first game against easy bots
    (a game without a lesson of its own: its rules, then a guided game)."""
    try:
        tutorial = load_tutorial(game_name, lang) if manifest(game_name).has("tutorial") else None
        game = load(game_name) if tutorial is None else tutorial.game
    except CardtableError as exc:
        raise fail(str(exc)) from None
    if tutorial is None and lang not in WORD_LANGUAGES:
        choose = ", ".join(WORD_LANGUAGES)
        raise fail(f"--lang {lang}: no words in {lang!r}; choose one of {choose}")
    console = Console(highlight=False)
    read_line = console_reader(console)
    if tutorial is not None:
        run_tutorial(tutorial, console, read_line, rng=random.Random(seed))
    else:
        run_generic_lesson(game, console, read_line, language=lang, rng=random.Random(seed))


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


def run_generic_lesson(
    game: Game, console: Console, read_line: ReadLine, *, language: str, rng: random.Random
) -> bool:
    """The rules part by part, then a guided game; ``False`` if the learner quit."""
    say = words(language)
    game_manifest = manifest(game.name)
    title = game_manifest.title
    level = opponent_level(game.name)
    read = with_rules(read_line, game, console)
    console.rule(f"[bold]{escape(say['lesson_title'].format(title=title))}[/bold]")
    console.print(Text(say["lesson_intro"].format(title=title, level=level)))
    try:
        _read_rules(game, read, console, say)
        if read(say["start_game"]).strip().lower() in QUIT_WORDS:
            raise QuitGame
        _guided_game(game, read, console, say, level=level, rng=rng)
    except QuitGame:
        console.print(Text(say["stopped"], style="bold"))
        return False
    console.print(Text(say["lesson_done"].format(title=title, game=game.name), style="bold"))
    if has_search(game.name):
        console.print(Text(say["lesson_puzzles"].format(title=title, game=game.name)))
    return True


def _read_rules(game: Game, read: ReadLine, console: Console, say: dict[str, str]) -> None:
    sections = rule_sections(manifest(game.name))
    if not sections:
        console.print(Text(say["no_rules"].format(title=manifest(game.name).title), style="cyan"))
        return
    for number, section in enumerate(sections, start=1):
        console.rule(
            escape(say["section"].format(number=number, total=len(sections), title=section.title))
        )
        console.print(Text(section.text))
        if number < len(sections) and read(say["next_section"]).strip().lower() in QUIT_WORDS:
            raise QuitGame


def _guided_game(
    game: Game,
    read: ReadLine,
    console: Console,
    say: dict[str, str],
    *,
    level: str,
    rng: random.Random,
) -> None:
    """One game, the learner at seat 0, each refusal and hint citing its rule."""
    seat = 0
    names = [
        say["you"] if s == seat else say["bot_name"].format(number=s)
        for s in range(game.num_players)
    ]
    bots = {
        s: make_bot(level, game, s, random.Random(rng.getrandbits(64)))
        for s in range(game.num_players)
        if s != seat
    }
    ui = make_ui(game, console, names, seat)
    hints = Hints(game, seat, console, seed=rng.getrandbits(32))
    state = game.new_game(random.Random(rng.getrandbits(64)))
    while not state.finished:
        to_move = state.to_move
        assert to_move is not None  # a state with a generator never awaits a deal
        legal = state.legal_moves()
        before = state.view(seat)
        if to_move == seat:
            ui.show(before)
            guide = _Guide(game, state, seat, names, console, say, hints)
            move = ui.ask(before, legal, guide.reader(read))
        else:
            move = bots[to_move].choose(state.view(to_move), legal)
        state.apply(move)
        ui.narrate(before, to_move, move, state.view(seat))
    ui.finish(state.view(seat))


class _Guide:
    """The learner's prompt at one decision: ``hint`` and refused moves are
    answered here, each with its rule, before the game's UI sees the line."""

    def __init__(
        self,
        game: Game,
        state: State,
        seat: int,
        names: list[str],
        console: Console,
        say: dict[str, str],
        hints: Hints,
    ) -> None:
        self.game, self.state, self.seat, self.names = game, state, seat, names
        self.console, self.say, self.hints = console, say, hints

    def reader(self, read: ReadLine) -> ReadLine:
        def guided(prompt: str) -> str:
            while True:
                line = read(prompt)
                if line.strip().lower() in HINT_WORDS:
                    self.hint()
                    continue
                try:
                    move = self.game.parse_move(line)
                except ValueError:
                    return line  # not a move: the UI's own words (help, quit, its shortcuts)
                if not self.refused(move):
                    return line

        return guided

    def refused(self, move: Move) -> bool:
        """Whether the rules refuse ``move``; if so, say why and by which rule."""
        error = refusal(self.state, self.seat, move)
        if error is None:
            return False
        reason = name_seats(error.reason, self.names, self.seat)
        self.console.print(
            Text(self.say["illegal"].format(reason=reason, rule=error.rule or "?"), style="red")
        )
        self._rule_words(error.rule)
        return True

    def hint(self) -> None:
        """The legal moves, the rules that refuse the others, and (where the
        game resamples hidden cards) every choice's value from this seat's view."""
        legal = self.state.legal_moves()
        moves = ", ".join(str(m) for m in legal)
        self.console.print(Text(self.say["legal_now"].format(moves=moves), style="cyan"))
        found = limits(self.state, self.seat)
        for limit in found:
            self.console.print(
                Text(
                    "  "
                    + self.say["limit"].format(
                        rule=limit.rule or "?",
                        count=len(limit.moves),
                        move=limit.moves[0],
                        reason=name_seats(limit.reason, self.names, self.seat),
                    ),
                    style="cyan",
                )
            )
        if not found:
            self.console.print(Text("  " + self.say["all_legal"], style="cyan"))
        if self.hints.available:
            self.hints.show(self.state.view(self.seat), legal)

    def _rule_words(self, rule: str | None) -> None:
        text = rule_text(manifest(self.game.name), rule)
        if text is not None:
            self.console.print(Text(self.say["rule"].format(rule=text), style="yellow"))
