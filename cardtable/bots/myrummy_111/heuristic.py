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
from cardtable.games.myrummy_111.moves import Place, Take
from cardtable.games.myrummy_111.scoring import is_sorted
from cardtable.games.myrummy_111.state import hand_after_place

SPAN = 110.0


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


def quality(hand: Sequence[int], ascending: bool) -> float:
    """Bigger is better: sorted-subsequence length first, then closeness of
    every card to its ideal position."""
    h = len(hand)
    keyed = hand if ascending else [-v for v in hand]
    misfit = 0.0
    for i, v in enumerate(hand):
        ideal = (v - 2) / SPAN * h if ascending else (111 - v) / SPAN * h
        misfit += abs(i + 0.5 - ideal)
    return lis_length(keyed) * h - misfit / 2


def direction(hand: Sequence[int]) -> bool:
    """True for ascending: the direction in which the hand is already better."""
    return quality(hand, True) >= quality(hand, False)


class HeuristicBot:
    """``choose(view, legal)`` from the view only (MR-5): no search, no state."""

    def __init__(
        self, seat: int, game: Game, rng: random.Random, budget: Budget | None = None
    ) -> None:
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
        places = self.game.places_by_seat[self.seat]  # type: ignore[attr-defined]
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
