"""One or more tests per rule of MR-1 … MR-9, with the rulebook's examples."""

from __future__ import annotations

import functools
import operator
import random
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.errors import IllegalMoveError, OptionError
from cardtable.games.myrummy_111 import (
    DEFAULT_SYMBOLS,
    MyRummy111,
    MyRummyState,
    Place,
    Take,
    load_symbols,
)
from cardtable.games.myrummy_111.cards import CARDS, default_symbols, parse_symbols, symbol_lookup
from cardtable.games.myrummy_111.exchange import hand_after_place
from cardtable.games.myrummy_111.moves import MOVES, legal_places, place
from cardtable.games.myrummy_111.options import Options, make_options
from cardtable.games.myrummy_111.scoring import best_run, is_sorted, winners
from cardtable.games.myrummy_111.view import PlaceEvent, TakeEvent

from .helpers import dealt, make_deal, random_game

SYM = symbol_lookup(DEFAULT_SYMBOLS)
HAND0 = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 104, 5]
HAND1 = [47, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 103]
MIDDLE = [108, 105, 109]
GAME_2 = MyRummy111(players=2)


def fresh(**options: object) -> tuple[MyRummy111, MyRummyState]:
    game = MyRummy111(players=2, **options)
    return game, dealt(game, make_deal([HAND0, HAND1], MIDDLE))


def test_mr_1_1_deck_is_110_cards_2_to_111() -> None:
    assert tuple(range(2, 112)) == CARDS and len(CARDS) == 110
    state = random_game(1, turn_limit=30)
    deal = state.record()["rounds"][0]["deal"]
    cards = functools.reduce(operator.iadd, deal["hands"], []) + deal["middle"] + deal["draw"]
    assert sorted(cards) == list(CARDS)


def test_mr_1_2_default_symbols_match_rulebook_cards() -> None:
    counts = {k: DEFAULT_SYMBOLS.count(k) for k in (1, 2, 3, 4)}
    assert counts == {1: 57, 2: 32, 3: 18, 4: 3} and sum(DEFAULT_SYMBOLS) == 187
    assert [SYM[c] for c in (13, 52, 86, 105, 40, 56, 80)] == [1, 2, 1, 3, 4, 4, 4]


def test_mr_1_2_rulebook_run_13_to_86_scores_17() -> None:
    run = [13, 14, 15, 20, 22, 40, 41, 44, 86]
    assert [SYM[c] for c in run] == [1, 2, 2, 3, 1, 4, 1, 2, 1]
    assert best_run(run, SYM) == 17


def test_mr_1_2_rulebook_run_52_53_105_scores_6() -> None:
    assert best_run([52, 53, 105], SYM) == 6
    # MR-6.3: the longer run wins when both sit in one hand.
    assert best_run([52, 53, 105, 13, 14, 15, 20, 22, 40, 41, 44, 86, 3], SYM) == 17


def test_mr_1_2_custom_symbol_table_changes_scores(tmp_path: Path) -> None:
    table = [4] * 110
    game, state = fresh(symbols=table)
    assert game.options.symbols == tuple(table)
    state.apply(Take(0))
    state.apply(Place(12, "left", True))  # sorted: 12 cards x 4 + 5
    # MR-6.3 with the table too: seat 1's best run is 14, 15, …, 24, 103 (11 cards)
    assert state.round_scores[0] == [12 * 4 + 5, 11 * 4]
    path = tmp_path / "deck.txt"
    path.write_text(", ".join(["2"] * 110))
    assert load_symbols(path) == (2,) * 110
    path.write_text("[" + ",".join(["3"] * 110) + "]")
    assert load_symbols(path) == (3,) * 110
    path.write_text("1 2 x")
    with pytest.raises(OptionError, match="not an integer"):
        load_symbols(path)
    path.write_text(" ".join(["5"] * 110))
    with pytest.raises(OptionError, match="1–4"):
        load_symbols(path)
    with pytest.raises(OptionError, match="cannot read"):
        load_symbols(tmp_path / "missing.json")


