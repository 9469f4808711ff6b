"""One-card lookahead: judge a hand by what the next blind draw makes of it.

The heuristic judges a hand by ``hand_quality`` (its sorted core and how near each
card sits to its ideal place). On reduced decks where the optimum is computable
(``benchmarks/myrummy_optimality.py``) placing greedily by ``quality`` needs
about 15% more turns to sort than optimal play, while placing to maximise the
*expected best quality after the next face-down card* (MR-4.2: a blind take
is uniform over the unseen cards) is within about 1% of optimal. This module
computes that expectation over the cards a face-down slot could hold (MR-5:
every card not in the seat's hand, not face up, not on the discard pile and
not known in another hand).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.myrummy_111.bots.heuristic import best_placement, hand_quality
from cardtable.games.myrummy_111.cards import CARDS
from cardtable.games.myrummy_111.view import MyRummyView

__all__ = ["best_after", "hidden_pool", "lookahead_value", "stratified"]


def hidden_pool(view: MyRummyView) -> list[int]:
    """The cards a face-down middle slot or the draw pile may hold for the seat
    (sorted): the unseen cards (MR-5.2)."""
    seen: set[int] = set(view.hand or ())
    seen.update(c for c in view.middle if c is not None)
    seen.update(view.discard_pile)
    if view.taken_card is not None:
        seen.add(view.taken_card)
    for known in view.known:
        seen.update(c for c in known if c is not None)
    return [c for c in CARDS if c not in seen]


def stratified(pool: Sequence[int], size: int) -> list[int]:
    """At most ``size`` cards spread evenly over the sorted ``pool``: a
    smooth, deterministic stand-in for the whole pool's expectation."""
    if len(pool) <= size:
        return list(pool)
    step = len(pool) / size
    return [pool[int((i + 0.5) * step)] for i in range(size)]


def best_after(hand: Sequence[int], card: int) -> float:
    """The best ``quality`` the hand reaches with ``card`` placed (MR-4.3/4.4)."""
    return best_placement(hand, card)[0]


def lookahead_value(hand: Sequence[int], pool: Sequence[int]) -> float:
    """Mean over ``pool`` of :func:`best_after`: the hand's one-card lookahead value."""
    if not pool:  # every card is seen (not reachable with 110 cards, MR-1.1)
        return hand_quality(hand)
    return sum(best_after(hand, c) for c in pool) / len(pool)
