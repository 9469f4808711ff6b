"""One or more tests per rule of shared/spec/marshmallow-test.md, named after it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from cardtable.core.errors import IllegalMoveError, OptionError
from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest, MarshmallowView
from cardtable.games.marshmallow_test.cards import (
    COLOUR_MASKS,
    COLOUR_NAMES,
    COLOUR_OF,
    card,
    cards_of,
    format_card,
    format_cards,
    mask_of,
    parse_card,
)
from cardtable.games.marshmallow_test.moves import PLAYS, TRUMPS, parse_move

from .helpers import cards, fill_deal, names, play, random_game, scenario

# Rulebook example (MT-6.2): tricks won by 0,1,0,1,2,3 then 0 takes its third.
EXAMPLE_HANDS = {
    0: "R12 R4 Y12 Y4 G1 G4 B12",
    1: "R1 R11 Y1 Y11 G2 G5 B1",
    2: "R2 R5 Y2 Y5 G12 G6 B2",
    3: "R3 R6 Y3 Y6 G3 G11 B3",
}
EXAMPLE_MOVES = [
    "R12",
    "R1",
    "R2",
    "R3",
    "R4",
    "R11",
    "R5",
    "R6",
    "Y1",
    "Y2",
    "Y3",
    "Y12",
    "Y4",
    "Y11",
    "Y5",
    "Y6",
    "G2",
    "G12",
    "G3",
    "G1",
    "G6",
    "G11",
    "G4",
    "G5",
    "B3",
    "B12",
    "B1",
    "B2",
]

# 2 players: seat 1 takes trick 1, then seat 0 takes six and goes out with 1 point.
TWO_PLAYER_HANDS = {0: "R1 Y7 Y8 Y9 Y10 Y11 Y12 B1 B2 B3 B4 B5", 1: "R12 Y1 Y2 Y3 Y4 Y5 Y6"}
TWO_PLAYER_MOVES = [
    "R1",
    "R12",
    "Y1",
    "Y7",
    "Y8",
    "Y2",
    "Y9",
    "Y3",
    "Y10",
    "Y4",
    "Y11",
    "Y5",
    "Y12",
    "Y6",
]

# 5 players, found by search: all 12 tricks played with several still in.
FIVE_HANDS = [
    "R9 R10 R12 G2 G8 G12 B2 B7 B8 P2 P7 P8",
    "R3 R5 Y3 Y7 Y8 Y9 Y10 G9 B3 B10 P9 P11",
    "R1 R6 Y1 Y2 Y6 G3 G4 G5 B5 B11 P1 P12",
    "R4 R7 R8 R11 Y4 Y12 G1 G7 G11 B1 P4 P5",
    "R2 Y5 Y11 G6 G10 B4 B6 B9 B12 P3 P6 P10",
]
FIVE_WINNER_OUT = [
    "B2",
    "B10",
    "B5",
    "B1",
    "B12",
    "B6",
    "B8",
    "B3",
    "B11",
    "P4",
    "Y2",
    "Y4",
    "Y11",
    "R12",
    "Y3",
    "B4",
    "B7",
    "Y9",
    "R6",
    "R7",
    "P2",
    "P11",
    "P1",
    "P5",
    "P6",
    "Y7",
    "Y1",
    "Y12",
    "Y5",
    "P8",
    "G7",
    "G10",
    "G2",
    "G9",
    "G3",
    "G12",
    "R3",
    "G5",
    "G11",
    "R10",
    "R5",
    "R1",
    "R4",
    "P9",
    "P12",
    "R8",
    "Y6",
    "G1",
    "Y8",
    "Y10",
    "G4",
    "R11",
]
FIVE_WINNER_IN = [
    "G2",
    "G9",
    "G4",
    "G11",
    "G10",
    "P5",
    "P10",
    "P2",
    "P9",
    "P12",
    "Y6",
    "Y4",
    "Y5",
    "B8",
    "Y10",
    "P11",
    "P1",
    "P4",
    "P3",
    "P7",
    "Y3",
    "Y2",
    "Y12",
    "Y11",
    "R12",
    "B1",
    "B4",
    "B7",
    "B3",
    "B11",
    "G3",
    "G7",
    "G6",
    "G12",
    "B10",
    "P8",
    "Y8",
    "R6",
    "R8",
    "P6",
    "R9",
    "R3",
    "R1",
    "R4",
    "R2",
    "Y9",
    "Y1",
    "G1",
    "B9",
    "B5",
    "R11",
    "B12",
    "B6",
    "G5",
    "R7",
]


def example_state(**options: object) -> MarshmallowState:
    return scenario(4, fill_deal(4, EXAMPLE_HANDS), **options)


def round_two(players: int, rel_hands: dict[int, str], **options: object) -> MarshmallowState:
    """A state at the start of round 2, with ``rel_hands`` keyed by offset from the dealer."""
    state = scenario(players, fill_deal(players, {}), **options)
    while not state.awaiting_deal:
        state.apply(state.legal_moves()[0])
    probe = state.clone()
    probe.deal(fill_deal(players, {}))
    dealer = probe.dealer
    assert dealer is not None
    state.deal(fill_deal(players, {(dealer + k) % players: v for k, v in rel_hands.items()}))
    return state


def expect_illegal(
    state: MarshmallowState, move: str, rule: str, reason: str | None = None
) -> None:
    seat = state.to_move
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parse_move(move))
    assert info.value.rule == rule
    if reason is not None:
        assert info.value.reason == reason
    assert state.to_move == seat  # nothing changed


# MT-1 ------------------------------------------------------------------------
def test_mt_1_1_sixty_cards_five_colours_in_order() -> None:
    assert [format_card(c) for c in (0, 11, 12, 59)] == ["R1", "R12", "Y1", "P12"]
    assert COLOUR_NAMES == ("red", "yellow", "green", "blue", "purple")
    assert parse_card("g12") == parse_card("G12") == 2 * 12 + 11
    assert len({format_card(c) for c in range(60)}) == 60
    for bad in ("R13", "R0", "X1", "", "G"):
        with pytest.raises(ValueError):
            parse_card(bad)


def test_mt_1_2_points_supply_is_never_a_limit() -> None:
    game = MarshmallowTest(players=3, target=200)
    state = game.new_game(random.Random(4))
    rng = random.Random(5)
    while not state.finished:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert max(state.scores) >= 200


# MT-2 ------------------------------------------------------------------------
def test_mt_2_1_play_goes_clockwise_and_wraps() -> None:
    state = scenario(4, fill_deal(4, {}), first_dealer=3)
    seats = []
    for _ in range(4):
        seats.append(state.to_move)
        state.apply(state.legal_moves()[0])
    assert seats == [3, 0, 1, 2]


def test_mt_2_2_first_dealer_option_deals_and_leads_round_one() -> None:
    state = scenario(5, fill_deal(5, {}), first_dealer=2)
    assert state.dealer == 2 and state.to_move == 2 and state.round_number == 1
    assert MarshmallowTest(players=3).new_game(random.Random(0)).dealer == 0


# MT-3 ------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mt_3_1_all_sixty_shuffled_twelve_each_rest_set_aside(players: int) -> None:
    state = random_game(players, seed=players, target=60)
    deals = [r["deal"]["hands"] for r in state.record()["rounds"]]
    ever: set[str] = set()
    for hands in deals:
        assert [len(h) for h in hands] == [12] * players
        dealt = {c for h in hands for c in h}
        assert len(dealt) == 12 * players  # no card twice; the rest set aside
        ever |= dealt
    # All 60 cards are shuffled every round, not a fixed subset: over the
    # game's rounds every card reaches some hand.
    assert len(deals) >= 10 and len(ever) == 60


def test_mt_3_2_a_view_is_the_same_whatever_the_hidden_cards() -> None:
    hands = fill_deal(2, {})
    other = [list(h) for h in hands]
    aside = next(c for c in range(60) if all(c not in h for h in hands))
    other[0][5] = aside  # seat 0 holds a card that was set aside instead
    a, b = scenario(2, hands), scenario(2, other)
    assert a.view(1) == b.view(1) and a.view(None) == b.view(None)
    assert a.view(0) != b.view(0)
    assert a.view(1).hand == tuple(hands[1]) and a.view(None).hand == ()


# MT-4 ------------------------------------------------------------------------
def test_mt_4_1_round_one_has_no_trump() -> None:
    state = example_state()
    assert state.trump is None
    assert all(m.index < 60 for m in state.legal_moves())
    expect_illegal(state, "trump green", "MT-4.1", "round 1 has no trump")


def test_mt_4_2_dealer_names_trump_first_from_round_two() -> None:
    state = round_two(3, {})
    dealer = state.dealer
    assert dealer is not None
    assert state.round_number == 2 and state.to_move == dealer and state.trump_due
    assert state.legal_moves() == TRUMPS
    expect_illegal(state, format_card(state.hand(dealer)[0]), "MT-4.2")
    with pytest.raises(IllegalMoveError) as info:
        state.apply_as((dealer + 1) % 3, TRUMPS[2])
    assert info.value.rule == "MT-4.2"
    state.apply_as(dealer, TRUMPS[2])
    assert state.trump == 2 and state.to_move == dealer  # MT-5.1: then the dealer leads
    expect_illegal(state, "trump red", "MT-4.2")


# MT-5 ------------------------------------------------------------------------
def test_mt_5_1_dealer_leads_then_clockwise_and_wrong_seat_or_card_is_illegal() -> None:
    state = example_state()
    assert state.to_move == 0
    with pytest.raises(IllegalMoveError) as info:
        state.apply_as(1, PLAYS[parse_card("R1")])
    assert (info.value.rule, info.value.reason) == ("MT-5.1", "it is seat 0's turn, not seat 1's")
    expect_illegal(state, "R1", "MT-5.1", "seat 0 does not hold R1")
    play(state, "R12")
    assert state.to_move == 1


def test_mt_5_2_leader_may_play_any_card() -> None:
    state = example_state()
    assert sorted(m.index for m in state.legal_moves()) == sorted(state.hand(0))


def test_mt_5_3_must_follow_lead_colour_unless_void() -> None:
    hands = [
        cards("R1 R2 R3 Y1 Y2 G2 G3 B1 B2 B3 P1 P2"),
        cards("R4 R9 Y5 Y6 G4 G5 B4 B5 B6 P3 P4 P5"),
        cards("Y3 Y4 G1 G6 G7 B7 B8 B9 P6 P7 P8 P9"),  # no red
    ]
    state = scenario(3, hands)
    play(state, "R1")
    assert names(state.legal_moves()) == ["R4", "R9"]
    expect_illegal(state, "Y5", "MT-5.3", "must follow red: holds R4, R9")
    play(state, "R4")
    assert len(state.legal_moves()) == 12  # void in red: anything
    play(state, "Y3")


def test_mt_5_3_void_player_holding_trump_may_still_discard() -> None:
    for variant in ("may", "must"):
        state = _ruff_state(variant, ruff=False)
        assert len(state.legal_moves()) == 12  # void in red: any card, trump or not
        play(state, "Y1")  # no ruff: a discard
        assert not state.view(0).ruffed


def _ruff_state(variant: str, ruff: bool = True) -> MarshmallowState:
    # Dealer d: leads R5; d+1 has no red and ruffs with G2; d+2 holds red and green;
    # d+3 holds red and no green.
    rel = {
        0: "R5 R1 R2 R3 Y5 Y6 Y7 Y8 B1 B2 B3 B4",
        1: "G2 Y1 Y2 Y9 Y10 Y11 B5 B6 B7 B8 P1 P2",  # no red
        2: "R7 G9 Y3 Y4 Y12 B9 B10 B11 B12 P3 P4 P5",  # red and one trump
        3: "R12 R4 R6 R8 R9 R10 R11 P6 P7 P8 P9 P10",  # red, no trump
    }
    state = round_two(4, rel, trump_after_ruff=variant)
    state.apply(TRUMPS[2])  # trump green
    play(state, "R5")
    if ruff:
        play(state, "G2")
    return state


def test_mt_5_4_may_trump_in_after_a_ruff_even_holding_lead_colour() -> None:
    state = _ruff_state("may")
    assert names(state.legal_moves()) == ["R7", "G9"]
    expect_illegal(state, "Y3", "MT-5.4", "must follow red or trump in with green: holds R7, G9")
    play(state, "G9")  # trumping in while holding red
    d3 = state.to_move
    assert d3 is not None
    # holding red and no trump: still bound to follow after the ruff; the error offers only red
    assert names(state.legal_moves()) == ["R4", "R6", "R8", "R9", "R10", "R11", "R12"]
    expect_illegal(state, "P6", "MT-5.3", "must follow red: holds R4, R6, R8, R9, R10, R11, R12")
    play(state, "R12")
    assert state.trick_counts[(d3 + 3) % 4] == 1  # G9 wins (MT-5.6)


def test_mt_5_4_may_void_player_holding_trump_may_play_anything_after_a_ruff() -> None:
    rel = {
        0: "R5 R1 R2 R3 Y5 Y6 Y7 Y8 B1 B2 B3 B4",
        1: "G2 Y1 Y2 Y9 Y10 Y11 B5 B6 B7 B8 P1 P2",  # no red
        2: "G9 Y3 Y4 Y12 B9 B10 B11 B12 P3 P4 P5 P11",  # no red, one trump
    }
    state = round_two(3, rel)
    state.apply(TRUMPS[2])
    play(state, "R5", "G2")
    assert len(state.legal_moves()) == 12  # MT-5.4: "a player with neither may play anything"
    play(state, "Y3")  # a discard, not forced to trump


def test_mt_5_4_a_ruff_lasts_only_for_its_trick() -> None:
    rel = {
        0: "R5 R1 R2 R3 Y5 Y6 Y7 Y8 B1 B2 B3 B4",
        1: "G2 Y1 Y2 Y9 Y10 Y11 B5 B6 B7 B8 P1 P2",  # no red
        2: "R7 G9 Y3 Y4 Y12 B9 B10 B11 B12 P3 P4 P5",
    }
    state = round_two(3, rel)
    d = state.dealer
    assert d is not None
    state.apply(TRUMPS[2])
    play(state, "R5", "G2", "R7")  # G2 ruffs and wins
    assert state.to_move == (d + 1) % 3
    play(state, "Y1")  # a new trick, no ruff in it: trump in is no longer allowed
    assert names(state.legal_moves()) == ["Y3", "Y4", "Y12"]
    expect_illegal(state, "G9", "MT-5.3")


def test_mt_5_4_a_clone_keeps_the_ruff() -> None:
    state = _ruff_state("may")
    twin = state.clone()
    assert names(twin.legal_moves()) == names(state.legal_moves()) == ["R7", "G9"]
    play(twin, "G9")  # trumping in is legal in the clone too
    assert twin.trick_counts == state.trick_counts


def test_mt_5_4_variant_must_trump_in_after_a_ruff() -> None:
    state = _ruff_state("must")
    assert names(state.legal_moves()) == ["G9"]
    assert names(state.clone().legal_moves()) == ["G9"]
    expect_illegal(state, "R7", "MT-5.4", "must play a trump after the ruff: holds G9")
    play(state, "G9")
    # the next seat holds no trump: any card, even while holding red
    assert len(state.legal_moves()) == 12
    play(state, "P6")


def test_mt_5_5_trump_led_is_the_lead_colour() -> None:
    state = round_two(3, {0: "G3 R1", 1: "G7 R2", 2: "R3 Y1"})
    state.apply(TRUMPS[2])
    play(state, "G3")
    assert all(24 <= m.index < 36 for m in state.legal_moves())  # must follow green
    expect_illegal(state, "R2", "MT-5.3")
    play(state, "G7")


def test_mt_5_5_a_led_trump_keeps_its_rank() -> None:
    rel = {
        0: "G9 R1 R2 R3 Y5 Y6 Y7 Y8 B1 B2 B3 B4",
        1: "G7 R4 R5 Y9 Y10 Y11 B5 B6 B7 B8 P1 P2",
        2: "G3 R6 R7 Y3 Y4 Y12 B9 B10 B11 B12 P3 P4",
    }
    state = round_two(3, rel)
    d = state.dealer
    assert d is not None
    state.apply(TRUMPS[2])
    play(state, "G9", "G7", "G3")  # trump led and followed: the highest trump wins
    assert state.trick_counts[d] == 1 and sum(state.trick_counts) == 1
    assert state.to_move == d


def test_mt_5_6_highest_trump_wins_else_highest_lead_card() -> None:
    rel = {
        0: "R1 R5 Y1 Y2 Y3 Y4 B1 B2 B3 B4 P1 P2",
        1: "R12 Y5 Y6 Y7 Y8 B5 B6 B7 B8 P3 P4 P5",
        2: "G1 Y9 Y10 Y11 Y12 B9 B10 B11 B12 P6 P7 P8",  # no red
    }
    state = round_two(3, rel)
    d = state.dealer
    assert d is not None
    state.apply(TRUMPS[2])
    play(state, "R5", "R12", "G1")
    assert state.trick_counts[(d + 2) % 3] == 1  # G1 trump beats R12
    # no trump: highest of the lead colour; other colours never win
    state = example_state()
    play(state, "R12", "R1", "R2", "R3")
    assert state.trick_counts == (1, 0, 0, 0)


def test_mt_5_7_winner_takes_the_trick() -> None:
    state = example_state()
    play(state, *EXAMPLE_MOVES[:8])
    assert state.trick_counts == (1, 1, 0, 0) and state.tricks_played == 2


# MT-6 ------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "need"), [(2, 6), (3, 4), (4, 3), (5, 3)])
def test_mt_6_1_tricks_needed_to_go_out(players: int, need: int) -> None:
    # Seat 0 holds the six top reds and yellows, leads them and wins every trick.
    state = scenario(players, fill_deal(players, {0: "R12 R11 R10 R9 R8 R7 Y12 Y11 Y10 Y9 Y8 Y7"}))
    for trick in range(1, need + 1):
        assert not state.out[0]
        assert state.to_move == 0
        play(state, format_card(max(state.hand(0), key=lambda c: c % 12)))
        while state.tricks_played < trick:
            state.apply(state.legal_moves()[0])
        assert state.trick_counts[0] == trick
    assert state.out[0] and state.round_scores[-1][0] == 0  # others took nothing
    assert state.view(1).tricks_to_go_out == need


def test_mt_6_2_going_out_scores_other_players_tricks_rulebook_example() -> None:
    state = example_state()
    play(state, *EXAMPLE_MOVES[:24])
    assert state.trick_counts == (2, 2, 1, 1)
    play(state, *EXAMPLE_MOVES[24:])
    assert state.trick_counts == (3, 2, 1, 1)
    assert state.out == (True, False, False, False)
    assert state.scores == (4, 0, 0, 0) and state.round_scores == [[4, 0, 0, 0]]
    assert state.view(1).hand_sizes[0] == 0  # discarded unseen


def test_mt_6_3_next_leader_after_going_out_is_next_clockwise_still_in() -> None:
    state = example_state()
    play(state, *EXAMPLE_MOVES[:4])
    assert state.to_move == 0  # the winner leads
    play(state, *EXAMPLE_MOVES[4:])
    assert state.to_move == 1  # seat 0 went out: next clockwise still in


def test_mt_6_3_a_clone_keeps_its_own_seating() -> None:
    state = example_state()
    play(state, *EXAMPLE_MOVES[:24])
    twin = state.clone()
    play(twin, *EXAMPLE_MOVES[24:])  # seat 0 goes out in the clone only
    assert twin.out == (True, False, False, False) and state.out == (False,) * 4
    reference = example_state()
    play(reference, *EXAMPLE_MOVES[:24])
    for move in EXAMPLE_MOVES[24:]:
        assert state.to_move == reference.to_move  # seat 0 still plays in the original
        play(state, move)
        play(reference, move)
    assert state.to_move == reference.to_move == 1 and state.out == reference.out


# MT-7 ------------------------------------------------------------------------
def test_mt_7_1_round_ends_with_one_left_who_scores_nothing_and_deals() -> None:
    state = scenario(2, fill_deal(2, TWO_PLAYER_HANDS))
    play(state, *TWO_PLAYER_MOVES)
    assert state.scores == (1, 0) and state.awaiting_deal and state.to_move is None
    assert state.legal_moves() == ()
    state.deal(fill_deal(2, {}))
    assert state.dealer == 1 and state.round_number == 2 and state.trump_due


def test_mt_7_2_five_players_hands_exhausted_winner_still_in_deals() -> None:
    state = scenario(5, [cards(h) for h in FIVE_HANDS])
    play(state, *FIVE_WINNER_IN)
    assert state.awaiting_deal and state.tricks_played == 12
    assert state.trick_counts == (3, 3, 2, 2, 2)
    assert state.round_scores == [[6, 7, 0, 0, 0]]  # those left score nothing
    state.deal([cards(h) for h in FIVE_HANDS])
    assert state.dealer == 4  # the 12th trick's winner, still in


def test_mt_7_2_five_players_hands_exhausted_winner_went_out_next_clockwise_deals() -> None:
    state = scenario(5, [cards(h) for h in FIVE_HANDS])
    play(state, *FIVE_WINNER_OUT)
    assert state.awaiting_deal and state.tricks_played == 12
    assert state.trick_counts == (3, 3, 2, 1, 3)
    assert state.round_scores == [[6, 9, 0, 0, 4]]  # seat 1 went out on the 12th trick
    state.deal([cards(h) for h in FIVE_HANDS])
    assert state.dealer == 2  # first clockwise from seat 1 still in


def test_mt_7_3_exhaustion_rule_applies_whatever_variant() -> None:
    state = scenario(5, [cards(h) for h in FIVE_HANDS], trump_after_ruff="must")
    play(state, *FIVE_WINNER_IN)
    assert state.awaiting_deal and state.round_scores == [[6, 7, 0, 0, 0]]


def _ruffed(view: MarshmallowView) -> bool:
    """Whether a trump fell in a trick whose lead is not trump this round."""
    trump = view.trump
    return any(
        COLOUR_OF[t[0][1]] != trump and any(COLOUR_OF[c] == trump for _, c in t)
        for t in view.tricks
    )


@pytest.mark.parametrize("variant", ["may", "must"])
def test_mt_7_3_exhaustion_in_a_trump_round_with_ruffs(variant: str) -> None:
    """MT-7.2 in rounds 2+ where trump was named and ruffs happened, found
    among random games (seeded) and checked against the rule's words."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = MarshmallowTest(players=5, trump_after_ruff=variant, target=500).new_state()
        dealer: int | None = None
        while checked < 3 and state.round_number < 12:
            deck = list(range(60))
            rng.shuffle(deck)
            state.deal([deck[12 * s : 12 * s + 12] for s in range(5)])
            if dealer is not None:
                assert state.dealer == dealer
                checked += 1
                dealer = None
            while state.to_move is not None:
                legal = state.legal_moves()
                state.apply(legal[rng.randrange(len(legal))])
            view = state.view(None)
            still_in = [s for s in range(5) if not view.out[s]]
            if view.round_number < 2 or len(view.tricks) < 12 or len(still_in) < 2:
                continue
            if not _ruffed(view):
                continue
            assert view.trump is not None
            assert all(view.round_scores[-1][s] == 0 for s in still_in)  # none of them scores
            dealer = view.trick_winners[-1]  # the 12th trick's winner, or next still in
            while view.out[dealer]:
                dealer = (dealer + 1) % 5
    assert checked == 3


