"""Perft, shared by the games' ``test_perft.py``: the legal-move tree of a
position counted to a depth through the public surface of a state
(``legal_moves()``, ``clone()``, ``apply(move)``), every round that ends dealt
one fixed deal (``deal(deal)``), so that a count does not depend on chance or
on the order the tree is walked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, Self

import pytest


class Dealt(Protocol):
    """What perft needs of a state."""

    @property
    def awaiting_deal(self) -> bool: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def clone(self) -> Self: ...

    def apply(self, move: Any) -> Any: ...

    def deal(self, deal: Any) -> Any: ...


def perft(state: Dealt, depth: int, deal: Any) -> int:
    """The number of move sequences of length ``depth`` from ``state``
    (``depth >= 1``; a finished game has none); a round that ends is dealt ``deal``."""
    legal = state.legal_moves()
    if depth == 1:
        return len(legal)
    total = 0
    for move in legal:
        child = state.clone()
        child.apply(move)
        if child.awaiting_deal:
            child.deal(deal)
        total += perft(child, depth - 1, deal)
    return total


def assert_counts(state: Dealt, deal: Any, counts: Sequence[int]) -> None:
    """Depth by depth, so that a broken rule fails fast instead of walking a wide tree."""
    for depth, count in enumerate(counts, start=1):
        assert (depth, perft(state, depth, deal)) == (depth, count)


Position = tuple[int, dict[str, Any], int, tuple[int, ...]]


def print_counts(
    positions: Sequence[Position], position: Callable[[int, dict[str, Any], int], Any]
) -> None:
    """Each position's counts as the code makes them now (to update a test)."""
    for seed, options, skip, counts in positions:
        state, deal = position(seed, options, skip)
        print(seed, tuple(perft(state, depth, deal) for depth in range(1, len(counts) + 1)))


def counts_test(
    positions: Sequence[Position], position: Callable[[int, dict[str, Any], int], Any]
) -> Callable[..., None]:
    """The test of a game's ``test_perft.py``: every position's counts, one case a
    position (assign it to ``test_perft_counts`` there)."""

    def test_perft_counts(
        seed: int, options: dict[str, Any], skip: int, counts: tuple[int, ...]
    ) -> None:
        state, deal = position(seed, options, skip)
        assert_counts(state, deal, counts)

    cases = pytest.mark.parametrize(
        ("seed", "options", "skip", "counts"), positions, ids=[f"seed{p[0]}" for p in positions]
    )
    cases(test_perft_counts)
    return test_perft_counts
