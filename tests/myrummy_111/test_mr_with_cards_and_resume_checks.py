"""The search doors of the MyRummy 111 state, at their edges: ``with_cards``
(re-dealing hidden cards: sizes, the face-up middle cards of MR-5.1, the
cards of MR-1.1, its own generator) and ``resume`` (a finished game's winners
by MR-7.1, no deal after the end by MR-3.1, no second resume)."""

from __future__ import annotations

import random

import pytest

from cardtable.core.errors import IllegalMoveError
from cardtable.games.myrummy_111 import MyRummy111, MyRummyState, Place, Take

from .helpers import dealt, make_deal

HAND0 = tuple(range(10, 22))
HAND1 = tuple(range(30, 42))
MIDDLE = (50, 99, 60)


def after_a_refresh() -> MyRummyState:
    """Two seats, a discard pile (the refresh of MR-4.1 put the three face-up
    cards there) and, face up again, slot 2 only; seat 1 to take."""
    game = MyRummy111(players=2)
    state = dealt(game, make_deal([HAND0, HAND1], MIDDLE))
    for slot in range(3):  # three turns turn every middle card face up
        state.apply(Take(slot))
        state.apply(Place(1, "left"))
    state.apply(Take(0, refresh=True))
    state.apply(Place(1, "left"))
    state.apply(Take(2))
    state.apply(Place(1, "left"))
    assert state.discard_pile and state.middle_face_up == (True, False, True)
    return state


def cards_of(state: MyRummyState) -> tuple[list[list[int]], list[int], list[int]]:
    return [list(h) for h in state.hands], list(state.middle), list(state.draw_pile)  # type: ignore[arg-type]


def refusal(state: MyRummyState, hands: object, middle: object, draw: object) -> str:
    with pytest.raises(ValueError) as info:
        state.with_cards(hands, middle, draw)  # type: ignore[arg-type]
    return str(info.value)


def test_mr_1_1_with_cards_swaps_hidden_cards_beside_a_discard_pile() -> None:
    state = after_a_refresh()
    hands, middle, draw = cards_of(state)
    hands[1][0], draw[0] = draw[0], hands[1][0]  # seat 1's first card and the draw pile's top
    twin = state.with_cards(hands, middle, draw)
    assert twin.hands[1][0] == state.draw_pile[0] and twin.draw_pile[0] == state.hands[1][0]
    assert twin.view(0) == state.view(0)  # seat 0 cannot tell (MR-5)
    assert twin.discard_pile == state.discard_pile


def test_mr_1_1_with_cards_refuses_other_cards() -> None:
    state = after_a_refresh()
    hands, middle, draw = cards_of(state)
    hands[1][0] = state.discard_pile[0]  # a card already on the discard pile
    assert refusal(state, hands, middle, draw) == "with_cards() must place the same cards (MR-1.1)"


@pytest.mark.parametrize("slot", [0, 2])
def test_mr_5_1_with_cards_keeps_every_face_up_middle_card(slot: int) -> None:
    state = MyRummy111(players=2).new_game(random.Random(4))
    state.apply(Take(slot))
    state.apply(Place(1, "left"))  # the discarded card lies face up in ``slot``
    hands, middle, draw = cards_of(state)
    middle[slot], draw[0] = draw[0], middle[slot]
    assert refusal(state, hands, middle, draw) == (
        "with_cards() must keep the face-up middle cards (MR-5.1)"
    )
    middle[slot], draw[0] = draw[0], middle[slot]
    middle[1], draw[0] = draw[0], middle[1]  # slot 1 is face down: it may change
    assert state.with_cards(hands, middle, draw).middle[1] == middle[1]


def test_with_cards_checks_each_size_alone() -> None:
    state = after_a_refresh()
    hands, middle, draw = cards_of(state)
    sizes = "with_cards() must keep the hands' sizes, 3 slots and the draw pile's"
    assert refusal(state, [hands[0], hands[1][1:]], middle, draw) == sizes
    assert refusal(state, hands, [*middle, draw[0]], draw[1:]) == sizes
    assert refusal(state, hands, middle, draw[1:]) == sizes


def test_with_cards_needs_a_round_in_progress() -> None:
    game = MyRummy111(players=2)
    state = game.new_state()
    assert refusal(state, [[], []], [], []) == "with_cards() needs a round in progress"


def test_with_cards_copies_draw_chance_from_their_own_generator() -> None:
    """The copy's later chance (the next deal, MR-3.1) comes from the given
    generator: two copies given equal generators deal alike, and like a
    clone given one."""
    state = after_a_refresh()
    hands, middle, draw = cards_of(state)
    copies = [state.with_cards(hands, middle, draw, random.Random(7)) for _ in range(2)]
    copies.append(state.clone(random.Random(7)))
    for copy in copies:
        copy.apply(Take(1))
        copy.apply(Place(0, "far", declare=True))  # MR-4.5: the round ends, the next is dealt
        assert copy.round_number == 2 and copy.phase == "take"
    assert copies[0].hands == copies[1].hands == copies[2].hands
    assert copies[0].middle == copies[2].middle


def finished() -> MyRummyState:
    state = MyRummy111(players=2).new_state()
    state.resume(
        round_number=3,
        start_player=0,
        scores=(30, 30),
        past_round_scores=((10, 10), (5, 15), (15, 5)),
        finished=True,
    )
    return state


def test_mr_7_1_a_resumed_finished_game_breaks_the_tie_by_its_last_round() -> None:
    # Totals tie at 30; round 3 (15 to 5) decides, not round 2 (5 to 15).
    assert finished().winners == (0,)


def test_mr_3_1_no_deal_and_no_second_resume_after_a_finished_resume() -> None:
    state = finished()
    assert state.finished and not state.awaiting_deal and state.legal_moves() == ()
    with pytest.raises(IllegalMoveError) as info:
        state.deal(make_deal([HAND0, HAND1], MIDDLE))
    assert (info.value.reason, info.value.rule) == ("no deal is due: the game is over", "MR-3.1")
    with pytest.raises(ValueError) as again:
        state.resume(round_number=1, start_player=0, scores=(0, 0), past_round_scores=())
    assert str(again.value) == "resume() needs a new state that has not been dealt"
