"""`cardtable play marshmallow-test` end to end, and the UI's answers to bad input.

The full-game test types like a clumsy person: every card name in turn, so
the UI must reject cards not held or not playable (and explain why) until a
legal one comes up. It sees nothing but what the terminal prints.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import cardtable
from cardtable.cli.main import app
from cardtable.cli.ui import QuitGame
from cardtable.core.game import Move
from cardtable.games.marshmallow_test import MarshmallowView
from cardtable.games.marshmallow_test.cards import CARD_NAMES, parse_card
from cardtable.games.marshmallow_test.moves import PLAYS, TRUMPS, NameTrump, Play
from cardtable.games.marshmallow_test.terminal import MarshmallowTestUI

runner = CliRunner()
NAMES = ["You", "Bob", "Cleo", "Dev"]

# Bad input first, then every card (and a colour, for when the person deals).
CYCLE = ["", "help", "x9", "trump purple", "hand", *(c.lower() for c in CARD_NAMES), "g"]


def typed(cycles: int = 200) -> str:
    return "\n".join(CYCLE * cycles) + "\n"


def test_full_game_from_the_keyboard_saves_a_record_replay_accepts(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    # Bots without a time budget, so the seed fixes the whole game.
    args = ["play", "marshmallow-test", "--seed", "2", "--bots", "easy", "--save", str(record)]
    result = runner.invoke(app, args, input=typed())
    out = result.output
    assert result.exit_code == 0, out
    assert "Traceback" not in out and "Game stopped" not in out
    # The table, the bad-input messages and the narration.
    assert "Round 1" in out and "no trump in round 1" in out and "Your hand:" in out
    assert "'x9' is not a card: write colour letter + number, e.g. g7" in out
    assert "round 1 has no trump (MT-4.1)" in out
    assert "you don't hold" in out and "you must follow" in out and "(MT-5.3)" in out
    assert "Commands: hand (or Enter) redraws the table" in out
    assert re.search(r"takes? the trick with [RYGBP]\d+ and goes? out: \+\d+", out)
    flat = " ".join(out.split())  # rich wraps long lines at 80 columns
    assert re.search(r"Round 1 over: [^.]+ left in and scores? nothing; [^.]+ deals? next\.", flat)
    if "You deal: name trump" in out:  # depends on the bots; the UI tests below cover it
        assert re.search(r"You name (green|purple) as trump\.", out)
    assert "Final standings" in out
    winner = re.search(r"Winner: (.+) with (\d+) points \(target 20\)\.", out)
    assert winner is not None
    assert re.search(rf"{re.escape(winner[1])} reach(es)? {winner[2]} and wins?\.", out)
    # The record replays cleanly to the scores the final table printed.
    replayed = runner.invoke(app, ["replay", str(record), "--json"])
    assert replayed.exit_code == 0, replayed.output
    summary = json.loads(replayed.stdout)
    assert summary["finished"] is True
    standings = out[out.index("Final standings") :]
    for name, score in zip(_players(record), summary["scores"], strict=True):
        assert re.search(rf"{re.escape(name)}\s+(\d+\s+)*{score}\s*\n", standings), (name, score)
    assert int(winner[2]) == max(summary["scores"])


def _players(record: Path) -> list[str]:
    players: list[str] = json.loads(record.read_text())["players"]
    return players


def test_quit_mid_game_stops_cleanly(tmp_path: Path) -> None:
    record = tmp_path / "partial.json"
    result = runner.invoke(
        app, ["play", "--seed", "1", "--save", str(record)], input="x9\nhelp\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "Game stopped." in result.output and "Traceback" not in result.output
    assert record.exists()


def test_end_of_input_stops_cleanly() -> None:
    result = runner.invoke(app, ["play", "marshmallow-test", "-p", "3"], input="")
    assert result.exit_code == 0, result.output
    assert "Game stopped." in result.output and "Traceback" not in result.output


def test_no_arguments_starts_the_default_game() -> None:
    result = runner.invoke(app, [], input="help\nzz\n")
    assert result.exit_code == 0, result.output
    assert "Round 1" in result.output and "Your hand:" in result.output
    assert "'zz' is not a card" in result.output and "Game stopped." in result.output


@pytest.mark.parametrize(
    "args",
    [["-p", "7"], ["--seat", "9"], ["--bots", "nosuch"], ["-o", "target=x"], ["nosuchgame"]],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str]) -> None:
    # A wide terminal: rich wraps stderr at 80 columns, and "one line" means one logical line.
    result = runner.invoke(app, ["play", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr


def test_watching_bots_plays_a_whole_game() -> None:
    result = runner.invoke(app, ["play", "--watch", "--seed", "5", "-p", "5", "--bots", "easy"])
    out = result.output
    assert result.exit_code == 0, out
    assert "Your hand" not in out  # a spectator sees no hand
    assert "Final standings" in out and re.search(r"Winner: .+ with \d+ points", out)
    assert re.search(r"names \w+ as trump\.", out) and "Tricks: " in out
    assert len(out.splitlines()) < 1000  # readable, not a table per card


# ---------------------------------------------------------------- the UI alone


def ui_and_output(seat: int | None = 0) -> tuple[MarshmallowTestUI, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    game = cardtable.load("marshmallow-test", players=4)
    return MarshmallowTestUI(game, console, NAMES, seat), out


def view_with(**changes: object) -> MarshmallowView:
    game = cardtable.load("marshmallow-test", players=4)
    view = game.new_game(random.Random(0)).view(0)
    assert isinstance(view, MarshmallowView)
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def answers(*lines: str) -> tuple[list[str], object]:
    prompts: list[str] = []
    feed: Iterator[str] = iter(lines)

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise QuitGame from None

    return prompts, read_line


def ask(view: MarshmallowView, legal: Sequence[Move], *lines: str) -> tuple[Move, str]:
    ui, out = ui_and_output()
    _, read_line = answers(*lines)
    move = ui.ask(view, legal, read_line)  # type: ignore[arg-type]
    return move, out.getvalue()


def cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


def test_the_dealer_names_trump_by_word_letter_or_phrase() -> None:
    due = view_with(round_number=2, trump=None, dealer=0, to_move=0)
    assert due.trump_due
    for text, colour in (("green", 2), ("G", 2), ("trump purple", 4), ("Trump b", 3)):
        move, _ = ask(due, TRUMPS, text)
        assert move == NameTrump(colour)
    move, out = ask(due, TRUMPS, "r3", "trump x", "q9", "y")
    assert move == NameTrump(1)
    assert "name trump before the first card (MT-4.2)" in out
    assert "'trump x' names no colour" in out and "as dealer, name trump first" in out


def test_an_unplayable_card_is_explained_from_the_view() -> None:
    hand = cards("R4", "R9", "G2", "P7")
    red_led = view_with(
        round_number=2,
        trump=4,
        dealer=1,
        to_move=0,
        hand=hand,
        current_trick=((3, parse_card("R5")),),
    )
    legal = (PLAYS[parse_card("R4")], PLAYS[parse_card("R9")])
    move, out = ask(red_led, legal, "g2", "b5", "trump red", "r9")
    assert move == Play(parse_card("R9"))
    assert "you must follow red (MT-5.3): R4, R9" in out
    assert "you don't hold B5; you may play R4, R9" in out
    assert "trump is already purple" in out
    assert "You may play: R4, R9" in out  # marked in words, not colour alone

    ruffed = dataclasses.replace(
        red_led, current_trick=((2, parse_card("R5")), (3, parse_card("P3")))
    )
    may = (*legal, PLAYS[parse_card("P7")])
    _, out = ask(ruffed, may, "g2", "p7")
    assert "you must follow red or trump in with purple (MT-5.4): R4, R9, P7" in out
    must = dataclasses.replace(ruffed, trump_after_ruff="must")
    _, out = ask(must, (PLAYS[parse_card("P7")],), "r4", "p7")
    assert "you must play a trump after the ruff (MT-5.4): P7" in out


def test_after_a_ruff_a_player_without_trump_is_told_only_to_follow() -> None:
    """The reported case: yellow trump, purple led and ruffed, no yellow in
    hand: trumping in is no option, so the explanation must not offer it."""
    ruffed = view_with(
        round_number=2,
        trump=1,
        dealer=1,
        to_move=0,
        hand=cards("R5", "P4", "P11", "G3"),
        current_trick=((2, parse_card("P2")), (3, parse_card("Y6"))),
    )
    legal = (PLAYS[parse_card("P4")], PLAYS[parse_card("P11")])
    _, out = ask(ruffed, legal, "r5", "p4")
    assert "you must follow purple (MT-5.3): P4, P11" in out
    assert "trump in" not in out and "yellow" not in out


def test_the_trump_prompt_answers_in_colours_and_cards_take_a_space() -> None:
    due = view_with(round_number=2, trump=None, dealer=0, to_move=0)
    move, out = ask(due, TRUMPS, "orange", "Green")
    assert move == NameTrump(2)
    assert "'orange' is not a colour: as dealer, name trump first" in out
    assert "is not a card" not in out
    leading = view_with(hand=cards("R4", "G10"))
    move, out = ask(leading, (PLAYS[parse_card("R4")], PLAYS[parse_card("G10")]), "Z 3", "G 10")
    assert move == Play(parse_card("G10"))  # as g10 would be
    assert "'Z 3' is not a card" in out


def test_quit_raises_quitgame_and_redraw_shows_the_table() -> None:
    ui, out = ui_and_output()
    view = view_with()
    _, read_line = answers("hand", "quit")
    with pytest.raises(QuitGame):
        ui.ask(view, [PLAYS[c] for c in view.hand], read_line)  # type: ignore[arg-type]
    assert out.getvalue().count("Your hand:") == 2 and "Round 1" in out.getvalue()


def test_narration_across_the_end_of_a_round() -> None:
    """The last trick deals the next round: the winner and scores come from
    the before view, the next dealer and round points from the after view."""
    ui, out = ui_and_output(seat=None)
    before = view_with(
        seat=None,
        hand=(),
        round_number=1,
        dealer=0,
        to_move=3,
        hand_sizes=(0, 4, 0, 1),
        out=(True, False, True, False),
        trick_counts=(3, 2, 3, 2),
        scores=(7, 0, 6, 0),
        tricks=((),) * 10,
        current_trick=((1, parse_card("G4")),),
        round_scores=((7, 0, 6, 0),),
    )
    after = view_with(
        seat=None,
        hand=(),
        round_number=2,
        dealer=1,
        to_move=1,
        trump=None,
        scores=(7, 0, 6, 8),
        round_scores=((7, 0, 6, 8), (0, 0, 0, 0)),
    )
    ui._shown = True  # skip the spectator's first table
    ui.narrate(before, 3, PLAYS[parse_card("G9")], after)
    text = out.getvalue()
    assert "Dev plays G9." in text
    assert "Dev takes the trick with G9 and goes out: +8 (total 8)." in text
    assert "Round 1 over: Bob is left in and scores nothing; Bob deals next." in text
    assert "Scores: You 7 (+7), Bob 0 (+0), Cleo 6 (+6), Dev 8 (+8)" in text
    assert "Round 2" in text  # a spectator gets the new round's table
