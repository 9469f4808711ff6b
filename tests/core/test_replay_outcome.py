"""What ``cardtable.replay`` returns: the ``--trace`` decision points (record
format, `cardtable replay`), the ``--json`` error object, and recorded chance
(MR-4.6's `reshuffle`) handed to the rules."""

from __future__ import annotations

import random
from typing import Any

import cardtable
from cardtable.core.errors import OptionError
from cardtable.core.game import JSON, State
from cardtable.core.replay import error_json, parse_record
from tests.core.helpers import DELETE, finished_game, record_with, walk


def decision_points(record: dict[str, Any]) -> list[tuple[int, int]]:
    return [
        (r, m)
        for r, round_ in enumerate(record["rounds"], start=1)
        for m in range(1, len(round_["moves"]) + 1)
    ]


def test_trace_has_one_decision_point_per_recorded_move_only_when_asked() -> None:
    record = finished_game()
    assert cardtable.replay(record).trace == []
    outcome = cardtable.replay(record, trace=True)
    assert outcome.error is None
    assert [(line["round"], line["move"]) for line in outcome.trace] == decision_points(record)
    before = walk(record, 2, 3)  # the decision point of round 2, move 4
    assert outcome.trace[len(record["rounds"][0]["moves"]) + 3] == {
        "round": 2,
        "move": 4,
        "seat": before.to_move,
        "legal": [move.to_json() for move in before.legal_moves()],
    }


def test_trace_lines_go_to_on_trace_as_they_are_reached() -> None:
    record = finished_game()
    lines: list[dict[str, JSON]] = []
    outcome = cardtable.replay(record, trace=True, on_trace=lines.append)
    assert outcome.trace == []
    assert lines == cardtable.replay(record, trace=True).trace
    silent: list[dict[str, JSON]] = []
    cardtable.replay(record, on_trace=silent.append)
    assert silent == []


def test_an_error_without_a_position_has_null_round_and_move() -> None:
    """`cardtable replay --json`: `round`/`move` are null where they do not apply."""
    error = OptionError("target", "must be a positive integer")
    assert error_json(error) == {
        "round": None,
        "move": None,
        "message": "option 'target': must be a positive integer",
    }


def refreshing_game() -> tuple[dict[str, Any], State]:
    """A MyRummy 111 game whose players refresh whenever they may, until the
    draw pile runs out and a refresh reshuffles the discard pile (MR-4.6)."""
    game = cardtable.load("myrummy-111", players=2)
    state = game.new_game(random.Random(1))
    rng = random.Random(1)
    while True:
        legal = state.legal_moves()
        refresh = [m for m in legal if m.to_json().get("refresh")]
        keep_going = [m for m in legal if not m.to_json().get("declare")]
        choice = refresh or keep_going
        state.apply(choice[rng.randrange(len(choice))])
        record = state.record()
        if refresh and "reshuffle" in record["rounds"][-1]["moves"][-1]:
            return record, state


def test_mr_4_6_a_recorded_reshuffle_reaches_the_rules() -> None:
    """The record carries the reshuffled discard pile; without it the rules
    would refuse the refresh ("reshuffle missing", exit 1)."""
    record, played = refreshing_game()
    outcome = cardtable.replay(record)
    assert outcome.error is None
    assert outcome.state is not None
    assert [outcome.state.view(seat) for seat in (0, 1)] == [played.view(seat) for seat in (0, 1)]


def test_the_parsed_record_keeps_the_players_names_when_given() -> None:
    """record-format: `players` is optional, one name per seat."""
    assert parse_record(finished_game()).players == ["Ann", "Bob", "Cleo"]
    assert parse_record(record_with("players", DELETE)).players is None