# MT-8 ------------------------------------------------------------------------
def test_mt_8_1_game_ends_instantly_mid_round() -> None:
    state = example_state(target=4)
    play(state, *EXAMPLE_MOVES)
    assert state.finished and state.winners == (0,) and state.to_move is None
    assert not state.awaiting_deal and state.legal_moves() == ()
    assert state.round_scores == [[4, 0, 0, 0]] and len(state.record()["rounds"]) == 1
    with pytest.raises(IllegalMoveError) as info:
        state.apply(PLAYS[0])
    assert info.value.rule == "MT-8.1"
    with pytest.raises(IllegalMoveError):
        state.deal(fill_deal(4, {}))


def test_mt_8_2_only_one_winner() -> None:
    state = scenario(2, fill_deal(2, TWO_PLAYER_HANDS), target=1)
    play(state, *TWO_PLAYER_MOVES)
    assert state.finished and state.winners == (0,) and state.scores == (1, 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mt_8_2_one_scorer_at_a_time_so_one_winner(players: int) -> None:
    for seed in range(8):
        state = MarshmallowTest(players=players, target=12).new_game(random.Random(seed))
        rng = random.Random(seed + 50)
        while not state.finished:
            before = state.scores
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
            gained = [s for s in range(players) if state.scores[s] != before[s]]
            assert len(gained) <= 1
        assert state.winners == tuple(gained)  # the last scorer, alone
        top = max(state.scores)
        assert state.scores.count(top) == 1 and state.scores[state.winners[0]] == top


# MT-9 ------------------------------------------------------------------------
def test_mt_9_1_view_shows_public_information() -> None:
    state = example_state()
    play(state, *EXAMPLE_MOVES[:6])
    view = state.view(2)
    assert view.hand == state.hand(2)
    assert view.trick_counts == (1, 0, 0, 0) and view.trick_winners == (0,)
    assert [format_card(c) for _, c in view.tricks[0]] == ["R12", "R1", "R2", "R3"]
    assert view.current_trick == ((0, parse_card("R4")), (1, parse_card("R11")))
    assert view.dealer == 0 and view.trump is None and view.to_move == 2
    assert view.scores == (0, 0, 0, 0) and view.out == (False,) * 4
    assert view.hand_sizes == (10, 10, 11, 11)


def _strings(obj: object) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*map(_strings, obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*map(_strings, obj)) if obj else set()
    return set()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mt_9_2_view_hides_other_hands_set_aside_and_discards(players: int) -> None:
    """At every decision of whole games, mid-trick and after players went out,
    a seat's view names no card but its own and those played this round."""
    state = MarshmallowTest(players=players, target=15).new_game(random.Random(players))
    rng = random.Random(7)
    discards_checked = 0
    while not state.finished:
        played = {c for t in state.view(None).tricks for _, c in t}
        played |= {c for _, c in state.current_trick}
        for seat in range(players):
            shown = _strings(state.view(seat).to_json())
            own = {format_card(c) for c in state.hand(seat)}
            public = {format_card(c) for c in played}
            assert public <= shown  # the check sees cards when they are there
            assert shown & {format_card(c) for c in range(60)} <= own | public
        if any(state.out) and state.current_trick:
            discards_checked += 1
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    # with two players a going out ends the round; with more the game goes on
    assert (discards_checked > 0) == (players > 2)


# MT-10 -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "bad"),
    [
        ({"players": 1}, "players"),
        ({"players": 6}, "players"),
        ({"players": True}, "players"),
        ({"players": "4"}, "players"),
        ({"players": 4, "target": 0}, "target"),
        ({"players": 4, "target": True}, "target"),
        ({"players": 4, "trump_after_ruff": "should"}, "trump_after_ruff"),
        ({"players": 4, "first_dealer": 4}, "first_dealer"),
        ({"players": 4, "first_dealer": False}, "first_dealer"),
        ({"players": 4, "colour": "red"}, "colour"),
    ],
)
def test_mt_10_options_are_validated(options: dict[str, object], bad: str) -> None:
    with pytest.raises(OptionError) as info:
        MarshmallowTest(**options)
    assert info.value.option == bad


