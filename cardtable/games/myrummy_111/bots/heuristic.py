"""A rule-of-thumb MyRummy 111 player that sees only its view and the legal moves.

It picks a direction (ascending or descending) from its hand, and judges a
hand by (1) its longest subsequence sorted that way, the cards that can stay,
and (2) how far each card sits from where its value belongs in an ideal sorted
hand (card ``v`` at about ``(v - 2) / 110 * h``). It takes a face-up card when
that card improves the hand more than a blind draw is worth, refreshes when no
face-up card helps, places the taken card where the hand gains most (so the
card that fits worst goes), and declares as soon as the hand is sorted.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from cardtable.bots.base import Budget
from cardtable.core.game import Game, Move
from cardtable.games.myrummy_111.cards import HIGHEST, LOWEST, NUM_CARDS
from cardtable.games.myrummy_111.exchange import distinct_places, hand_after_place
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.moves import Place, Take
from cardtable.games.myrummy_111.options import MAX_HAND
from cardtable.games.myrummy_111.scoring import is_sorted

__all__ = [
    "HeuristicBot",
    "best_placement",
    "direction",
    "hand_quality",
    "lis_length",
    "qualities",
    "quality",
]

SPAN = float(NUM_CARDS)  # card v ideally sits at (v - LOWEST) / SPAN * h, rising


def lis_length(values: Sequence[int]) -> int:
    """Length of the longest strictly increasing subsequence."""
    tails: list[int] = []
    for v in values:
        i = bisect_left(tails, v)
        if i == len(tails):
            tails.append(v)
        else:
            tails[i] = v
    return len(tails)


def _ideal_tables() -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
    """Each card's ideal position in a sorted hand of ``h`` cards, rising and
    falling, minus half a place (a card at index ``i`` covers ``i … i + 1``)."""
    up, down = [], []
    for h in range(MAX_HAND + 1):
        up.append(tuple((v - LOWEST) / SPAN * h - 0.5 for v in range(HIGHEST + 1)))
        down.append(tuple((HIGHEST - v) / SPAN * h - 0.5 for v in range(HIGHEST + 1)))
    return tuple(up), tuple(down)


_IDEAL_UP, _IDEAL_DOWN = _ideal_tables()


def qualities(hand: Sequence[int]) -> tuple[float, float]:
    """The heuristic's judgement of a hand, ``(ascending, descending)``; bigger
    is better: the longest subsequence sorted that way (the cards that can
    stay) times the hand size, minus half the cards' total distance from
    their ideal places. The one definition every bot and playout uses; both
    directions in one pass because the playouts call it most.

    >>> up, down = qualities([10, 40, 70, 100])
    >>> up > down
    True
    """
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
    return len(rise) * h - mu / 2, len(fall) * h - md / 2


def quality(hand: Sequence[int], ascending: bool) -> float:
    """:func:`qualities` in one direction."""
    up, down = qualities(hand)
    return up if ascending else down


def hand_quality(hand: Sequence[int]) -> float:
    """:func:`qualities` in the better direction."""
    up, down = qualities(hand)
    return up if up > down else down


def direction(hand: Sequence[int]) -> bool:
    """True for ascending: the direction in which the hand is already better."""
    up, down = qualities(hand)
    return up >= down


def best_placement(hand: Sequence[int], card: int) -> tuple[float, int, int]:
    """The placement of ``card`` (MR-4.3/4.4) that leaves the best
    :func:`hand_quality`: ``(quality, position, side)``, the first best of
    :func:`~cardtable.games.myrummy_111.exchange.distinct_places`."""
    best_q, best_p, best_s = -1e18, 0, 1
    for p, s in distinct_places(len(hand)):
        q = hand_quality(hand_after_place(hand, card, p, s))
        if q > best_q:
            best_q, best_p, best_s = q, p, s
    return best_q, best_p, best_s


class HeuristicBot:
    """``choose(view, legal)`` from the view only (MR-5): no search, no state."""

    def __init__(
        self, seat: int, game: Game, rng: random.Random, budget: Budget | None = None
    ) -> None:
        if not isinstance(game, MyRummy111):
            raise TypeError(f"HeuristicBot plays myrummy-111, not {getattr(game, 'name', game)!r}")
        self.seat = seat
        self.game = game
        self.rng = rng
        self.take_margin = 1.0  # how much a face-up card must gain over keeping the hand

    def choose(self, view: Any, legal: Sequence[Move]) -> Move:
        hand: tuple[int, ...] = view.hand
        if view.phase == "place":
            return self._place(hand, view.taken_card, legal)
        return self._take(hand, view.middle, view.taken_slot, legal)

    def _best_place(
        self, hand: Sequence[int], card: int, legal: Sequence[Move], ascending: bool
    ) -> tuple[float, Place]:
        best: tuple[float, Place] | None = None
        for move in legal:
            if not isinstance(move, Place) or move.declare:
                continue
            q = quality(hand_after_place(hand, card, move.position, move.side), ascending)
            if best is None or q > best[0]:
                best = (q, move)
        assert best is not None
        return best

    def _place(self, hand: Sequence[int], card: int, legal: Sequence[Move]) -> Move:
        ascending = direction(hand)
        _, move = self._best_place(hand, card, legal, ascending)
        after = hand_after_place(hand, card, move.position, move.side)
        if is_sorted(after):  # MR-4.5: declare as soon as it is sorted
            for m in legal:
                if (
                    isinstance(m, Place)
                    and m.declare
                    and m.position == move.position
                    and m.side == move.side
                ):
                    return m
        return move

    def _take(
        self,
        hand: Sequence[int],
        middle: Sequence[int | None],
        taken: int | None,
        legal: Sequence[Move],
    ) -> Move:
        ascending = direction(hand)
        h = len(hand)
        now = quality(hand, ascending)
        places = self.game.places_by_seat[self.seat]
        best_gain, best_slot = 0.0, -1
        for slot, card in enumerate(middle):
            if card is None:
                continue
            q, _ = self._best_place(hand, card, places, ascending)
            gain = q - now
            if gain > best_gain:
                best_gain, best_slot = gain, slot
        takes = [m for m in legal if isinstance(m, Take)]
        if best_slot >= 0 and best_gain >= self.take_margin * h / 2:
            return next(m for m in takes if m.slot == best_slot and not m.refresh)
        face_down = [m for m in takes if not m.refresh and middle[m.slot] is None]
        refresh = [m for m in takes if m.refresh]
        if refresh and best_gain < h / 4:  # MR-4.1: nothing face up fits
            return refresh[self.rng.randrange(len(refresh))]
        if face_down:
            return face_down[self.rng.randrange(len(face_down))]
        if best_slot >= 0:
            return next(m for m in takes if m.slot == best_slot and not m.refresh)
        return takes[self.rng.randrange(len(takes))]
