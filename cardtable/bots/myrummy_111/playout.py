"""Fast simulation pieces for MyRummy 111 search: a playout policy on engine
states and a game-level evaluation of positions.

The playout policy is the heuristic bot's rule of thumb (``heuristic.quality``)
applied straight to a determinized state's hands, with the placements reduced
to the distinct hands they leave (MR-4.4 lists ``p left`` and ``p-1 right``
both; they leave the same hand), so it needs no view.

The evaluation turns a position into the searching seat's chance of winning
the *game* (MR-7): it estimates, from each hand's distance to sorted, who will
declare first, what the round then scores (MR-6.2/6.3), and where that leaves
the totals against the target (MR-7.1) or the last round (MR-7.2).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Sequence

from cardtable.bots.myrummy_111.heuristic import SPAN, lis_length
from cardtable.games.myrummy_111.moves import MOVES, Move, Place, place
from cardtable.games.myrummy_111.scoring import best_run, is_sorted
from cardtable.games.myrummy_111.state import MyRummyState, hand_after_place

__all__ = [
    "distance",
    "distinct_places",
    "evaluate",
    "game_value",
    "hand_quality",
    "policy_move",
]

# MR-4.3/4.4: the distinct results of a placement in a hand of h cards are
# "card replaces position i" (i < h; written as ``place i right``) and the two
# shifts ``place 0 far`` (insert left, drop the right end) and ``place h far``.


def distinct_places(h: int) -> tuple[tuple[int, int], ...]:
    """``(position, side)`` of one Place per distinct resulting hand."""
    return ((0, 2), *((i, 1) for i in range(h)), (h, 2))


def _ideal_tables() -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
    """``heuristic.quality``'s ideal positions, per hand size and card, minus 0.5."""
    up, down = [], []
    for h in range(16):
        up.append(tuple((v - 2) / SPAN * h - 0.5 for v in range(112)))
        down.append(tuple((111 - v) / SPAN * h - 0.5 for v in range(112)))
    return tuple(up), tuple(down)


_IDEAL_UP, _IDEAL_DOWN = _ideal_tables()


def hand_quality(hand: Sequence[int]) -> float:
    """``max(quality(hand, True), quality(hand, False))`` in one pass (the
    playout's hot spot): the heuristic's judgement in the better direction."""
    h = len(hand)
    iu = _IDEAL_UP[h]
    idn = _IDEAL_DOWN[h]
    rise: list[int] = []
    fall: list[int] = []
    mu = md = 0.0
    for i, v in enumerate(hand):
        x = i - iu[v]
        mu += x if x > 0 else -x
        y = i - idn[v]
        md += y if y > 0 else -y
        j = bisect_left(rise, v)
        if j == len(rise):
            rise.append(v)
        else:
            rise[j] = v
        j = bisect_left(fall, -v)
        if j == len(fall):
            fall.append(-v)
        else:
            fall[j] = -v
    return max(len(rise) * h - mu / 2, len(fall) * h - md / 2)


def best_quality(hand: Sequence[int], card: int) -> tuple[float, int, int, bool]:
    """The best placement of ``card`` by ``heuristic.quality`` in the better
    direction: ``(quality, position, side, sorted_after)``."""
    best_q = -math.inf
    best_p, best_s = 0, 1
    for p, s in distinct_places(len(hand)):
        q = hand_quality(hand_after_place(hand, card, p, s))
        if q > best_q:
            best_q, best_p, best_s = q, p, s
    return best_q, best_p, best_s, is_sorted(hand_after_place(hand, card, best_p, best_s))


def policy_move(state: MyRummyState, rng: random.Random) -> Move:
    """The heuristic's decision for the seat to move, read off the state."""
    seat = state.to_move
    assert seat is not None
    hand = state.hands[seat]
    h = len(hand)
    if state.phase == "place":
        card = state.taken_card
        assert card is not None
        _, p, s, done = best_quality(hand, card)
        return place(p, ("left", "right", "far")[s], done)  # MR-4.5: declare when sorted
    now = hand_quality(hand)
    middle = state.middle
    up = state.middle_face_up
    best_gain, best_slot = 0.0, -1
    for slot in range(3):
        if up[slot]:
            gain = best_quality(hand, middle[slot])[0] - now  # type: ignore[arg-type]
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
    hands = state.hands
    n = len(hands)
    to_move = state.to_move or 0
    # Turns each player needs: distance to sorted, plus the seats before it
    # in turn order (MR-4: clockwise) as a fraction of a round.
    need = [
        TURNS_PER_CARD * (len(hand) - hand_quality(hand) / len(hand)) + ((i - to_move) % n) / n
        for i, hand in enumerate(hands)
    ]
    low = min(need)
    race = [math.exp(-(x - low) / RACE_TEMPERATURE) for x in need]
    total_race = sum(race)
    runs = [best_run(hand, sym) for hand in hands]  # MR-6.3 for non-declarers
    base = state.scores
    rounds_left = _rounds_left(state)
    value = 0.0
    for declarer in range(n):
        p = race[declarer] / total_race
        if p < 0.01:
            continue
        # MR-6.2: the declarer's symbols + 5 (its hand as it is now).
        points = list(runs)
        points[declarer] = sum(sym[c] for c in hands[declarer]) + 5
        projected = [b + x for b, x in zip(base, points, strict=True)]
        value += p * game_value(projected, seat, opts.target, rounds_left, points)
    return value / sum(race[d] / total_race for d in range(n) if race[d] / total_race >= 0.01)


def placement_moves(legal: Sequence[object]) -> dict[tuple[int, int, bool], Place]:
    """The legal Places by ``(position, side, declare)``."""
    return {(m.position, m.side, m.declare): m for m in legal if isinstance(m, Place)}
