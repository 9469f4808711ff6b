"""Fast simulation pieces for MyRummy 111 search: a playout policy on engine
states and a game-level evaluation of positions.

The playout policy is the heuristic bot's rule of thumb
(:func:`~.heuristic.hand_quality`, in the better direction) applied straight
to a determinized state's hands, with the placements reduced to the distinct
hands they leave (:func:`~cardtable.games.myrummy_111.exchange.distinct_places`),
so it needs no view.

The evaluation turns a position into the searching seat's chance of winning
the *game* (MR-7): it estimates, from each hand's distance to sorted, who will
declare first, what the round then scores (MR-6.2/6.3), and where that leaves
the totals against the target (MR-7.1) or the last round (MR-7.2).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from cardtable.games.myrummy_111.bots.heuristic import (
    best_placement,
    hand_quality,
    lis_length,
    prepared_quality,
)
from cardtable.games.myrummy_111.exchange import hand_after_place
from cardtable.games.myrummy_111.moves import MOVES, SIDES, Move, Place, place
from cardtable.games.myrummy_111.scoring import best_run, declaration_score, is_sorted
from cardtable.games.myrummy_111.state import MyRummyState

__all__ = [
    "distance",
    "evaluate",
    "game_value",
    "placement_moves",
    "policy_move",
    "round_outlook",
]


# The policy judges the same (hand, card) pairs over and over: a face-up card
# judged at the take is judged again when placed, and the playouts of a
# decision's alternatives share their deals, so the other seats' hands and
# the middle repeat from one playout to the next (about 40% of calls in an
# analysis). Both functions are pure; the caches only save time.
_best_placement = lru_cache(maxsize=1 << 17)(best_placement)
_hand_quality = lru_cache(maxsize=1 << 15)(hand_quality)


def policy_move(state: MyRummyState, rng: random.Random) -> Move:
    """The heuristic's decision for the seat to move, read off the state."""
    seat = state.to_move
    assert seat is not None
    hand = state.hands[seat]
    h = len(hand)
    if state.phase == "place":
        card = state.taken_card
        assert card is not None
        _, p, s = _best_placement(hand, card)
        done = is_sorted(hand_after_place(hand, card, p, s))
        return place(p, SIDES[s], done)  # MR-4.5: declare when sorted
    now = prepared_quality(hand)  # the tables the face-up cards' placements use
    middle = state.middle
    up = state.middle_face_up
    best_gain, best_slot = 0.0, -1
    for slot in range(3):
        face_up = middle[slot]
        if up[slot] and face_up is not None:
            gain = _best_placement(hand, face_up)[0] - now
            if gain > best_gain:
                best_gain, best_slot = gain, slot
    if best_slot >= 0 and best_gain >= h / 2:
        return MOVES[best_slot]
    if all(up):
        if best_gain < h / 4:  # MR-4.1: nothing face up fits, refresh
            return MOVES[3 + rng.randrange(3)]
        return MOVES[best_slot] if best_slot >= 0 else MOVES[rng.randrange(3)]
    down = [s for s in range(3) if not up[s]]
    return MOVES[down[rng.randrange(len(down))]]


def distance(hand: Sequence[int]) -> int:
    """Cards that must still change for the hand to be sorted (MR-6.1): the
    hand size minus its longest sorted subsequence, either direction."""
    return len(hand) - max(lis_length(hand), lis_length([-c for c in hand]))


# Turns a heuristic-like player needs per missing card, and how sharply the
# race to declare follows the estimated turns (fitted by eye on self-play).
TURNS_PER_CARD = 2.0
RACE_TEMPERATURE = 2.0
SCORE_SCALE = 12.0  # points: how uncertain totals are before the game ends


def game_value(
    totals: Sequence[float], seat: int, target: int, rounds_left: int | None, last: Sequence[float]
) -> float:
    """The seat's chance to win the game (MR-7) from projected ``totals`` after
    a round. Game over: 1 (shared: 1/k) or 0; otherwise a soft-max of the totals."""
    n = len(totals)
    over = rounds_left == 0 if rounds_left is not None else max(totals) >= target
    if over:
        top = max(totals)
        tied = [i for i in range(n) if totals[i] == top]
        if len(tied) > 1:  # MR-7.1 tie-break: last round's score
            best_last = max(last[i] for i in tied)
            tied = [i for i in tied if last[i] == best_last]
        return 1.0 / len(tied) if seat in tied else 0.0
    # Not over: soft-max of totals; the further from the end, the softer.
    if rounds_left is not None:
        scale = SCORE_SCALE * math.sqrt(rounds_left)
    else:
        scale = SCORE_SCALE * max(1.0, math.sqrt((target - max(totals)) / 25.0))
    m = max(totals)
    weights = [math.exp((t - m) / scale) for t in totals]
    return weights[seat] / sum(weights)


def _rounds_left(state: MyRummyState) -> int | None:
    rounds = state.options.rounds
    return None if rounds is None else rounds - state.round_number


def round_outlook(
    state: MyRummyState, sym: Sequence[int], temperature: float = RACE_TEMPERATURE
) -> list[tuple[float, list[int]]]:
    """How the round in play may end, as estimated from the hands: for each
    likely declarer, ``(chance it declares first, the round's points then)``.

    Each player's turns to go are its distance to sorted plus the seats
    before it in turn order (MR-4: clockwise) as a fraction of a round; the
    chances are a soft-min of those at ``temperature`` (turns). A declarer
    scores its hand as it is now as if sorted (MR-6.2), the others their best
    runs (MR-6.3). Declarers with less than a 1% chance are left out: the
    chances listed sum to a little less than 1, and a caller renormalises by
    their sum.
    """
    hands = state.hands
    n = len(hands)
    to_move = state.to_move or 0
    need = [
        TURNS_PER_CARD * (len(hand) - _hand_quality(hand) / len(hand)) + ((i - to_move) % n) / n
        for i, hand in enumerate(hands)
    ]
    low = min(need)
    race = [math.exp(-(x - low) / temperature) for x in need]
    total_race = sum(race)
    runs = [best_run(hand, sym) for hand in hands]
    outlook = []
    for declarer in range(n):
        p = race[declarer] / total_race
        if p < 0.01:
            continue
        points = list(runs)
        points[declarer] = declaration_score(sym[c] for c in hands[declarer])
        outlook.append((p, points))
    return outlook


def evaluate(state: MyRummyState, seat: int, round_number: int, sym: Sequence[int]) -> float:
    """The seat's chance to win the game, estimated at ``state`` (a simulation
    that started in round ``round_number``)."""
    opts = state.options
    if state.finished or state.round_number != round_number:
        # The round ended (MR-6): the totals are real.
        scores = state.round_scores[round_number - 1]
        totals = state.scores
        if state.finished:
            return game_value(totals, seat, opts.target, 0, scores)
        rounds_left = None if opts.rounds is None else opts.rounds - round_number
        return game_value(totals, seat, opts.target, rounds_left, scores)
    base = state.scores
    rounds_left = _rounds_left(state)
    value = 0.0
    outlook = round_outlook(state, sym)
    for p, points in outlook:
        projected = [b + x for b, x in zip(base, points, strict=True)]
        value += p * game_value(projected, seat, opts.target, rounds_left, points)
    return value / sum(p for p, _ in outlook)


def placement_moves(legal: Sequence[object]) -> dict[tuple[int, int, bool], Place]:
    """The legal Places by ``(position, side, declare)``."""
    return {(m.position, m.side, m.declare): m for m in legal if isinstance(m, Place)}
