"""Scoring helpers (MR-6, MR-7): sortedness, best run, winners."""

from __future__ import annotations

import itertools
from collections.abc import Sequence


def is_sorted(hand: Sequence[int]) -> bool:
    """MR-6.1: strictly increasing or strictly decreasing, gaps do not matter."""
    pairs = list(itertools.pairwise(hand))
    return all(a < b for a, b in pairs) or all(a > b for a, b in pairs)


def best_run(hand: Sequence[int], sym: Sequence[int]) -> int:
    """MR-6.3: symbols of the best block of adjacent cards sorted either way.

    ``sym`` is indexed by card value. Every run extends to a maximal one and
    symbols are positive, so tracking the current rising and falling blocks
    suffices.

    >>> from cardtable.games.myrummy_111.cards import DEFAULT_SYMBOLS, symbol_lookup
    >>> sym = symbol_lookup(DEFAULT_SYMBOLS)
    >>> best_run([52, 53, 105, 13, 14, 15, 20, 22, 40, 41, 44, 86, 3], sym)
    17
    """
    prev = hand[0]
    rise = fall = best = sym[prev]
    for card in hand[1:]:
        s = sym[card]
        if card > prev:
            rise += s
            fall = s
        else:
            fall += s
            rise = s
        if rise > best:
            best = rise
        if fall > best:
            best = fall
        prev = card
    return best


def round_scores(
    hands: Sequence[Sequence[int]], sym: Sequence[int], declarer: int | None
) -> list[int]:
    """MR-6.2/6.3 (MR-6.4 when ``declarer`` is None): one score per seat."""
    out = []
    for seat, hand in enumerate(hands):
        if seat == declarer:
            # MR-6.2: all symbols + 5 when sorted, 0 otherwise (the round still ends).
            out.append(sum(sym[c] for c in hand) + 5 if is_sorted(hand) else 0)
        else:
            out.append(best_run(hand, sym))
    return out


def winners(totals: Sequence[int], last_round: Sequence[int]) -> tuple[int, ...]:
    """MR-7.1: highest total; ties broken by the last round's score, then shared."""
    top = max(totals)
    tied = [s for s, t in enumerate(totals) if t == top]
    best_last = max(last_round[s] for s in tied)
    return tuple(s for s in tied if last_round[s] == best_last)
