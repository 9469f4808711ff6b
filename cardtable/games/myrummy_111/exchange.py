"""The exchange of MyRummy 111 (MR-4.3/4.4), defined once.

A placement inserts the taken card at ``position`` (0 … h, 0 = before the
first card) and discards a neighbour: ``side`` 0 is ``left``, 1 ``right`` and
2 ``far`` (from an end, the card at the other end). The engine applies it to
cards, the view to what the public knows of a hand (``None`` = unknown, MR-8),
and determinization to placeholders for unseen cards, all through
:func:`exchange`.

>>> hand_after_place([47, 60, 90], 105, 3, 2)  # MR-4.4: 105 at the right, far-left 47 out
[60, 90, 105]
>>> distinct_places(3)
((0, 2), (0, 1), (1, 1), (2, 1), (3, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from cardtable.core.engine import Refusal

T = TypeVar("T")

LEFT, RIGHT, FAR = 0, 1, 2  # the ``side`` of a placement, as :attr:`moves.Place.side`


def place_refusal(position: int, side: int, hand_size: int) -> Refusal | None:
    """Why a placement may not go at ``position`` with ``side`` into a hand
    of ``hand_size`` cards, or None: the one
    definition of MR-4.3/4.4's legality (the engine raises it as an
    IllegalMoveError, :func:`.moves.legal_places` lists what passes).

    >>> place_refusal(0, LEFT, 3)  # doctest: +NORMALIZE_WHITESPACE
    Refusal(reason='place 0 has no left neighbour: discard right or far', rule='MR-4.4',
            key='MR-4.4.no-left', params={})
    >>> place_refusal(3, FAR, 3) is None
    True
    """
    h = hand_size
    p = position
    if not 0 <= p <= h:
        return Refusal(
            f"place {p} is beyond the hand: positions 0–{h}",
            "MR-4.3",
            key="MR-4.3.beyond",
            params={"place": p, "last": h},
        )
    # MR-4.4: a neighbour must exist; far only from an end.
    if side == LEFT and p == 0:
        return Refusal(
            "place 0 has no left neighbour: discard right or far",
            "MR-4.4",
            key="MR-4.4.no-left",
            params={},
        )
    if side == RIGHT and p == h:
        return Refusal(
            f"place {h} has no right neighbour: discard left or far",
            "MR-4.4",
            key="MR-4.4.no-right",
            params={"place": h},
        )
    if side == FAR and 0 < p < h:
        return Refusal(
            f"far only when inserted at an end (place 0 or {h}), not {p}",
            "MR-4.4",
            key="MR-4.4.far-end",
            params={"place": p, "last": h},
        )
    return None


def exchange(hand: list[T], card: T, position: int, side: int) -> T:
    """Insert ``card`` at ``position`` and discard per ``side``, in place;
    returns what was discarded (MR-4.3/4.4).

    The placement must be legal (the engine checks it before calling).
    Inserting and discarding a neighbour amounts to replacing that neighbour.
    """
    if side == LEFT:
        out = hand[position - 1]
        hand[position - 1] = card
    elif side == RIGHT:
        out = hand[position]
        hand[position] = card
    elif position == 0:
        out = hand.pop()
        hand.insert(0, card)
    else:
        out = hand.pop(0)
        hand.append(card)
    return out


def hand_after_place(hand: Sequence[int], card: int, position: int, side: int) -> list[int]:
    """The hand a legal placement leaves, without changing ``hand``."""
    after = list(hand)
    exchange(after, card, position, side)
    return after


def distinct_places(hand_size: int) -> tuple[tuple[int, int], ...]:
    """``(position, side)`` of one placement per distinct hand it leaves.

    MR-4.4 lists ``p left`` and ``p-1 right`` both (they leave the same hand),
    so the distinct results for ``h`` cards are "the card replaces position
    ``i``" (``i right``, ``i < h``) and the two shifts ``0 far`` and ``h far``.
    """
    return ((0, FAR), *((i, RIGHT) for i in range(hand_size)), (hand_size, FAR))
