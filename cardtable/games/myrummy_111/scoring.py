"""Scoring helpers (MR-6, MR-7): sortedness, the declaration, best run, winners."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

DECLARE_BONUS = 5  # MR-6.2


def is_sorted(hand: Sequence[int]) -> bool:
    """MR-6.1: strictly increasing or strictly decreasing, gaps do not matter."""
    pairs = list(itertools.pairwise(hand))
    return all(a < b for a, b in pairs) or all(a > b for a, b in pairs)


def declaration_score(symbols: Iterable[int]) -> int:
    """MR-6.2: what a declarer whose hand is sorted scores, from the joker
    symbols of its cards: all of them plus the bonus of 5.

    The one place the bonus is written: the engine, the bots' projections,
    the terminal and the adapters' utility bounds all ask it.

    >>> declaration_score([1, 2, 1])
    9
    """
    return sum(symbols) + DECLARE_BONUS


def declared_points(hand: Sequence[int], sym: Sequence[int]) -> int:
    """MR-6.2: the declarer's points: :func:`declaration_score` when the hand
    is sorted, 0 otherwise (the round ends either way). ``sym`` is indexed by
    card value."""
    return declaration_score(sym[c] for c in hand) if is_sorted(hand) else 0


def max_round_points(symbols: Sequence[int], hand_size: int) -> int:
    """The most one seat can score in a round (MR-6.2 beats MR-6.3): a
    sorted declaration of the ``hand_size`` cards with the most symbols.
    ``symbols`` is the options' table (one count per card)."""
    return declaration_score(sorted(symbols, reverse=True)[:hand_size])


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
            out.append(declared_points(hand, sym))
        else:
            out.append(best_run(hand, sym))
    return out


def game_over(totals: Sequence[int], round_number: int, rounds: int | None, target: int) -> bool:
    """Whether the game ends with round ``round_number`` leaving ``totals``:
    after the agreed number of rounds (MR-7.2), else once a total reaches
    the target (MR-7.1)."""
    if rounds is not None:
        return round_number >= rounds
    return max(totals) >= target


def winners(totals: Sequence[int], last_round: Sequence[int]) -> tuple[int, ...]:
    """MR-7.1: highest total; ties broken by the last round's score, then shared."""
    top = max(totals)
    tied = [s for s, t in enumerate(totals) if t == top]
    best_last = max(last_round[s] for s in tied)
    return tuple(s for s in tied if last_round[s] == best_last)