def test_mr_2_1_players_2_to_5_seats_clockwise() -> None:
    for n in (2, 3, 4, 5):
        state = MyRummy111(players=n, rounds=1).new_game(random.Random(n))
        seats = []
        for _ in range(2 * n):
            seats.append(state.to_move)
            state.apply(state.legal_moves()[0])
            state.apply(Place(1, "left"))
        assert seats == [s % n for s in range(n)] * 2
    for bad in (1, 6, True, "2"):
        with pytest.raises(OptionError):
            MyRummy111(players=bad)


def test_mr_2_2_first_player_and_rotation() -> None:
    game = MyRummy111(players=3, first_player=2, rounds=4)
    state = game.new_game(random.Random(3))
    starts = []
    while not state.finished:
        starts.append(state.start_player)
        assert state.to_move == state.start_player
        state.apply(Take(0))
        state.apply(Place(1, "left", True))  # end each round at once
    assert starts == [2, 0, 1, 2]


def test_mr_3_1_hands_dealt_in_order_and_per_seat_sizes() -> None:
    game = MyRummy111(players=3, hand_sizes=[12, 13, 14])
    state = game.new_game(random.Random(5))
    assert [len(h) for h in state.hands] == [12, 13, 14]
    deal = state.record()["rounds"][0]["deal"]
    assert [list(h) for h in state.hands] == deal["hands"]
    assert len(deal["draw"]) == 110 - 39 - 3
    # the generator alone decides the deal
    assert game.new_game(random.Random(5)).hands == state.hands
    assert legal_places(13)[-1] == Place(13, "far", True)


def test_mr_3_2_middle_face_down_draw_rest_discard_empty() -> None:
    _game, state = fresh()
    view = state.view(0)
    assert view.middle == (None, None, None) and view.discard_pile == ()
    assert view.draw_size == 110 - 24 - 3
    assert state.middle == tuple(MIDDLE)


def test_mr_3_3_descending_hand_counts_as_sorted() -> None:
    desc0 = [*sorted(HAND0[:-1], reverse=True), 109]
    game = MyRummy111(players=2)
    state = dealt(game, make_deal([desc0, HAND1], [3, 105, 108]))
    state.apply(Take(0))
    state.apply(Place(12, "left", True))  # discard 109 -> 104 … 10, 3
    assert (
        is_sorted(state.hands[0])
        and state.round_scores[0][0] == sum(SYM[c] for c in state.hands[0]) + 5
    )


def test_mr_4_turn_is_take_then_place_and_seat_checked() -> None:
    _game, state = fresh()
    assert state.phase == "take"
    with pytest.raises(IllegalMoveError, match=r"a take is due.*\(MR-4\)"):
        state.apply(Place(0, "right"))
    with pytest.raises(IllegalMoveError, match="seat 0's turn"):
        state.apply_as(1, Take(0))
    state.apply_as(0, Take(0))
    assert state.phase == "place" and state.to_move == 0
    with pytest.raises(IllegalMoveError, match="a place is due"):
        state.apply(Take(1))
    state.apply_as(0, Place(3, "right"))
    assert state.phase == "take" and state.to_move == 1


def test_mr_4_1_no_refresh_while_one_or_two_middle_cards_are_face_down() -> None:
    _game, state = fresh()
    for slot in range(2):
        state.apply(Take(slot))
        state.apply(Place(5, "left"))
        assert state.middle_face_up.count(True) == slot + 1
        assert state.legal_moves() == tuple(Take(s) for s in range(3))
        for s in range(3):
            with pytest.raises(IllegalMoveError, match=r"\(MR-4.1\)"):
                state.clone().apply(Take(s, refresh=True))
    state.apply(Take(2))
    state.apply(Place(5, "left"))
    assert state.legal_moves() == (*(Take(s) for s in range(3)), *(Take(s, True) for s in range(3)))