def test_mt_10_players_default_to_four() -> None:
    # The spec leaves the default open; cardtable decides 4, in the API as on the command line.
    assert MarshmallowTest().num_players == 4


def test_mt_10_options_json_has_every_option() -> None:
    game = MarshmallowTest(players=3)
    assert game.options_json == {
        "players": 3,
        "target": 20,
        "trump_after_ruff": "may",
        "first_dealer": 0,
    }
    assert game.name == "marshmallow-test" and game.num_actions == 65 and game.num_players == 3


# Facts the public surface shows (each checked against the rule, not a copy) ----------
def test_mt_1_1_card_helpers() -> None:
    assert card(2, 7) == parse_card("G7") and card(4, 12) == 59 and card(0, 1) == 0
    assert mask_of([]) == 0 and mask_of([0, 13, 13]) == 1 | 1 << 13
    assert cards_of(mask_of([59, 3, 30])) == (3, 30, 59)
    assert cards_of(COLOUR_MASKS[1]) == tuple(card(1, n) for n in range(1, 13))
    assert format_cards([0, 59, 30]) == "R1, P12, G7"


def test_mt_a_new_state_shows_an_empty_table_until_dealt() -> None:
    state = MarshmallowTest(players=3).new_state()
    assert (state.to_move, state.dealer, state.trump, state.lead_colour) == (None,) * 4
    assert (state.trick_counts, state.out, state.players_in) == ((0,) * 3, (False,) * 3, (0, 1, 2))
    assert (state.current_trick, state.tricks_played, state.moves_in_round) == ((), 0, 0)
    assert (state.awaiting_deal, state.trump_due, state.finished, state.winners) == (
        True,
        False,
        False,
        (),
    )
    assert (state.round_number, state.scores, state.round_scores) == (0, (0, 0, 0), [])
    assert state.legal_moves() == () and state.view(0).hand == ()
    empty = MarshmallowView(
        seat=None,
        players=3,
        target=20,
        trump_after_ruff="may",
        round_number=0,
        dealer=None,
        trump=None,
        to_move=None,
        hand=(),
        hand_sizes=(0, 0, 0),
        tricks=(),
        trick_winners=(),
        current_trick=(),
        trick_counts=(0, 0, 0),
        out=(False, False, False),
        scores=(0, 0, 0),
        round_scores=(),
        finished=False,
        winners=(),
    )
    assert state.view(None) == empty and repr(state) == (
        "<MarshmallowState round 0, to move None, scores (0, 0, 0)>"
    )


