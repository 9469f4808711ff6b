"""Every mistake a person or a record can make gets one sentence saying where
and why, with the rule it breaks: the exact words are part of the contract
(``shared/design/architecture.md``, "Errors say what and why")."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.errors import IllegalMoveError, OptionError, RecordError
from cardtable.games.myrummy_111 import MyRummy111, MyRummyState, Place, Take, load_symbols
from cardtable.games.myrummy_111.moves import move_from_index, parse_move

from .helpers import dealt, make_deal

GAME = MyRummy111(players=2)
# Seat 0 holds 2…13, seat 1 14…25; the middle is 26, 27, 28; the draw pile 29…111.
DEAL = make_deal([list(range(2, 14)), list(range(14, 26))], [26, 27, 28]).to_json()
MISSING = "the deal must hold all 110 cards; missing"
TWO_KINDS = "a move has fields of two kinds ('take' and 'place')"
USAGE = "write 'take S', 'refresh S' (S = slot 0–2) or 'place P left|right|far [declare]'"


def fresh() -> MyRummyState:
    return dealt(GAME, make_deal([list(range(2, 14)), list(range(14, 26))], [26, 27, 28]))


def changed(**parts: Any) -> dict[str, Any]:
    deal = copy.deepcopy(DEAL)
    deal.update(parts)
    return deal


DEAL_ERRORS: list[tuple[Any, str, str]] = [
    (5, "d", "a deal is an object, not an integer"),
    (None, "d", "a deal is an object, not null"),
    (True, "d", "a deal is an object, not a boolean"),
    (1.5, "d", "a deal is an object, not a number"),
    ("x", "d", "a deal is an object, not a string"),
    ([], "d", "a deal is an object, not a list"),
    (("x",), "d", "a deal is an object, not tuple"),
    (changed(extra=1), "d.extra", "unknown field"),
    ({"hands": DEAL["hands"], "middle": DEAL["middle"]}, "d", "missing field 'draw'"),
    (changed(hands="x"), "d.hands", "must be a list of hands, not a string"),
    (changed(hands={}), "d.hands", "must be a list of hands, not an object"),
    (changed(hands=DEAL["hands"][:1]), "d.hands", "must hold 2 hands, one per seat, not 1"),
    (
        changed(hands=[DEAL["hands"][0], DEAL["hands"][1][:-1]]),
        "d.hands[1]",
        "seat 1 must hold 12 cards, not 11",
    ),
    (changed(hands=[DEAL["hands"][0], 7]), "d.hands[1]", "must be a list of cards, not an integer"),
    (changed(middle=[26, 27]), "d.middle", "must hold 3 cards, not 2"),
    (changed(middle=None), "d.middle", "must be a list of cards, not null"),
    (changed(draw=[*DEAL["draw"][:-1], "5"]), "d.draw[82]", "a card is an integer 2–111, not '5'"),
    (changed(draw=[*DEAL["draw"][:-1], 1]), "d.draw[82]", "unknown card 1"),
    (
        changed(draw=[*DEAL["draw"][:-1], 29]),
        "d.draw[82]",
        "card 29 is dealt twice (also at d.draw[0])",
    ),
    (changed(middle=[26, 27, 2]), "d.middle[2]", "card 2 is dealt twice (also at d.hands[0][0])"),
    (
        changed(draw=DEAL["draw"][:-10]),
        "d",
        f"{MISSING} 102, 103, 104, 105, 106, 107, 108, 109, 110, 111",
    ),
    (
        changed(draw=DEAL["draw"][:-11]),
        "d",
        f"{MISSING} 101, 102, 103, 104, 105, 106, 107, 108, 109, 110…",
    ),
]


@pytest.mark.parametrize(("obj", "where", "reason"), DEAL_ERRORS)
def test_mr_3_deal_errors_say_where_and_why(obj: Any, where: str, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        GAME.deal_from_json(obj, "d")
    assert (info.value.where, info.value.reason) == (where, reason)


MOVE_ERRORS: list[tuple[Any, str, str]] = [
    ([], "m", "a move is an object, not a list"),
    ({"take": 0}, "m", "missing field 'seat'"),
    ({"seat": 2, "take": 0}, "m.seat", "must be a seat 0–1, not 2"),
    ({"seat": "0", "take": 0}, "m.seat", "must be a seat 0–1, not '0'"),
    ({"seat": 0, "take": 0, "place": 1}, "m", TWO_KINDS),
    ({"seat": 0}, "m", "a move needs 'take' or 'place'"),
    ({"seat": 0, "take": 0, "discard": "left"}, "m.discard", TWO_KINDS),
    ({"seat": 0, "take": 0, "declare": True}, "m.declare", TWO_KINDS),
    ({"seat": 0, "take": 0, "x": 1}, "m.x", "unknown field"),
    ({"seat": 0, "take": 3}, "m.take", "a slot is 0, 1 or 2, not 3"),
    ({"seat": 0, "take": 0, "refresh": 1}, "m.refresh", "must be true or false, not 1"),
    (
        {"seat": 0, "take": 0, "reshuffle": {}},
        "m.reshuffle",
        "must be a list of cards, not an object",
    ),
    ({"seat": 0, "take": 0, "reshuffle": [5, 1]}, "m.reshuffle[1]", "unknown card 1"),
    ({"seat": 0, "place": 1, "discard": "left", "refresh": True}, "m.refresh", TWO_KINDS),
    ({"seat": 0, "place": 1, "discard": "left", "reshuffle": []}, "m.reshuffle", TWO_KINDS),
    ({"seat": 0, "place": 1, "discard": "left", "y": 1}, "m.y", "unknown field"),
    (
        {"seat": 0, "place": -1, "discard": "left"},
        "m.place",
        "a position is an integer ≥ 0, not -1",
    ),
    ({"seat": 0, "place": 1}, "m", "missing field 'discard'"),
    (
        {"seat": 0, "place": 1, "discard": "up"},
        "m.discard",
        "must be 'left', 'right' or 'far', not 'up'",
    ),
    (
        {"seat": 0, "place": 1, "discard": "left", "declare": "yes"},
        "m.declare",
        "must be true or false, not 'yes'",
    ),
]


@pytest.mark.parametrize(("obj", "where", "reason"), MOVE_ERRORS)
def test_mr_4_move_errors_say_where_and_why(obj: Any, where: str, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        GAME.move_from_json(obj, "m")
    assert (info.value.where, info.value.reason) == (where, reason)


OPTION_ERRORS: list[tuple[dict[str, Any], str, str]] = [
    ({"players": 1}, "players", "must be an integer from 2 to 5, got 1"),
    ({"players": True}, "players", "must be an integer from 2 to 5, got True"),
    (
        {"players": 3, "hand_sizes": [12, 12]},
        "hand_sizes",
        "must be a list of 3 integers 12–14, one per seat, got [12, 12]",
    ),
    (
        {"players": 3, "hand_sizes": (12, 15, 12)},
        "hand_sizes",
        "seat 1: 15 is not an integer 12–14",
    ),
    ({"players": 3, "target": 0}, "target", "must be an integer from 1 to 500, got 0"),
    ({"players": 3, "target": None}, "target", "must be an integer from 1 to 500, got None"),
    ({"players": 3, "rounds": 0}, "rounds", "must be an integer from 1 to 100 or null, got 0"),
    (
        {"players": 3, "turn_limit": -1},
        "turn_limit",
        "must be an integer from 1 to 5000 or null, got -1",
    ),
    ({"players": 3, "symbols": 5}, "symbols", "must be a list of 110 integers 1–4, not int"),
    (
        {"players": 3, "symbols": [1] * 109},
        "symbols",
        "must list 110 integers 1–4 (cards 2…111), got 109",
    ),
    (
        {"players": 3, "symbols": [1] * 109 + [0]},
        "symbols",
        "card 111 has 0 symbols; each must be an integer 1–4",
    ),
    ({"players": 3, "first_player": 3}, "first_player", "must be a seat from 0 to 2, got 3"),
    (
        {"players": 3, "colour": "red"},
        "colour",
        "unknown option; options are players, hand_sizes, target, rounds, turn_limit, symbols,"
        " first_player",
    ),
]


@pytest.mark.parametrize(("options", "option", "reason"), OPTION_ERRORS)
def test_mr_9_option_errors_name_the_option(
    options: dict[str, Any], option: str, reason: str
) -> None:
    with pytest.raises(OptionError) as info:
        MyRummy111(**options)
    assert (info.value.option, info.value.reason) == (option, reason)


def test_mr_9_symbols_file_errors(tmp_path: Path) -> None:
    def reason(path: Path) -> tuple[str, str]:
        with pytest.raises(OptionError) as info:
            load_symbols(path)
        return info.value.option, info.value.reason

    missing = tmp_path / "missing.txt"
    assert reason(missing) == ("symbols", f"cannot read '{missing}': No such file or directory")
    path = tmp_path / "symbols.txt"
    path.write_text("[1, 2")
    assert reason(path) == ("symbols", f"'{path}' is not valid JSON: Expecting ',' delimiter")
    path.write_bytes(b"\xff\xfe 1 2")
    assert reason(path) == ("symbols", f"cannot read '{path}': not UTF-8 text")
    assert reason(tmp_path) == ("symbols", f"cannot read '{tmp_path}': Is a directory")
    path.write_text("+1 -2 x 3")  # signed numbers read as numbers; the first word that is not
    assert reason(path) == ("symbols", f"'{path}', number 3: 'x' is not an integer")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", f"empty move; {USAGE}"),
        ("take 3", f"'take 3': the slot must be one of 0, 1, 2; {USAGE}"),
        ("refresh take", f"'refresh take': the slot must be one of 0, 1, 2; {USAGE}"),
        ("place x left", f"'place x left': {USAGE}"),
        ("place 1", f"'place 1': {USAGE}"),
        ("place 1 up", "'place 1 up': discard must be left, right or far, not 'up'"),
        ("place 1 left now", "'place 1 left now': only 'declare' may follow the discard side"),
        ("draw 1", f"'draw 1': unknown move 'draw'; {USAGE}"),
    ],
)
def test_mr_4_notation_errors_explain_the_notation(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_move(text)
    assert str(info.value) == message


@pytest.mark.parametrize("index", [96, -1, True, "3"])
def test_mr_4_action_index_errors(index: Any) -> None:
    with pytest.raises(ValueError) as info:
        move_from_index(index)
    assert str(info.value) == f"action index must be an integer 0–95, got {index!r}"


def broken(state: MyRummyState, move: Any, **chance: Any) -> str:
    """The error ``move`` raises, after checking that it changed nothing."""
    before = (state.record(), state.legal_moves(), state.view(0))
    with pytest.raises(IllegalMoveError) as info:
        state.apply(move, **chance)
    assert (state.record(), state.legal_moves(), state.view(0)) == before
    return str(info.value)


def all_face_up(state: MyRummyState) -> MyRummyState:
    for slot in range(3):
        state.apply(Take(slot))
        state.apply(Place(1, "left"))
    return state


def test_mr_4_rule_breaks_cite_the_rule() -> None:
    state = fresh()
    with pytest.raises(IllegalMoveError) as info:
        state.apply_as(1, Take(0))
    assert str(info.value) == "it is seat 0's turn, not seat 1's (MR-4)"
    assert broken(state, Take(0), bogus=1) == "unknown chance outcome 'bogus' (MR-4)"
    assert broken(state, Take(3)) == "there is no slot 3: slots are 0, 1, 2 (MR-4.2)"
    assert broken(state, Take(-1)) == "there is no slot -1: slots are 0, 1, 2 (MR-4.2)"
    assert broken(state, Take(0), reshuffle=[29]) == (
        "no reshuffle is needed: this take has no refresh (MR-4.6)"
    )
    assert broken(state, Take(0, True)) == (
        "refresh only when all three middle cards are face up (MR-4.1)"
    )
    assert broken(state, Place(1, "left")) == "a take is due, not a place (MR-4)"
    assert broken(state, "take 0") == "'take 0' is not a MyRummy 111 move (MR-4)"
    state.apply(Take(0))
    assert broken(state, Take(1)) == "a place is due, not a take (MR-4)"
    assert broken(state, Place(1, "left"), reshuffle=[29]) == (
        "no reshuffle is needed: a place never refreshes (MR-4.6)"
    )
    assert broken(state, Place(13, "left")) == (
        "place 13 is beyond the hand: positions 0–12 (MR-4.3)"
    )
    assert broken(state, Place(0, "left")) == (
        "place 0 has no left neighbour: discard right or far (MR-4.4)"
    )
    assert broken(state, Place(12, "right")) == (
        "place 12 has no right neighbour: discard left or far (MR-4.4)"
    )
    for p in (1, 11):
        assert broken(state, Place(p, "far")) == (
            f"far only when inserted at an end (place 0 or 12), not {p} (MR-4.4)"
        )


def test_mr_4_6_reshuffle_errors_cite_the_rule() -> None:
    state = all_face_up(fresh())
    assert broken(state, Take(0, True), reshuffle=[29, 30]) == (
        "no reshuffle is needed: the draw pile holds 83 cards (MR-4.6)"
    )
    game = MyRummy111(players=2, rounds=1)
    state = game.new_state()
    state.deal(make_deal([list(range(2, 14)), list(range(14, 26))], [26, 27, 28], ()))
    while len(state.draw_pile) >= 3 or not all(state.middle_face_up):
        refresh = all(state.middle_face_up)
        state.apply(Take(0, refresh) if refresh else Take(state.middle_face_up.index(False)))
        state.apply(Place(1, "left"))
    pile = len(state.discard_pile) + 3
    assert broken(state, Take(0, True)) == (
        f"the discard pile must be reshuffled: the draw pile holds {len(state.draw_pile)} cards"
        " (MR-4.6)"
    )
    assert broken(state, Take(0, True), reshuffle=[29]) == (
        f"the reshuffle must be a permutation of the {pile} cards of the discard pile (MR-4.6)"
    )


def test_mr_3_and_7_no_move_and_no_deal_when_none_is_due() -> None:
    state = GAME.new_state()
    assert broken(state, Take(0)) == "round 1 must be dealt first (MR-3.1)"
    with pytest.raises(IllegalMoveError) as info:
        state.apply_as(0, Take(0))
    assert str(info.value) == "round 1 must be dealt first (MR-3.1)"
    with pytest.raises(ValueError) as value:
        state.deal()
    assert str(value.value) == "this state has no generator: pass an explicit deal"
    state.deal(DEAL)
    with pytest.raises(IllegalMoveError) as info:
        state.deal(DEAL)
    assert str(info.value) == "no deal is due: round 1 is in progress (MR-3.1)"
    state = dealt(MyRummy111(players=2, rounds=1), make_deal(DEAL["hands"], DEAL["middle"]))
    state.apply(Take(0))
    state.apply(Place(0, "far", True))
    assert state.finished and broken(state, Take(0)) == "the game is over (MR-7.1)"
    with pytest.raises(IllegalMoveError) as info:
        state.deal(DEAL)
    assert str(info.value) == "no deal is due: the game is over (MR-3.1)"
    with pytest.raises(RecordError) as record:
        GAME.new_state().deal(changed(hands="x"))
    assert str(record.value) == "deal.hands: must be a list of hands, not a string"


def test_mr_5_views_are_for_seats_or_spectators_only() -> None:
    state = fresh()
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError) as info:
            state.view(seat)  # type: ignore[arg-type]
        assert str(info.value) == f"no seat {seat!r}: seats are 0 to 1"


def test_mr_resume_refuses_a_dealt_state_and_bad_positions() -> None:
    def refused(state: MyRummyState, **args: Any) -> str:
        with pytest.raises(ValueError) as info:
            state.resume(
                **{
                    "round_number": 2,
                    "start_player": 1,
                    "scores": [3, 4],
                    "past_round_scores": [[3, 4]],
                    **args,
                }
            )
        return str(info.value)

    assert refused(fresh()) == "resume() needs a new state that has not been dealt"
    ended = GAME.new_state()
    ended.deal(DEAL)
    ended.apply(Take(0))
    ended.apply(Place(0, "far", True))  # round 1 over, round 2 not dealt
    assert ended.awaiting_deal
    assert refused(ended) == "resume() needs a new state that has not been dealt"
    new = GAME.new_state()
    assert refused(new, start_player=2) == "bad resume: round 2, start 2"
    assert refused(new, round_number=0, past_round_scores=[]) == "bad resume: round 0, start 1"
    assert refused(new, scores=[3]) == "bad resume: round 2, start 1"
    assert refused(new, past_round_scores=[]) == "round 2 follows 1 earlier rounds of 2 scores"
    new.resume(round_number=2, start_player=1, scores=[3, 4], past_round_scores=[[3, 4]])
    new.deal(DEAL)
    assert (new.round_number, new.to_move, new.scores) == (2, 1, (3, 4))