def test_mr_4_1_refresh_only_when_all_face_up() -> None:
    _game, state = fresh()
    assert all(not m.refresh for m in state.legal_moves() if isinstance(m, Take))
    with pytest.raises(
        IllegalMoveError, match=r"refresh only when all three middle cards are face up \(MR-4.1\)"
    ):
        state.apply(Take(0, refresh=True))
    for slot in range(3):
        state.apply(Take(slot))
        state.apply(Place(5, "left"))
    up = state.middle
    assert len(state.legal_moves()) == 6
    draw_top = state.draw_pile[:3]
    state.apply(Take(2, refresh=True))
    assert state.discard_pile == tuple(reversed(up))  # slot 2 on top
    assert state.taken_card == draw_top[2]
    view = state.view(1)
    last = view.history[-1]
    assert view.middle == (None, None, None) and isinstance(last, TakeEvent) and last.refresh
    assert view.history[-1].card is None  # after a refresh the card is face down


def test_mr_4_2_face_down_card_seen_by_taker_alone() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    assert state.view(0).taken_card == 108
    assert state.view(1).taken_card is None and state.view(None).taken_card is None
    assert 108 in _ints(state.view(0).to_json()) and 108 not in _ints(state.view(1).to_json())
    state.apply(Place(12, "left"))
    assert 108 in (state.view(0).hand or ())
    assert state.view(1).known[0] == (None,) * 12


def _ints(obj: object) -> set[int]:
    """Every int inside a JSON value (booleans are not cards)."""
    if isinstance(obj, bool):
        return set()
    if isinstance(obj, int):
        return {obj}
    items = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, list) else ()
    return set().union(*map(_ints, items))


def test_mr_4_3_insert_positions_and_beyond_hand() -> None:
    _game, state = fresh()
    state.apply(Take(1))
    legal = state.legal_moves()
    assert {m.position for m in legal if isinstance(m, Place)} == set(range(13))
    assert all(isinstance(m, Place) for m in legal)
    with pytest.raises(
        IllegalMoveError, match=r"place 15 is beyond the hand: positions 0–12 \(MR-4.3\)"
    ):
        state.apply(Place(15, "left"))
    state.apply(Place(4, "left"))  # insert between 40 and 50, discard 40
    assert state.hands[0][:5] == (10, 20, 30, 105, 50)
    assert state.middle[1] == 40 and state.middle_face_up == (False, True, False)


def test_mr_4_4_far_end_discard_rulebook_example() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    state.apply(Place(0, "right"))  # seat 0 puts 108 first, discards 10
    state.apply(Take(1))  # seat 1 takes the 105
    with pytest.raises(IllegalMoveError, match=r"far only when inserted at an end.*\(MR-4.4\)"):
        state.apply(Place(5, "far"))
    with pytest.raises(IllegalMoveError, match="no left neighbour"):
        state.apply(Place(0, "left"))
    with pytest.raises(IllegalMoveError, match="no right neighbour"):
        state.apply(Place(12, "right"))
    state.apply(Place(12, "far"))  # 105 at the right end, the far-left 47 goes
    assert state.hands[1] == (14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 103, 105)
    assert state.middle[1] == 47


def test_mr_4_4_equivalent_placements_both_listed() -> None:
    places = legal_places(12)
    assert Place(5, "left") in places and Place(4, "right") in places
    assert (
        Place(0, "far") in places and Place(12, "far") in places and Place(6, "far") not in places
    )
    assert len(places) == 2 * (2 + 2 + 11 * 2)
    _game, a = fresh()
    b = a.clone()
    a.apply(Take(0))
    a.apply(Place(5, "left"))
    b.apply(Take(0))
    b.apply(Place(4, "right"))
    assert a.hands == b.hands and a.middle == b.middle


def test_mr_4_5_declare_optional_and_ends_round() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    state.apply(Place(12, "left"))  # sorted but not declared: play goes on
    assert is_sorted(state.hands[0]) and state.to_move == 1 and state.round_number == 1
    state.apply(Take(1))
    state.apply(Place(12, "far", True))  # seat 1 is sorted too and declares
    assert state.round_number == 2 and len(state.round_scores) == 1