def test_mt_5_6_a_follower_one_higher_wins() -> None:
    state = scenario(3, fill_deal(3, {0: "R5", 1: "R6", 2: "R2"}))
    play(state, "R5", "R6", "R2")
    assert state.trick_counts == (0, 1, 0) and state.to_move == 1


@pytest.mark.parametrize("variant", ["may", "must"])
def test_mt_5_6_a_views_derived_facts_agree_with_the_engine(variant: str) -> None:
    state = MarshmallowTest(players=4, trump_after_ruff=variant).new_game(random.Random(2))
    rng = random.Random(3)
    tricks = ruffs = 0
    while not state.finished:
        view = state.view(None)
        trick = view.current_trick
        assert view.lead_colour == state.lead_colour and view.players_in == state.players_in
        assert view.trump_due == state.trump_due and view.tricks_to_go_out == 3
        assert view.round_points == (tuple(state.round_scores[-1]) if state.round_scores else ())
        ruffed = bool(trick) and COLOUR_OF[trick[0][1]] != view.trump
        ruffed = ruffed and any(COLOUR_OF[c] == view.trump for _, c in trick)
        assert view.ruffed == ruffed
        ruffs += ruffed
        assert (view.winning_card() is None) == (not trick)
        if view.tricks:  # the last completed trick, shown as if still in progress
            full = dataclasses.replace(view, current_trick=view.tricks[-1])
            winner = full.winning_card()
            assert winner is not None and winner[0] == view.trick_winners[-1]
            tricks += 1
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    assert tricks > 100 and ruffs > 0


