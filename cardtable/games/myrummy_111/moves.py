"""Moves of MyRummy 111 and their fixed action indices.

A turn (MR-4) is two decisions, because the taker sees a face-down card before
placing it: a :class:`Take` (with an optional refresh, MR-4.1/4.2) and then a
:class:`Place` (insert, discard and optional declaration, MR-4.3–4.5).

Action index layout (``NUM_ACTIONS = 96``, stable):

====================  =========================================================
index                 move
====================  =========================================================
0, 1, 2               ``Take(slot, refresh=False)`` for slot 0, 1, 2
3, 4, 5               ``Take(slot - 3, refresh=True)``
6 … 95                ``Place(p, discard, declare)`` at
                      ``6 + (p * 3 + d) * 2 + declare`` with ``p`` in 0…14,
                      ``d`` = 0 left, 1 right, 2 far, ``declare`` 0 or 1
====================  =========================================================

A hand holds at most 14 cards (MR-9), so ``p <= 14``. A ``Place`` beyond 14
(only from a record) has ``index == -1``: it is outside the action space and
never legal (MR-4.3).

>>> parse_move("refresh 1"), str(MOVES[6 + (5 * 3 + 0) * 2])
(Take(slot=1, refresh=True), 'place 5 left')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from cardtable.games.myrummy_111.exchange import place_refusal

SIDES: tuple[str, ...] = ("left", "right", "far")
MAX_POSITION = 14
NUM_TAKE_ACTIONS = 6
NUM_ACTIONS = NUM_TAKE_ACTIONS + (MAX_POSITION + 1) * 3 * 2  # 96

Side = Literal["left", "right", "far"]


@dataclass(frozen=True, slots=True)
class Take:
    """Take the card in middle ``slot`` (MR-4.2), after a refresh (MR-4.1) if asked."""

    slot: int
    refresh: bool = False
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", self.slot + 3 * self.refresh)

    def __str__(self) -> str:
        return f"refresh, take {self.slot}" if self.refresh else f"take {self.slot}"

    def to_json(self) -> dict[str, Any]:
        if self.refresh:
            return {"refresh": True, "take": self.slot}
        return {"take": self.slot}


@dataclass(frozen=True, slots=True)
class Place:
    """Insert the taken card at ``position`` (MR-4.3), discard its ``left`` or
    ``right`` neighbour or, from an end, the ``far`` end card (MR-4.4), and
    optionally declare the hand sorted (MR-4.5)."""

    position: int
    discard: Side
    declare: bool = False
    side: int = field(init=False, compare=False, repr=False)  # 0 left, 1 right, 2 far
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        side = SIDES.index(self.discard)
        object.__setattr__(self, "side", side)
        index = -1
        if 0 <= self.position <= MAX_POSITION:
            index = NUM_TAKE_ACTIONS + (self.position * 3 + side) * 2 + self.declare
        object.__setattr__(self, "index", index)

    def __str__(self) -> str:
        text = f"place {self.position} {self.discard}"
        return text + ", declare" if self.declare else text

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"place": self.position, "discard": self.discard}
        if self.declare:
            obj["declare"] = True
        return obj


Move = Take | Place


def _build() -> tuple[Move, ...]:
    moves: list[Move] = [Take(s, refresh) for refresh in (False, True) for s in range(3)]
    for p in range(MAX_POSITION + 1):
        for side in SIDES:
            for declare in (False, True):
                moves.append(Place(p, side, declare))  # type: ignore[arg-type]
    assert all(m.index == i for i, m in enumerate(moves))
    return tuple(moves)


MOVES: tuple[Move, ...] = _build()
TAKES: tuple[Take, ...] = tuple(m for m in MOVES[:3] if isinstance(m, Take))
TAKES_WITH_REFRESH: tuple[Take, ...] = tuple(m for m in MOVES[:6] if isinstance(m, Take))


def place(position: int, discard: str, declare: bool = False) -> Place:
    """The shared singleton (or, beyond position 14, a fresh Place)."""
    if 0 <= position <= MAX_POSITION:
        move = MOVES[NUM_TAKE_ACTIONS + (position * 3 + SIDES.index(discard)) * 2 + declare]
        assert isinstance(move, Place)
        return move
    return Place(position, discard, declare)  # type: ignore[arg-type]


def legal_places(hand_size: int) -> tuple[Place, ...]:
    """Every legal Place for a hand of ``hand_size`` cards before taking (MR-4.3/4.4).

    Both equivalent placements (``p left`` and ``p-1 right``) are listed."""
    return tuple(
        place(p, side, declare)
        for p in range(hand_size + 1)
        for s, side in enumerate(SIDES)
        if place_refusal(p, s, hand_size) is None
        for declare in (False, True)
    )


def move_from_index(index: int) -> Move:
    if type(index) is not int or not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index must be an integer 0–{NUM_ACTIONS - 1}, got {index!r}")
    return MOVES[index]


_USAGE = "write 'take S', 'refresh S' (S = slot 0–2) or 'place P left|right|far [declare]'"


def parse_move(text: str) -> Move:
    """A move from the terminal notation (``take 2``, ``refresh 1``,
    ``refresh, take 1``, ``place 5 left``, ``place 0 far declare``)."""
    words = text.lower().replace(",", " ").split()
    if not words:
        raise ValueError(f"empty move; {_USAGE}")
    head = words[0]
    if head in ("take", "refresh"):
        refresh = head == "refresh"
        rest = words[1:]
        if refresh and rest[:1] == ["take"]:
            rest = rest[1:]
        if len(rest) != 1 or rest[0] not in ("0", "1", "2"):
            raise ValueError(f"{text!r}: the slot must be one of 0, 1, 2; {_USAGE}")
        return MOVES[int(rest[0]) + 3 * refresh]
    if head == "place":
        rest = words[1:]
        if len(rest) not in (2, 3) or not rest[0].isdigit():
            raise ValueError(f"{text!r}: {_USAGE}")
        if rest[1] not in SIDES:
            raise ValueError(f"{text!r}: discard must be left, right or far, not {rest[1]!r}")
        if len(rest) == 3 and rest[2] != "declare":
            raise ValueError(f"{text!r}: only 'declare' may follow the discard side")
        return place(int(rest[0]), rest[1], len(rest) == 3)
    raise ValueError(f"{text!r}: unknown move {head!r}; {_USAGE}")