def _refresh_until(
    state: MyRummyState, left: int | None = None
) -> tuple[dict[str, Any], tuple[int, ...]]:
    """Refresh whenever allowed, never declare, until a refresh meets a draw
    pile of ``left`` cards (``None``: until MR-4.6 reshuffles); returns the
    recorded move and the draw pile just before that refresh."""
    while True:
        legal = state.legal_moves()
        refresh = [m for m in legal if isinstance(m, Take) and m.refresh]
        before = state.draw_pile
        state.apply(
            refresh[0]
            if refresh
            else next(m for m in legal if isinstance(m, Take) and not state.middle_face_up[m.slot])
        )
        if refresh and (len(before) < 3 if left is None else len(before) == left):
            move: dict[str, Any] = state.record()["rounds"][-1]["moves"][-1]
            return move, before
        state.apply(Place(1, "left"))


def _refresh_until_reshuffle(state: MyRummyState) -> tuple[dict[str, Any], tuple[int, ...]]:
    return _refresh_until(state)


def test_mr_4_6_reshuffle_puts_discards_under_draw_pile() -> None:
    game = MyRummy111(players=2, rounds=1)
    state = game.new_game(random.Random(8))
    move, before = _refresh_until_reshuffle(state)
    assert move["refresh"] is True and state.discard_pile == ()
    new_pile = before + tuple(move["reshuffle"])
    assert state.draw_pile == new_pile[3:]
    assert state.middle[1:] == new_pile[1:3] and state.taken_card == new_pile[0]
    assert sorted(state.view(0).hand_sizes) == [12, 12]


def test_mr_4_6_three_cards_left_are_enough_two_are_not() -> None:
    # 110 - 12 - 14 - 3 = 81 cards to draw: refreshes meet 81, 78, …, 3 then 0 left.
    state = MyRummy111(players=2, hand_sizes=[12, 14], rounds=1).new_game(random.Random(3))
    move, before = _refresh_until(state, left=3)
    assert "reshuffle" not in move and move["refresh"] is True
    assert state.draw_pile == () and len(state.discard_pile) > 3  # discards stay put
    assert (state.taken_card, *state.middle[1:]) == before
    state.apply(Place(1, "left"))
    move, before = _refresh_until(state, left=0)
    assert before == () and len(move["reshuffle"]) > 3 and state.discard_pile == ()
    # 110 - 24 - 3 = 83: the refresh that meets 2 cards reshuffles (MR-4.6)
    state = MyRummy111(players=2, rounds=1).new_game(random.Random(3))
    move, before = _refresh_until_reshuffle(state)
    assert len(before) == 2 and state.draw_pile[-len(move["reshuffle"]) :] == tuple(
        move["reshuffle"][1:]
    )


def test_mr_4_6_reshuffle_checks_on_replay() -> None:
    game = MyRummy111(players=2, rounds=1)
    original = game.new_game(random.Random(8))
    last, _ = _refresh_until_reshuffle(original)
    rec = original.record()
    moves = rec["rounds"][0]["moves"]

    def replay_to_last(chance: dict[str, Any] | None) -> MyRummyState:
        state = game.new_state()
        state.deal(game.deal_from_json(rec["rounds"][0]["deal"], "deal"))
        for i, m in enumerate(moves):
            seat, move, ch = game.move_from_json(m, f"moves[{i}]")
            if i == len(moves) - 1:
                ch = chance if chance is not None else {}
            state.apply_as(seat, move, **ch)
        return state

    replayed = replay_to_last({"reshuffle": last["reshuffle"]})
    assert replayed.draw_pile == original.draw_pile
    with pytest.raises(IllegalMoveError, match=r"must be reshuffled.*\(MR-4.6\)"):
        replay_to_last({})
    with pytest.raises(IllegalMoveError, match=r"permutation.*\(MR-4.6\)"):
        replay_to_last({"reshuffle": [*last["reshuffle"][:-1], last["reshuffle"][0]]})
    # a reshuffle where none is needed
    _game2, state = fresh()
    with pytest.raises(IllegalMoveError, match=r"no reshuffle is needed.*\(MR-4.6\)"):
        state.apply(Take(0), reshuffle=[2, 3])