def test_mt_clones_keep_the_generator_and_the_winner() -> None:
    state = MarshmallowTest(players=3).new_game(random.Random(4))
    twin = state.clone()
    while twin.round_number == 1:
        twin.apply(twin.legal_moves()[0])
    assert twin.round_number == 2 and not twin.awaiting_deal and twin.to_move is not None
    over = example_state(target=4)
    play(over, *EXAMPLE_MOVES)
    copy = over.clone()
    assert copy.finished and copy.winners == (0,) and copy.record() == over.record()
    assert repr(copy) == "<MarshmallowState round 1, to move None, scores (4, 0, 0, 0), finished>"


def test_mt_record_result_and_emptied_hands_after_a_round() -> None:
    state = scenario(2, fill_deal(2, TWO_PLAYER_HANDS))
    play(state, *TWO_PLAYER_MOVES)  # seat 0 goes out: the round ends, the hands go back
    assert state.record()["result"] == {
        "finished": False,
        "scores": [1, 0],
        "round_scores": [[1, 0]],
        "winners": [],
    }
    for seat in (0, 1):
        assert state.view(seat).hand == () and state.view(seat).hand_sizes == (0, 0)


def test_mt_resume_starts_a_later_round_with_unknown_earlier_deals() -> None:
    state = MarshmallowTest(players=3).new_state()
    state.resume(
        round_number=3, dealer=1, scores=[2, 0, 1], past_round_scores=[[2, 0, 0], [0, 0, 1]]
    )
    state.deal(fill_deal(3, {}))
    assert (state.round_number, state.dealer, state.to_move, state.trump_due) == (3, 1, 1, True)
    assert state.scores == (2, 0, 1) and state.round_scores == [[2, 0, 0], [0, 0, 1], [0, 0, 0]]
    rounds = state.record()["rounds"]
    assert rounds[:2] == [{"deal": {"hands": []}, "moves": []}] * 2 and len(rounds) == 3
