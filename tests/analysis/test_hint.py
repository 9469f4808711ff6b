"""``hint`` in the terminal game, the record's note of it, and the offer to analyze."""

from __future__ import annotations

import io
import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

import cardtable
from cardtable.bots import make_bot
from cardtable.cli.hint import Hints, offer_analysis
from cardtable.cli.main import app
from cardtable.cli.play import play_game
from cardtable.cli.ui import QuitGame
from cardtable.games.marshmallow_test.cards import CARD_NAMES

runner = CliRunner()


def test_hint_recommends_from_the_view_and_the_record_says_hints_were_used(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "marshmallow-test", "--seed", "3", "--bots", "easy", "--save", str(record)]
    result = runner.invoke(app, args, input="hint\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Hint: " in out and "(from your view only)" in out
    # One line per distinct card held, each with its win chance and points.
    hand = json.loads(record.read_text())["rounds"][0]["deal"]["hands"][0]
    assert sum(f"  {card} " in out for card in hand) == len(hand)
    saved = json.loads(record.read_text())
    assert saved["hints"] == [{"round": 1, "move": 1, "seat": 0}]
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output  # replay ignores the extension field


def test_a_game_without_hints_has_no_hints_field(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "marshmallow-test", "--seed", "3", "--bots", "easy", "--save", str(record)]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert "hints" not in json.loads(record.read_text())


def test_hint_values_ignore_the_hidden_cards() -> None:
    # Two games dealt differently whose seat-0 view is the same at its first decision.
    game = cardtable.load("myrummy-111", players=2, rounds=1)
    state = game.new_game(random.Random(1))
    decoy = cardtable.core.registry.manifest(game.name).part("determinize")(
        game, state.view(0), random.Random(2)
    )
    outputs = []
    for s in (state, decoy):
        console = Console(file=io.StringIO(), width=120)
        hints = Hints(game, 0, console, budget=0.05)
        lines = iter(["hint", "take 0"])

        def typed(_prompt: str, lines: Iterator[str] = lines) -> str:
            return next(lines)

        read = hints.reader(typed, s)
        assert read("> ") == "take 0"
        outputs.append(console.file.getvalue())  # type: ignore[attr-defined]
        assert hints.record_fields() == {"hints": [{"round": 1, "move": 1, "seat": 0}]}
    assert outputs[0] == outputs[1]


def test_the_end_of_game_offer_analyzes_only_when_accepted() -> None:
    game = cardtable.load("marshmallow-test", players=2, target=3)
    state = game.new_game(random.Random(4))
    bots = [make_bot("heuristic", game, s, random.Random(s)) for s in range(2)]
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    record = state.record(["You", "Bot"])
    console = Console(file=io.StringIO(), width=120)
    names = ["You", "Bot"]
    no = offer_analysis(record, 0, names, console, lambda _: "n", game=game, budget=0.01)
    assert no is False and "accuracy" not in console.file.getvalue()  # type: ignore[attr-defined]
    yes = offer_analysis(record, 0, names, console, lambda _: "y", game=game, budget=0.01)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert yes is True and "You (seat 0): accuracy" in text and "Bot (seat 1)" not in text


def test_end_of_input_at_the_offer_ends_the_game_quietly() -> None:
    game = cardtable.load("marshmallow-test", players=2, target=3)
    typed = itertools.cycle(["", *(c.lower() for c in CARD_NAMES), "g"])
    asked = []

    def read_line(prompt: str) -> str:
        if prompt.startswith("Analyze"):
            asked.append(prompt)
            raise QuitGame  # end of input, as the terminal reports it
        return next(typed)

    console = Console(file=io.StringIO(), width=120)
    bots = {1: make_bot("heuristic", game, 1, random.Random(1))}
    state = play_game(
        game,
        human_seat=0,
        bots=bots,
        names=["You", "Bot"],
        rng=random.Random(2),
        console=console,
        read_line=read_line,
    )
    assert state.finished and asked
    assert "Game stopped" not in console.file.getvalue()  # type: ignore[attr-defined]