def test_mr_5_1_public_information_in_views() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    state.apply(Place(4, "right"))  # 108 replaces 50, which goes face up to slot 0
    state.apply(Take(0))  # seat 1 takes the face-up 50
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view.hand_sizes == (12, 12) and view.taken_slot == 0
        assert view.history[0].card is None and view.history[1].card == 50
        assert view.history[2].card == 50  # a face-up take is public
    assert state.view(1).taken_card == 50


def test_mr_5_2_views_hide_hands_and_draw_pile() -> None:
    game, state = fresh()
    assert state.view(0).hand == tuple(HAND0) and state.view(None).hand is None
    text = str(state.view(1).to_json())
    assert "'draw'" not in text and state.view(1).hand == tuple(HAND1)
    assert state.view(1) != state.view(0)
    assert game.view_from_json(state.view(1).to_json()) == state.view(1)


def test_mr_6_1_sorted_strict_either_direction() -> None:
    assert is_sorted([2, 5, 90]) and is_sorted([90, 5, 2])
    assert not is_sorted([2, 90, 5])
    assert not is_sorted([2, 5, 5, 90]) and not is_sorted([90, 5, 5, 2])  # strictly
    # one card out of place, at either end, in either direction
    assert not is_sorted([2, 5, 90, 3]) and not is_sorted([3, 2, 5, 90])
    assert not is_sorted([90, 5, 2, 3]) and not is_sorted([3, 90, 5, 2])


def test_mr_6_2_true_declaration_scores_symbols_plus_5() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    state.apply(Place(12, "left", True))
    hand = state.hands[0]
    assert hand == (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 104, 108)
    assert state.round_scores[0] == [sum(SYM[c] for c in hand) + 5, best_run(HAND1, SYM)]


def test_mr_6_2_false_declaration_scores_0_and_ends_round() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    state.apply(Place(3, "left", True))
    assert state.round_scores == [[0, best_run(HAND1, SYM)]]
    assert state.round_number == 2 or state.finished


def test_mr_6_2_almost_sorted_declaration_scores_0() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    state.apply(Place(11, "left", True))  # 108 replaces 104: sorted but for the last card
    assert state.hands[0] == (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 108, 5)
    assert state.round_scores[0][0] == 0
    first_out = [95, *HAND0[:-2], 104]  # sorted but for the first card
    state = dealt(MyRummy111(players=2), make_deal([first_out, HAND1], MIDDLE))
    state.apply(Take(0))
    state.apply(Place(12, "left", True))
    assert state.hands[0] == (95, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 108)
    assert state.round_scores[0][0] == 0


def test_mr_6_3_others_score_best_run() -> None:
    assert best_run([5, 4, 3, 90, 2], SYM) == SYM[5] + SYM[4] + SYM[3]
    assert best_run([50, 2], SYM) == SYM[50] + SYM[2]  # any two adjacent cards
    # a run turning: its peak (or trough) belongs to the run after the turn too
    assert best_run([2, 50, 40, 30], SYM) == 2 + 4 + 2  # 50, 40, 30
    assert best_run([90, 10, 20, 30], SYM) == 2 + 3 + 2  # 10, 20, 30


def test_mr_6_4_turn_limit_scores_best_runs_without_bonus() -> None:
    _game, state = fresh(turn_limit=2)
    state.apply(Take(0))
    state.apply(Place(12, "left"))  # sorted, no declaration
    state.apply(Take(1))
    state.apply(Place(3, "left"))
    hands = state.hands
    assert state.round_scores == [[best_run(hands[0], SYM), best_run(hands[1], SYM)]]
    assert state.round_scores[0][0] == sum(SYM[c] for c in hands[0])  # no +5


