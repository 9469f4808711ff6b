"""Records, notation and action indices (record-format.md, MyRummy part)."""

from __future__ import annotations

import random

import pytest

from cardtable.core.errors import IllegalMoveError, RecordError
from cardtable.games.myrummy_111 import MyRummy111, MyRummyState, Place, Take
from cardtable.games.myrummy_111.moves import MOVES, NUM_ACTIONS

from .helpers import random_game

GAME = MyRummy111(players=2)


def test_mr_4_action_indices_and_notation_round_trip() -> None:
    assert len(MOVES) == NUM_ACTIONS == 96
    for i, move in enumerate(MOVES):
        assert move.index == i and GAME.move_from_index(i) is move
        assert GAME.parse_move(str(move)) is move
    assert str(Take(1, True)) == "refresh, take 1" and GAME.parse_move("refresh 1") is MOVES[4]
    assert str(Place(0, "far", True)) == "place 0 far, declare"
    assert GAME.parse_move("place 0 far declare") == Place(0, "far", True)
    assert Take(2, True).to_json() == {"refresh": True, "take": 2}
    assert Place(4, "left").to_json() == {"place": 4, "discard": "left"}
    for text in ("", "take 3", "place 5 up", "place x left", "draw 1", "place 1 left now"):
        with pytest.raises(ValueError):
            GAME.parse_move(text)
    with pytest.raises(ValueError):
        GAME.move_from_index(96)


def test_mr_3_deal_from_json_checks() -> None:
    deal = random_game(3, turn_limit=5).record()["rounds"][0]["deal"]
    assert GAME.deal_from_json(deal, "d").to_json() == deal
    cases = [
        (dict(deal, hands=[deal["hands"][0], deal["hands"][1][:-1]]), "d.hands[1]"),
        ({**deal, "extra": 1}, "d.extra"),
        (dict(deal, middle=deal["middle"][:2]), "d.middle"),
        (dict(deal, draw=[*deal["draw"][:-1], 112]), "d.draw[82]"),
        (dict(deal, draw=[*deal["draw"][:-1], True]), "d.draw[82]"),
        (dict(deal, draw=[*deal["draw"][:-1], deal["draw"][0]]), "d.draw[82]"),
        (dict(deal, draw=deal["draw"][:-1]), "d"),
        ([], "d"),
    ]
    for obj, where in cases:
        with pytest.raises(RecordError) as info:
            GAME.deal_from_json(obj, "d")
        assert info.value.where == where, (obj if not isinstance(obj, dict) else where, info.value)


def test_mr_4_move_from_json_strict() -> None:
    assert GAME.move_from_json({"seat": 1, "take": 2}, "m") == (1, Take(2), {})
    assert GAME.move_from_json(
        {"seat": 0, "refresh": True, "take": 0, "reshuffle": [5, 6]}, "m"
    ) == (0, Take(0, True), {"reshuffle": [5, 6]})
    assert GAME.move_from_json({"seat": 0, "place": 3, "discard": "far", "declare": True}, "m")[
        1
    ] == Place(3, "far", True)
    _seat, far_out, _ = GAME.move_from_json({"seat": 0, "place": 40, "discard": "left"}, "m")
    assert far_out.index == -1  # well formed; the rules reject it (MR-4.3)
    bad = [
        {"seat": 2, "take": 0},
        {"seat": True, "take": 0},
        {"take": 0},
        {"seat": 0},
        {"seat": 0, "take": 3},
        {"seat": 0, "take": True},
        {"seat": 0, "take": 0, "refresh": 1},
        {"seat": 0, "take": 0, "place": 1, "discard": "left"},
        {"seat": 0, "take": 0, "discard": "left"},
        {"seat": 0, "place": 1, "discard": "up"},
        {"seat": 0, "place": -1, "discard": "left"},
        {"seat": 0, "place": 1.0, "discard": "left"},
        {"seat": 0, "place": 1},
        {"seat": 0, "place": 1, "discard": "left", "declare": 1},
        {"seat": 0, "take": 0, "x": 1},
        {"seat": 0, "take": 0, "reshuffle": [112]},
        {"seat": 0, "place": 1, "discard": "left", "reshuffle": []},
        [],
    ]
    for obj in bad:
        with pytest.raises(RecordError):
            GAME.move_from_json(obj, "m")


def test_mr_4_3_place_beyond_hand_from_record_is_rule_break() -> None:
    state = GAME.new_game(random.Random(1))
    state.apply(Take(0))
    _, move, _ = GAME.move_from_json({"seat": 0, "place": 40, "discard": "left"}, "m")
    with pytest.raises(IllegalMoveError, match=r"MR-4\.3"):
        state.apply(move)


def test_mr_3_record_holds_current_deal_before_any_move() -> None:
    state = GAME.new_game(random.Random(2))
    rec = state.record()
    assert len(rec["rounds"]) == 1 and rec["rounds"][0]["moves"] == []
    assert rec["result"] == {"finished": False, "scores": [0, 0], "round_scores": [], "winners": []}


def _waiting(state: MyRummyState) -> tuple[bool, int | None]:
    return state.awaiting_deal, state.to_move


def test_mr_3_awaiting_deal_without_generator() -> None:
    state = GAME.new_state()
    assert _waiting(state) == (True, None) and state.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="dealt first"):
        state.apply(Take(0))
    rec = GAME.new_game(random.Random(4)).record()
    state.deal(rec["rounds"][0]["deal"])
    assert _waiting(state) == (False, 0)
    with pytest.raises(IllegalMoveError, match="no deal is due"):
        state.deal(rec["rounds"][0]["deal"])
    state.apply(Take(0))
    state.apply(Place(0, "far", True))
    assert _waiting(state) == (True, None) and state.round_number == 2
