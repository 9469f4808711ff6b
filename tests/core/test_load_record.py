"""``cardtable.load_record``: the state a record describes, ready to play on
(the server resumes tables this way). Deals come from the record; a record
that stops at the end of a round is dealt the next round from the generator
given, or from one of its own; a bad record raises replay's error."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import RecordError
from cardtable.core.game import State
from cardtable.core.replay import RuleBreakError
from tests.core.helpers import finished_game, record_with


def first_rounds(rounds: int, moves: int | None = None) -> dict[str, Any]:
    """The finished game's first ``rounds`` rounds, the last cut to ``moves`` moves."""
    record = finished_game()
    record["rounds"] = record["rounds"][:rounds]
    if moves is not None:
        del record["rounds"][-1]["moves"][moves:]
    del record["result"]
    return record


def replayed(record: dict[str, Any]) -> State:
    state = cardtable.replay(record).state
    assert state is not None
    return state


def test_a_record_ending_at_a_round_boundary_is_dealt_the_next_round_from_rng() -> None:
    record = first_rounds(2)
    expected = replayed(record).clone(random.Random(7))
    expected.deal()
    loaded = cardtable.load_record(record, random.Random(7))
    assert (loaded.round_number, loaded.awaiting_deal, loaded.finished) == (3, False, False)
    assert [loaded.view(seat) for seat in range(3)] == [expected.view(seat) for seat in range(3)]


def test_without_rng_the_next_round_is_dealt_from_a_generator_of_its_own() -> None:
    loaded = cardtable.load_record(first_rounds(2))
    assert (loaded.round_number, loaded.awaiting_deal) == (3, False)
    assert loaded.legal_moves()


def test_a_state_loaded_mid_round_deals_later_rounds_from_rng() -> None:
    record = first_rounds(2, moves=10)
    expected = replayed(record).clone(random.Random(7))
    loaded = cardtable.load_record(record, random.Random(7))
    assert loaded.round_number == 2 and loaded.moves_in_round == 10
    while expected.round_number == 2:
        move = expected.legal_moves()[0]
        expected.apply(move)
        loaded.apply(move)
    assert (loaded.round_number, loaded.awaiting_deal) == (3, False)
    assert [loaded.view(seat) for seat in range(3)] == [expected.view(seat) for seat in range(3)]


def test_a_finished_game_loads_finished() -> None:
    loaded = cardtable.load_record(finished_game(), random.Random(7))
    assert loaded.finished
    assert list(loaded.scores) == finished_game()["result"]["scores"]


@pytest.mark.parametrize(
    ("record", "kind"),
    [
        (record_with("result/scores", [0, 0, 0]), RuleBreakError),
        (record_with("rounds/0/moves/0/seat", 3), RecordError),
    ],
)
def test_a_bad_record_raises_replays_error(record: dict[str, Any], kind: type) -> None:
    with pytest.raises(kind) as info:
        cardtable.load_record(record)
    assert info.value == cardtable.replay(record).error