def test_mr_6_4_declaration_on_last_turn_scores_as_declaration() -> None:
    _game, state = fresh(turn_limit=1)
    state.apply(Take(0))
    state.apply(Place(12, "left", True))
    assert state.round_scores[0][0] == sum(SYM[c] for c in state.hands[0]) + 5


def test_mr_7_1_target_ends_game_and_highest_total_wins() -> None:
    state = random_game(4, turn_limit=50)
    totals = [0, 0]
    for r, row in enumerate(state.round_scores, start=1):
        totals = [t + s for t, s in zip(totals, row, strict=True)]
        assert (max(totals) >= 60) == (r == len(state.round_scores))  # ends at the first
    assert state.finished and totals == list(state.scores)
    assert state.winners and all(state.scores[w] == max(state.scores) for w in state.winners)
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply(Take(0))


def test_mr_7_1_a_total_equal_to_the_target_ends_the_game() -> None:
    hand = [*HAND0[:-1], 108]  # what seat 0 holds after its true declaration
    score = sum(SYM[c] for c in hand) + 5
    for target, over in ((score, True), (score + 1, False)):
        state = dealt(MyRummy111(players=2, target=target), make_deal([HAND0, HAND1], MIDDLE))
        state.apply(Take(0))
        state.apply(Place(12, "left", True))
        assert state.scores[0] == score and state.finished == over
        assert state.winners == ((0,) if over else ())


def test_mr_7_1_tie_on_totals_broken_by_the_last_round_in_play() -> None:
    game = MyRummy111(players=2, rounds=2)
    state = dealt(game, make_deal([HAND0, HAND1], MIDDLE))
    state.apply(Take(0))
    state.apply(Place(3, "left", True))  # seat 0 declares falsely: 0
    state.deal(make_deal([HAND1, HAND0], MIDDLE))  # seat 1 starts round 2
    state.apply(Take(0))
    state.apply(Place(3, "left", True))  # seat 1 declares falsely: 0
    run = best_run(HAND1, SYM)
    assert state.round_scores == [[0, run], [run, 0]] and state.scores == (run, run)
    assert state.finished and state.winners == (0,)  # the last round decides


def test_mr_7_1_tie_on_totals_and_last_round_is_shared_in_play() -> None:
    game = MyRummy111(players=2, rounds=1, turn_limit=1, symbols=[1] * 110)
    state = dealt(game, make_deal([list(range(2, 14)), list(range(14, 26))], [26, 27, 28]))
    state.apply(Take(0))
    state.apply(Place(12, "left"))  # still sorted; the turn limit ends the round
    assert state.round_scores == [[12, 12]] and state.winners == (0, 1)


def test_mr_7_1_ties_broken_by_last_round_then_shared() -> None:
    assert winners([61, 61, 10], [5, 9, 0]) == (1,)
    assert winners([61, 61, 61], [7, 7, 3]) == (0, 1)
    assert winners([70, 61], [0, 61]) == (0,)


def test_mr_7_2_fixed_rounds_ignore_target() -> None:
    game = MyRummy111(players=2, rounds=3, target=1)
    state = game.new_game(random.Random(2))
    while not state.finished:
        state.apply(Take(0))
        state.apply(Place(1, "left", True))
    assert len(state.round_scores) == 3 and state.round_number == 3


def test_mr_8_known_cards_tracked_through_exchanges() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    state.apply(Place(4, "right"))  # 50 face up in slot 0
    state.apply(Take(0))
    state.apply(Place(0, "right"))  # seat 1: 50 at position 0, discard 47
    state.apply(Take(1))
    state.apply(Place(1, "left"))
    state.apply(Take(2))
    state.apply(Place(0, "far"))  # seat 1 puts an unknown card first, drops 103
    known = state.view(0).known[1]
    assert known[1] == 50 and known.count(None) == 11
    assert state.hands[1][1] == 50


