"""Every mistake a person or a record can make gets one sentence saying where
and why, with the rule it breaks: the exact words are part of the contract
(``shared/design/architecture.md``, "Errors say what and why")."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.core.errors import IllegalMoveError, OptionError, RecordError
from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest
from cardtable.games.marshmallow_test.cards import CARD_NAMES, card, parse_card, parse_colour
from cardtable.games.marshmallow_test.moves import PLAYS, TRUMPS, move_from_index, parse_move

from .helpers import fill_deal, play, scenario
from .test_rules import EXAMPLE_MOVES, example_state, round_two

GAME = MarshmallowTest(players=3)
HANDS = fill_deal(3, {})  # seat 0 holds R1…R12, seat 1 Y1…Y12, seat 2 G1…G12
NAMES = [[CARD_NAMES[c] for c in hand] for hand in HANDS]
COLOURS = "one of red, yellow, green, blue, purple"


@pytest.mark.parametrize(
    ("options", "option", "reason"),
    [
        ({"players": 1}, "players", "must be an integer from 2 to 5, got 1"),
        ({"players": 6}, "players", "must be an integer from 2 to 5, got 6"),
        ({"players": 4, "target": 0}, "target", "must be an integer from 1 to 500, got 0"),
        (
            {"players": 4, "trump_after_ruff": "should"},
            "trump_after_ruff",
            "must be 'may' or 'must', got 'should'",
        ),
        ({"players": 4, "first_dealer": 4}, "first_dealer", "must be a seat from 0 to 3, got 4"),
        (
            {"players": 4, "colour": "red"},
            "colour",
            "unknown option; options are players, target, trump_after_ruff, first_dealer",
        ),
    ],
)
def test_mt_10_option_errors_name_the_option(
    options: dict[str, Any], option: str, reason: str
) -> None:
    with pytest.raises(OptionError) as info:
        MarshmallowTest(**options)
    assert (info.value.option, info.value.reason) == (option, reason)


def hands_with(last: list[Any]) -> dict[str, Any]:
    return {"hands": [NAMES[0], NAMES[1], last]}


@pytest.mark.parametrize(
    ("obj", "where", "reason"),
    [
        ([], "d", "expected a JSON object, got list"),
        ({"hands": NAMES, "x": 1}, "d.x", "unknown key 'x'"),
        ({}, "d", "missing key 'hands'"),
        ({"hands": "x"}, "d.hands", "expected a list of hands, got str"),
        ({"hands": NAMES[:2]}, "d.hands", "expected 3 hands (one per seat), got 2"),
        (hands_with("x"), "d.hands[2]", "expected a list of cards, got str"),  # type: ignore[arg-type]
        (hands_with(NAMES[2][:11]), "d.hands[2]", "expected 12 cards, got 11"),
        (hands_with([5, *NAMES[2][1:]]), "d.hands[2][0]", "a card is a string like 'G12', not 5"),
        (hands_with(["R13", *NAMES[2][1:]]), "d.hands[2][0]", "unknown card 'R13'"),
        (
            hands_with([NAMES[2][0], NAMES[0][3], *NAMES[2][2:]]),
            "d.hands[2][1]",
            "card R4 is dealt twice (also at d.hands[0][3])",
        ),
    ],
)
def test_mt_3_deal_errors_say_where_and_why(obj: Any, where: str, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        GAME.deal_from_json(obj, "d")
    assert (info.value.where, info.value.reason) == (where, reason)


@pytest.mark.parametrize(
    ("obj", "where", "reason"),
    [
        ([], "m", "expected a JSON object, got list"),
        ({"seat": 0}, "m", "missing key 'play' or 'trump'"),
        ({"play": "R1"}, "m", "missing key 'seat'"),
        ({"seat": True, "play": "R1"}, "m.seat", "a seat is an int from 0 to 2, not True"),
        ({"seat": 3, "play": "R1"}, "m.seat", "no seat 3: seats are 0 to 2"),
        (
            {"seat": 0, "play": "R1", "trump": "red"},
            "m",
            "a move has either 'play' or 'trump', not both",
        ),
        ({"seat": 0, "play": 5}, "m.play", "a card is a string like 'G12', not 5"),
        ({"seat": 0, "play": "R0"}, "m.play", "unknown card 'R0'"),
        ({"seat": 0, "trump": "pink"}, "m.trump", f"unknown colour 'pink': {COLOURS}"),
        ({"seat": 0, "trump": 3}, "m.trump", f"unknown colour 3: {COLOURS}"),
        ({"seat": 0, "why": 1}, "m.why", "unknown key 'why'"),
    ],
)
def test_mt_5_move_errors_say_where_and_why(obj: Any, where: str, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        GAME.move_from_json(obj, "m")
    assert (info.value.where, info.value.reason) == (where, reason)


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (HANDS[:2], "a deal has 3 hands, one per seat, not 2"),
        ([*HANDS[:2], HANDS[2][:11]], "hand 2 has 11 cards, not 12"),
        ([*HANDS[:2], [60, *HANDS[2][1:]]], "hand 2 holds 60, which is no card"),
        ([*HANDS[:2], [-1, *HANDS[2][1:]]], "hand 2 holds -1, which is no card"),
        ([*HANDS[:2], [True, *HANDS[2][1:]]], "hand 2 holds True, which is no card"),
        ([*HANDS[:2], ["x", *HANDS[2][1:]]], "hand 2 holds 'x', which is no card"),
        ([*HANDS[:2], [HANDS[0][0], *HANDS[2][1:]]], "card R1 is dealt twice"),
        (5, "a deal is 3 hands of 12 cards"),
    ],
)
def test_mt_3_1_explicit_deals_are_checked(deal: Any, message: str) -> None:
    state = GAME.new_state()
    with pytest.raises(ValueError) as info:
        state.deal(deal)
    assert str(info.value) == message and state.awaiting_deal


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: parse_card(5), "a card is written like 'G12', not 5"),  # type: ignore[arg-type]
        (
            lambda: parse_card("R13"),
            "unknown card 'R13': a card is R, Y, G, B or P and a number 1-12",
        ),
        (lambda: parse_colour(5), f"a colour is {COLOURS}, not 5"),  # type: ignore[arg-type]
        (lambda: parse_colour("pink"), f"unknown colour 'pink': {COLOURS}"),
        (lambda: card(5, 1), "no card of colour 5 and number 1"),
        (lambda: card(0, 13), "no card of colour 0 and number 13"),
        (lambda: card(-1, 5), "no card of colour -1 and number 5"),
        (lambda: card(2, 0), "no card of colour 2 and number 0"),
        (lambda: parse_move(5), "a move is text like 'G7' or 'trump green', not 5"),  # type: ignore[arg-type]
        (
            lambda: parse_move("trump pink"),
            f"unknown colour 'pink' in 'trump pink': name {COLOURS}",
        ),
        (
            lambda: parse_move("play g7"),
            "cannot read 'play g7' as a move: play a card like 'G7' (R, Y, G, B, P and 1-12) "
            "or name trump like 'trump green' (red, yellow, green, blue, purple)",
        ),
        (lambda: move_from_index(65), "no move has index 65: indices are 0-64"),
        (lambda: move_from_index(-1), "no move has index -1: indices are 0-64"),
        (lambda: move_from_index(True), "no move has index True: indices are 0-64"),
        (lambda: move_from_index("3"), "no move has index '3': indices are 0-64"),  # type: ignore[arg-type]
    ],
)
def test_mt_1_notation_errors_explain_the_notation(call: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def broken(state: MarshmallowState, seat: int | None, move: Any, **chance: Any) -> str:
    """The error a move raises, after checking that it changed nothing."""
    before = (state.record(), state.legal_moves(), state.view(None))
    with pytest.raises((IllegalMoveError, TypeError)) as info:
        if seat is None:
            state.apply(move, **chance)
        else:
            state.apply_as(seat, move, **chance)
    assert (state.record(), state.legal_moves(), state.view(None)) == before
    return f"{type(info.value).__name__}: {info.value}"


def test_mt_rule_breaks_cite_the_rule() -> None:
    state = GAME.new_state()
    assert broken(state, None, PLAYS[0]) == "IllegalMoveError: round 1 must be dealt first (MT-3.1)"
    assert broken(state, 0, PLAYS[0]) == "IllegalMoveError: round 1 must be dealt first (MT-3.1)"
    assert broken(state, None, "R1") == "TypeError: not a Marshmallow Test move: 'R1'"
    state = round_two(3, {})
    dealer = state.dealer
    assert dealer is not None
    other = (dealer + 1) % 3
    assert broken(state, other, TRUMPS[0]) == (
        f"IllegalMoveError: seat {dealer} (the dealer) names trump, not seat {other} (MT-4.2)"
    )
    assert broken(state, None, PLAYS[state.hand(dealer)[0]]) == (
        f"IllegalMoveError: seat {dealer} (the dealer) must name trump before the first card"
        " (MT-4.2)"
    )
    state.apply(TRUMPS[2])
    first = PLAYS[state.hand(dealer)[0]]
    no_chance = "TypeError: Marshmallow Test has no chance outcomes inside a round: {'x': 1}"
    assert broken(state, None, first, x=1) == no_chance
    assert broken(state, dealer, first, x=1) == no_chance
    assert broken(state, None, TRUMPS[1]) == (
        "IllegalMoveError: trump is green this round; it is named only by the dealer before the"
        " first card (MT-4.2)"
    )
    assert broken(state, other, PLAYS[state.hand(other)[0]]) == (
        f"IllegalMoveError: it is seat {dealer}'s turn, not seat {other}'s (MT-5.1)"
    )
    with pytest.raises(IllegalMoveError) as info:
        state.deal(fill_deal(3, {}))
    assert str(info.value) == (
        "round 2 is still in progress; it ends when one player is left (MT-7.1)"
    )
    over = example_state(target=4)
    play(over, *EXAMPLE_MOVES)
    assert broken(over, None, PLAYS[0]) == (
        "IllegalMoveError: the game is over: seat 0 reached 4 (MT-8.1)"
    )
    with pytest.raises(IllegalMoveError) as info:
        over.deal(fill_deal(4, {}))
    assert str(info.value) == "the game is over; no round follows its end (MT-8.1)"


def test_mt_3_1_a_state_without_generator_needs_explicit_deals() -> None:
    with pytest.raises(ValueError) as info:
        GAME.new_state().deal()
    assert str(info.value) == "this state has no generator: pass an explicit deal"


@pytest.mark.parametrize("seat", [4, -1, True, "0"])
def test_mt_9_views_are_for_seats_or_spectators_only(seat: Any) -> None:
    with pytest.raises(ValueError) as info:
        example_state().view(seat)
    assert str(info.value) == f"no seat {seat!r}: seats are 0 to 3"


def test_mt_resume_refuses_a_dealt_state_and_bad_positions() -> None:
    def refused(state: MarshmallowState, **args: Any) -> str:
        base: dict[str, Any] = {
            "round_number": 2,
            "dealer": 1,
            "scores": [1, 2, 3],
            "past_round_scores": [[1, 2, 3]],
        }
        with pytest.raises(ValueError) as info:
            state.resume(**{**base, **args})
        return str(info.value)

    dealt = "resume() needs a new state that has not been dealt"
    assert refused(scenario(3, HANDS)) == dealt
    ended = scenario(2, fill_deal(2, {}))
    while not ended.awaiting_deal:
        ended.apply(ended.legal_moves()[0])
    assert refused(ended, scores=[1, 2], past_round_scores=[[1, 2]]) == dealt
    new = GAME.new_state()
    assert refused(new, dealer=3) == "bad resume: round 2, dealer 3, scores [1, 2, 3]"
    assert refused(new, dealer=-1) == "bad resume: round 2, dealer -1, scores [1, 2, 3]"
    assert refused(new, round_number=0, past_round_scores=[]) == (
        "bad resume: round 0, dealer 1, scores [1, 2, 3]"
    )
    assert refused(new, scores=[1]) == "bad resume: round 2, dealer 1, scores [1]"
    assert refused(new, past_round_scores=[]) == "round 2 follows 1 earlier rounds"


def test_mt_view_from_json_says_what_is_wrong() -> None:
    view = example_state().view(1).to_json()

    def reason(obj: Any) -> tuple[str, str]:
        with pytest.raises(RecordError) as info:
            GAME.view_from_json(obj)
        return info.value.where, info.value.reason

    assert reason([]) == ("view", "a view is a JSON object, not list")
    missing = {k: v for k, v in view.items() if k != "trump"}
    assert reason(missing) == ("view", "missing keys ['trump'], unknown keys []")
    assert reason({**view, "x": 1}) == ("view", "missing keys [], unknown keys ['x']")
    assert reason({**view, "players": True}) == ("view.players", "expected an int, got True")
    assert reason({**view, "winners": ["0"]}) == ("view.winners[0]", "expected an int, got '0'")
    assert reason({**view, "finished": 0}) == ("view.finished", "expected true or false, got 0")
    assert reason({**view, "hand": ["R13"]}) == (
        "view.hand[0]",
        "a card is written like 'G12', not 'R13'",
    )
