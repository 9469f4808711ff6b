"""The MyRummy 111 terminal game, end to end through ``cardtable play``.

Scripted input is honest: it never depends on hidden cards. ``take 0`` is legal
in every take phase (slot 0 always holds a card) and ``place 0 far`` in every
place phase (inserting at an end may always discard the far end, MR-4.4).
"""

from __future__ import annotations

import io
import json
import random
import re
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.games.myrummy_111 import Deal, MyRummy111, MyRummyState, Place, Take
from cardtable.games.myrummy_111.terminal import MyRummyUI
from cardtable.games.myrummy_111.terminal_render import standings

runner = CliRunner()

BAD_TAKES = "blah\ntake 7\nrefresh 0\nplace 3 left\npreview 2 left\nhelp\n\n"
BAD_PLACES = "take 1\nplace 99 left\nplace 5 far\nplace 0 left\nplace 5\n? 0 far\n"
CYCLE = "take 0\nplace 0 far\n"
DECLARE = "take 0\nplace 0 far declare\ny\n"


def play(*args: str, input: str) -> tuple[int, str]:
    # Bots without a time budget (unless a test picks others): the seed fixes the game.
    bots = [] if "--bots" in args else ["--bots", "easy"]
    result = runner.invoke(app, ["play", "myrummy-111", *bots, *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_a_round_with_bad_input_first_then_replay(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    script = BAD_TAKES + "take 0\n" + BAD_PLACES + "place 0 far\n" + CYCLE * 2 + DECLARE
    code, out = play("-p", "2", "--seed", "3", "-o", "rounds=1", "--save", str(save), input=script)
    assert code == 0, out
    flat = " ".join(out.split())  # the console wraps long lines at 80 columns
    for expected in (
        "Unknown command 'blah'",
        "There is no slot 7: the middle slots are 0, 1 and 2.",
        "refresh only when all three middle cards are face up (MR-4.1)",
        "First take a card",  # place and preview in the take phase
        "MyRummy 111: sort your hand",  # help
        "You have already taken",
        "Position 99 is beyond your hand",
        "Far only from an end: at position 5 you may discard left",
        "(MR-4.4",
        "Position 0 has no left card",
        "Which card goes? After place 5 write left",
        "Preview of place 0 far",
        "Nothing is played yet.",
        "(MR-6.2)",
        "Round 1 is over",
        "Final standings",
        "Winner",
    ):
        assert expected in flat, expected
    assert "Traceback" not in out
    record = json.loads(save.read_text(encoding="utf-8"))
    scores = record["result"]["scores"]
    assert record["result"]["finished"]
    # the standings printed at the end show the same totals
    assert re.search(r"total\s+" + r"\s+".join(map(str, scores)), out)
    check = runner.invoke(app, ["replay", str(save), "--json"])
    assert check.exit_code == 0, check.output
    assert json.loads(check.output)["scores"] == scores


def test_declining_the_unsorted_declaration_keeps_playing() -> None:
    # "n" refuses the confirmation, the same placement without declare follows.
    script = "take 0\nplace 0 far declare\nn\nplace 0 far\n" + CYCLE + DECLARE
    code, out = play("-p", "2", "--seed", "8", "-o", "rounds=1", input=script)
    assert code == 0, out
    assert "Not declared" in out
    assert out.count("Declare anyway?") >= 2
    assert "Final standings" in out


def test_quit_mid_game_saves_the_record_so_far(tmp_path: Path) -> None:
    save = tmp_path / "stopped.json"
    code, out = play("-p", "3", "--seed", "1", "--save", str(save), input="take 0\nquit\n")
    assert code == 0, out
    assert "Game stopped." in out
    assert "Final standings" not in out
    check = runner.invoke(app, ["replay", str(save)])
    assert check.exit_code == 0, check.output
    assert "in progress" in check.output


def test_end_of_input_stops_cleanly() -> None:
    code, out = play("-p", "2", "--seed", "2", input="take 0\n")
    assert code == 0, out
    assert "Game stopped." in out and "Traceback" not in out


def test_bad_symbols_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "symbols.txt"
    bad.write_text("1 2 3\n", encoding="utf-8")
    code, out = play("--symbols", str(bad), input="")
    assert code == 2
    assert f"--symbols {bad}" in " ".join(out.split())
    assert "110" in out  # says how many counts a table needs


def test_a_symbols_file_changes_the_stars(tmp_path: Path) -> None:
    ones = tmp_path / "ones.txt"
    ones.write_text(" ".join(["1"] * 110), encoding="utf-8")
    code, out = play("-p", "2", "--seed", "4", "--symbols", str(ones), input="quit\n")
    assert code == 0, out
    assert "★" in out and "★★" not in out


def test_watching_a_whole_bot_game() -> None:
    code, out = play("-p", "3", "--seed", "5", "--watch", input="")
    assert code == 0, out
    assert "You are watching" in out and "Final standings" in out and "Winner" in out
    assert "You took" not in out  # a spectator has no seat and sees no hidden card
    assert "Your hand" not in out


def test_watching_to_the_turn_limit() -> None:
    code, out = play(
        "-p", "2", "--seed", "6", "--watch", "-o", "rounds=1", "-o", "turn_limit=2", input=""
    )
    assert code == 0, out
    assert "(MR-6.4)" in out and "Final standings" in out


def dealt(game: MyRummy111) -> MyRummyState:
    """Seat 0 holds 10 … 21, seat 1 holds 30 … 41; the middle is 50, 99, 60."""
    hands = (tuple(range(10, 22)), tuple(range(30, 42)))
    middle = (50, 99, 60)
    used = {*hands[0], *hands[1], *middle}
    state = game.new_state()
    state.deal(Deal(hands, middle, tuple(c for c in range(2, 112) if c not in used)))
    return state


def narration(seat: int | None) -> str:
    """Seat 0 takes face-down 99 from slot 1 and discards its far card; what
    does ``seat`` read? 99 appears nowhere else (hands, piles, positions)."""
    game = MyRummy111(players=2)
    state = dealt(game)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    ui = MyRummyUI(game, console, ["Ann", "Bob"], seat)
    for move in (Take(1), Place(0, "far")):
        before = state.view(seat)
        state.apply(move)
        ui.narrate(before, 0, move, state.view(seat))
    if seat is not None and state.to_move == seat:
        ui.show(state.view(seat))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_another_seats_face_down_take_stays_hidden() -> None:
    for seat in (1, None):
        out = narration(seat)
        line = next(x for x in out.splitlines() if x.startswith("Ann took"))
        assert line == "Ann took slot 1 (face down), put it at position 0, discarded 21★★ (far)."
        assert "99" not in out  # not in the narration, nor in seat 1's table and log
    assert "Ann took slot 1 (face down)" in narration(1)


def test_own_face_down_take_shows_the_card() -> None:
    out = narration(0)
    assert "You took 99★ (face down) from slot 1." in out
    assert "You put 99★ at position 0, discarded 21★★ (far)." in out


def test_ask_confirms_an_unsorted_declaration_and_explains_far() -> None:
    game = MyRummy111(players=2)
    state = dealt(game)
    state.apply(Take(1))
    console = Console(file=io.StringIO(), width=200, color_system=None)
    ui = MyRummyUI(game, console, ["You", "Bob"], 0)
    answers = iter(["p 4 f", "p 12 r", "p 0 r d", "no", "p 12 l"])
    move = ui.ask(state.view(0), state.legal_moves(), lambda _prompt: next(answers))
    assert move == Place(12, "left")
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Far only from an end" in out and "Position 12 has no right card" in out
    assert "That hand would not be sorted: 99 11 12" in out and "Not declared" in out
    # A sorted result needs no confirmation: 10 … 21 with 99 appended is sorted.
    answers = iter(["place 12 far declare"])
    move = ui.ask(state.view(0), state.legal_moves(), lambda _prompt: next(answers))
    assert move == Place(12, "far", True)


def test_standings_explain_a_tie_break() -> None:
    game = MyRummy111(players=3, rounds=2)
    view = game.new_game(random.Random(0)).view(None)
    view = replace(
        view,
        scores=(20, 20, 7),
        round_scores=((15, 5, 3), (5, 15, 4)),
        winners=(1,),
        finished=True,
    )
    text = standings(view, ["Ann", "Bob", "Cy"]).plain
    assert "Winner: Bob with 20★." in text
    assert "Tie on 20: broken by the last round (Ann 5, Bob 15)" in text


def test_refresh_once_all_three_are_face_up() -> None:
    game = MyRummy111(players=2)
    state = dealt(game)
    for move in (Take(0), Place(0, "far"), Take(1), Place(0, "far"), Take(2), Place(0, "far")):
        state.apply(move)  # every slot now holds a discarded card, face up
    console = Console(file=io.StringIO(), width=200, color_system=None)
    ui = MyRummyUI(game, console, ["Ann", "You"], 1)
    ui.show(state.view(1))
    answers = iter(["refresh take 2"])
    chosen = ui.ask(state.view(1), state.legal_moves(), lambda _prompt: next(answers))
    assert chosen == Take(2, refresh=True)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "▒▒" not in out  # no slot is face down


def test_a_bot_declaration_names_the_discard_and_shows_the_hand() -> None:
    """Issue 10 item 8 (MR-4.4, MR-6.2): the discarded card lies face up and the
    declarer shows the hand, so the narration names both, even when the next
    round is already dealt and its views no longer hold the old history."""
    for seat in (1, None):
        game = MyRummy111(players=2, rounds=2)
        state = dealt(game).clone(random.Random(0))  # deals round 2 at once
        console = Console(file=io.StringIO(), width=200, color_system=None)
        ui = MyRummyUI(game, console, ["Ann", "Bob"], seat)
        for move in (Take(1), Place(12, "far", True)):  # face-down 99 last, 10 out
            before = state.view(seat)
            state.apply(move)
            ui.narrate(before, 0, move, state.view(seat))
        assert state.round_number == 2
        out = console.file.getvalue()  # type: ignore[attr-defined]
        assert (
            "Ann took slot 1 (face down), put it at position 12, discarded 10★★ (far)"
            " and declares!" in out
        )
        assert "a card" not in out
        rows = out.split("Ann's declared hand:\n", 1)[1].splitlines()
        assert rows[0].split() == ["card", *map(str, range(11, 22)), "99"]


def test_help_and_errors_write_positions_as_numbers() -> None:
    """Issue 10 item 9: help spoke of ``h = far right`` and ``place h left`` was
    refused unexplained; positions are the pos row's numbers, 0 … hand size."""
    game = MyRummy111(players=2)
    state = dealt(game)
    state.apply(Take(1))
    console = Console(file=io.StringIO(), width=200, color_system=None)
    ui = MyRummyUI(game, console, ["You", "Bob"], 0)
    answers = iter(["help", "place h left", "place 12 left"])
    move = ui.ask(state.view(0), state.legal_moves(), lambda _prompt: next(answers))
    assert move == Place(12, "left")
    flat = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert "h = " not in flat and "P = 0 or h" not in flat
    assert "0 = before the first card … 12 = after the last" in flat
    assert "(P = 0 or 12)" in flat
    assert (
        "'h' is not a position: positions are the numbers of the pos row,"
        " 0 (before your first card) … 12 (after your last)" in flat
    )


def test_your_own_declaration_shows_your_declared_hand() -> None:
    game = MyRummy111(players=2, rounds=1)
    state = dealt(game)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    ui = MyRummyUI(game, console, ["You", "Bob"], 0)
    for move in (Take(1), Place(12, "far", True)):
        before = state.view(0)
        state.apply(move)
        ui.narrate(before, 0, move, state.view(0))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "You put 99★ at position 12, discarded 10★★ (far) and declare!" in out
    assert "Your declared hand:" in out and "Your final hand" not in out