def test_mr_9_option_validation_and_json() -> None:
    game = MyRummy111(players=3)
    assert game.options_json == {
        "players": 3,
        "hand_sizes": [12, 12, 12],
        "target": 60,
        "rounds": None,
        "turn_limit": None,
        "symbols": list(DEFAULT_SYMBOLS),
        "first_player": 0,
    }
    assert game.name == "myrummy-111" and game.num_players == 3 and game.num_actions == 96
    bad = [
        ("hand_sizes", [12, 12]),
        ("hand_sizes", [11, 12, 12]),
        ("hand_sizes", [12, 15, 12]),
        ("hand_sizes", [12, True, 12]),
        ("target", 0),
        ("target", True),
        ("rounds", 0),
        ("rounds", 1.5),
        ("turn_limit", -1),
        ("symbols", [1] * 109),
        ("symbols", [0] * 110),
        ("symbols", [True] * 110),
        ("first_player", 3),
        ("first_player", False),
    ]
    for name, value in bad:
        with pytest.raises(OptionError) as info:
            MyRummy111(players=3, **{name: value})
        assert info.value.option == name
    with pytest.raises(OptionError, match="unknown option"):
        MyRummy111(players=3, colour="red")


# Facts the public surface shows (each checked against the rule, not a copy) ----------
def test_mr_1_2_default_symbols_formula() -> None:
    # MR-1.2 [interpretation]: 1 + [4|n] + [8|n] + [5|n] + [7|n]
    expected = {2: 1, 13: 1, 12: 2, 10: 2, 14: 2, 8: 3, 16: 3, 20: 3, 28: 3, 35: 3, 70: 3}
    expected |= {105: 3, 40: 4, 56: 4, 80: 4}
    assert {card: default_symbols(card) for card in expected} == expected


def test_mr_3_1_the_generator_shuffles_the_deal() -> None:
    game = MyRummy111(players=2)
    one, two = (game.new_game(random.Random(seed)).hands for seed in (1, 2))
    assert one != two
    assert list(one[0]) != sorted(one[0]) and list(one[0]) != sorted(one[0], reverse=True)
    state = dealt(game, make_deal([HAND0, HAND1], MIDDLE))
    state.apply(Take(0))
    state.apply(Place(12, "left", True))  # round 1 over; round 2 awaits its deal
    again = state.clone(random.Random(5))  # a state with a generator deals by itself
    again.deal()
    assert again.round_number == 2 and again.to_move == 1 and again.hands != state.hands


def test_mr_4_4_hand_after_place_every_side() -> None:
    hand = [10, 20, 30]
    assert hand_after_place(hand, 5, 1, 0) == [5, 20, 30]  # left neighbour out
    assert hand_after_place(hand, 5, 1, 1) == [10, 5, 30]  # right neighbour out
    assert hand_after_place(hand, 5, 0, 2) == [5, 10, 20]  # far end out
    assert hand_after_place(hand, 5, 3, 2) == [20, 30, 5]
    assert hand == [10, 20, 30]


def test_mr_4_action_indices_of_new_moves() -> None:
    # the layout table of moves.py, for moves built now (not the shared singletons)
    assert [Take(s, r).index for r in (False, True) for s in range(3)] == list(range(6))
    assert Place(0, "left").index == 6 and Place(0, "left", True).index == 7
    assert Place(5, "far").index == 6 + (5 * 3 + 2) * 2
    assert Place(14, "far", True).index == 95 and Place(15, "left").index == -1
    assert place(20, "far") == Place(20, "far") and place(20, "far").declare is False
    assert place(20, "far", True).index == -1 and place(20, "far", True).declare is True
    assert place(3, "right") is MOVES[6 + 10 * 2]


def test_mr_9_make_options_defaults() -> None:
    assert make_options(2) == Options(2, (12, 12), 60, None, None, DEFAULT_SYMBOLS, 0)
    # without players: one seat per hand size, or three
    assert MyRummy111().num_players == 3 and MyRummy111(hand_sizes=[12, 13]).num_players == 2
    assert MyRummy111(hand_sizes=(14, 13, 12, 12)).options.hand_sizes == (14, 13, 12, 12)


