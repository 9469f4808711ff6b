"""What the table shows everyone (MR-5.1) as the middle cards turn face up
(MR-4.4), are refreshed (MR-4.1) and reshuffled (MR-4.6)."""

from __future__ import annotations

import random

from cardtable.games.myrummy_111 import MyRummy111, MyRummyState, Place, Take

from .helpers import dealt, make_deal

HAND0 = tuple(range(10, 22))
HAND1 = tuple(range(30, 42))
MIDDLE = (50, 99, 60)


def seats(state: MyRummyState) -> list[int | None]:
    return [None, *range(state.game.num_players)]


def test_mr_4_4_a_discard_lies_face_up_in_the_slot_it_was_taken_from() -> None:
    """MR-4.4/MR-5.1: every view shows the discarded card in its slot, the
    face-down slots as null; slot by slot, 2 first."""
    state = dealt(MyRummy111(players=2), make_deal([HAND0, HAND1], MIDDLE))
    shown: list[int | None] = [None, None, None]
    for slot in (2, 1, 0):
        state.apply(Take(slot))
        state.apply(Place(1, "left"))  # the hand's card at position 0 goes
        _seat, move, card, _extra = state.history()[-1]
        assert isinstance(move, Place)
        shown[slot] = card
        for seat in seats(state):
            assert state.view(seat).middle == tuple(shown)
    assert None not in shown


def test_mr_4_1_a_refresh_draws_three_cards_from_the_draw_pile() -> None:
    state = dealt(MyRummy111(players=2), make_deal([HAND0, HAND1], MIDDLE))
    before = state.view(None).draw_size
    assert before == 110 - 24 - 3
    for slot in range(3):
        state.apply(Take(slot))
        state.apply(Place(1, "left"))
    top, seat = state.draw_pile[:3], state.to_move
    state.apply(Take(1, refresh=True))
    assert [state.view(s).draw_size for s in seats(state)] == [before - 3] * 3
    assert len(state.draw_pile) == before - 3 and state.taken_card == top[1]
    # The taken card was face down: history() says so with False (its
    # documented third kind, the reshuffled pile, is a tuple).
    assert state.history()[-1] == (seat, Take(1, refresh=True), top[1], False)
    assert state.history()[-1][3] is False


def test_mr_4_6_a_seeded_reshuffle_shuffles_the_pile_as_it_lies_top_first() -> None:
    """MR-4.6 with the state's own generator: the discard pile, the three
    middle cards on top (slot 2 uppermost), listed from the top, through
    ``random.Random.shuffle``; so a seed replays the same game."""
    rng = random.Random(8)
    state = MyRummy111(players=2, rounds=1).new_game(rng)
    while True:
        legal = state.legal_moves()
        refresh = [m for m in legal if isinstance(m, Take) and m.refresh]
        if refresh and len(state.draw_pile) < 3:
            break
        face_down = [m for m in legal if isinstance(m, Take) and not state.middle_face_up[m.slot]]
        state.apply(refresh[0] if refresh else face_down[0])
        state.apply(Place(1, "left"))
    pile = [*reversed(state.middle), *state.discard_pile]  # top first
    twin = random.Random()
    twin.setstate(rng.getstate())
    twin.shuffle(pile)
    state.apply(refresh[0])
    reshuffle = state.record()["rounds"][-1]["moves"][-1]["reshuffle"]
    assert reshuffle == pile
    assert state.history()[-1][3] == tuple(pile)  # the take's extra: the new pile