def test_mr_1_2_symbols_written_as_text(tmp_path: Path) -> None:
    assert parse_symbols("1" * 110) == (1,) * 110  # digits in a row, as OpenSpiel writes them
    assert parse_symbols("[" + ", ".join(["4"] * 110) + "]") == (4,) * 110
    assert parse_symbols("\n".join(["2"] * 110)) == (2,) * 110
    path = tmp_path / "symbols.txt"
    path.write_text("\ufeff" + " ".join(["3"] * 110), encoding="utf-8")  # a byte-order mark
    assert load_symbols(path) == (3,) * 110

    def reason(text: str) -> str:
        with pytest.raises(OptionError) as info:
            parse_symbols(text)
        assert info.value.option == "symbols"
        return info.value.reason

    assert reason("12") == "must list 110 integers 1–4 (cards 2…111), got 2"  # digits: 1, 2
    assert reason("12 3 4") == "must list 110 integers 1–4 (cards 2…111), got 3"
    assert reason("x 1") == "the text, number 1: 'x' is not an integer"
    assert reason("[" + "1" * 500 + "]") == (
        "the text at [0]: a number of 500 digits is too long (at most 100)"
    )


def test_mr_4_counts_moves_and_turns_of_the_round() -> None:
    state = MyRummy111(players=2).new_state()
    view = state.view(0)  # before the first deal
    assert (state.moves_in_round, state.turns_in_round) == (0, 0)
    assert (view.draw_size, view.middle, view.history, view.moves_in_round) == (0, (), (), 0)
    assert state.middle_face_up == (False, False, False)
    state.deal(make_deal([HAND0, HAND1], MIDDLE))
    counts = []
    for move in (Take(0), Place(5, "left"), Take(0), Place(3, "right")):
        state.apply(move)
        counts.append((state.moves_in_round, state.turns_in_round))
    assert counts == [(1, 0), (2, 1), (3, 1), (4, 2)]
    state.apply(Take(1))
    assert state.middle_face_up == (True, False, False)  # slot 1 was taken face down
    state.apply(Place(12, "left", True))
    state.deal(make_deal([HAND0, HAND1], MIDDLE))
    assert (state.moves_in_round, state.turns_in_round, state.round_number) == (0, 0, 2)


def test_mr_4_taking_a_face_up_card_empties_its_slot() -> None:
    _game, state = fresh()
    for slot in (0, 1):
        state.apply(Take(slot))
        state.apply(Place(5, "left"))
    assert state.middle_face_up == (True, True, False)
    state.apply(Take(1))
    assert state.middle_face_up == (True, False, False) and state.middle[1] is None


def test_mr_5_views_show_the_public_facts() -> None:
    _game, state = fresh()
    state.apply(Take(0))
    state.apply(Place(4, "right"))  # 108 replaces 50, which goes face up to slot 0
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert (view.to_move, view.phase, view.middle) == (1, "take", (50, None, None))
        assert (view.moves_in_round, view.turns_in_round) == (2, 1)
        assert (view.awaiting_deal, view.finished, view.winners) == (False, False, ())
        assert view.history == (TakeEvent(0, 0, False, None, False), PlaceEvent(0, 4, "right", 50))
    state.apply(Take(0))  # the face-up 50
    assert state.view(None).history[-1] == TakeEvent(1, 0, False, 50, False)
    state.apply(Place(12, "far", True))  # seat 1 declares (falsely): the round ends
    view = state.view(0)
    assert view.history[-1] == PlaceEvent(1, 12, "far", 47, True) and view.awaiting_deal
    assert GAME_2.view_from_json(view.to_json()) == view


def test_mr_5_1_a_reshuffle_is_public_and_survives_json() -> None:
    state = MyRummy111(players=2, rounds=1).new_game(random.Random(8))
    move, _before = _refresh_until_reshuffle(state)
    view = state.view(1)
    assert view.history[-1] == TakeEvent(move["seat"], move["take"], True, None, True)
    assert GAME_2.view_from_json(view.to_json()) == view
    assert sum(e.reshuffled for e in view.history if isinstance(e, TakeEvent)) == 1
