"""Reading MyRummy 111's parts of a ``cardtable-record/1`` (record-format.md).

Everything malformed raises :class:`RecordError` with the path of the bad
value; rule breaks are left to :mod:`.state`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import RecordError
from cardtable.games.myrummy_111.cards import CARDS, HIGHEST, LOWEST, NUM_CARDS, is_card
from cardtable.games.myrummy_111.moves import SIDES, Move, Take, place
from cardtable.games.myrummy_111.options import Options


@dataclass(frozen=True, slots=True)
class Deal:
    """One round's deal (MR-3): hands left to right, the three middle slots
    (face down) and the draw pile, top card first."""

    hands: tuple[tuple[int, ...], ...]
    middle: tuple[int, ...]
    draw: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in self.hands],
            "middle": list(self.middle),
            "draw": list(self.draw),
        }


def deal_from_cards(order: list[int], hand_sizes: tuple[int, ...]) -> Deal:
    """Deal a shuffled deck: hands in seat order, then slots 0–2, the rest is the draw pile."""
    hands = []
    at = 0
    for size in hand_sizes:
        hands.append(tuple(order[at : at + size]))
        at += size
    return Deal(tuple(hands), tuple(order[at : at + 3]), tuple(order[at + 3 :]))


def _card_list(obj: object, where: str) -> list[int]:
    if not isinstance(obj, list):
        raise RecordError(where, f"must be a list of cards, not {_kind(obj)}")
    for i, card in enumerate(obj):
        if type(card) is not int:
            raise RecordError(
                f"{where}[{i}]", f"a card is an integer {LOWEST}–{HIGHEST}, not {card!r}"
            )
        if not is_card(card):
            raise RecordError(f"{where}[{i}]", f"unknown card {card}")
    return obj


def _kind(obj: object) -> str:
    if obj is None:
        return "null"
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(obj), type(obj).__name__)


def deal_from_json(obj: object, where: str, options: Options) -> Deal:
    """Check a record's ``deal`` against the options: per-seat hand sizes (MR-9),
    three middle cards, all 110 cards exactly once (MR-1.1/MR-3)."""
    if not isinstance(obj, dict):
        raise RecordError(where, f"a deal is an object, not {_kind(obj)}")
    for key in obj:
        if key not in ("hands", "middle", "draw"):
            raise RecordError(f"{where}.{key}", "unknown field")
    for key in ("hands", "middle", "draw"):
        if key not in obj:
            raise RecordError(where, f"missing field {key!r}")
    hands_obj = obj["hands"]
    if not isinstance(hands_obj, list):
        raise RecordError(f"{where}.hands", f"must be a list of hands, not {_kind(hands_obj)}")
    if len(hands_obj) != options.players:
        raise RecordError(
            f"{where}.hands",
            f"must hold {options.players} hands, one per seat, not {len(hands_obj)}",
        )
    hands = []
    for seat, hand in enumerate(hands_obj):
        cards = _card_list(hand, f"{where}.hands[{seat}]")
        if len(cards) != options.hand_sizes[seat]:
            raise RecordError(
                f"{where}.hands[{seat}]",
                f"seat {seat} must hold {options.hand_sizes[seat]} cards, not {len(cards)}",
            )
        hands.append(tuple(cards))
    middle = _card_list(obj["middle"], f"{where}.middle")
    if len(middle) != 3:
        raise RecordError(f"{where}.middle", f"must hold 3 cards, not {len(middle)}")
    draw = _card_list(obj["draw"], f"{where}.draw")
    seen: dict[int, str] = {}
    parts: list[tuple[str, Sequence[int]]] = [
        (f"{where}.hands[{s}]", h) for s, h in enumerate(hands)
    ]
    parts += [(f"{where}.middle", middle), (f"{where}.draw", draw)]
    for path, dealt in parts:
        for i, card in enumerate(dealt):
            if card in seen:
                raise RecordError(
                    f"{path}[{i}]", f"card {card} is dealt twice (also at {seen[card]})"
                )
            seen[card] = f"{path}[{i}]"
    if len(seen) != NUM_CARDS:
        missing = [c for c in CARDS if c not in seen]
        raise RecordError(
            where,
            f"the deal must hold all {NUM_CARDS} cards; missing "
            + ", ".join(map(str, missing[:10]))
            + ("…" if len(missing) > 10 else ""),
        )
    return Deal(tuple(hands), tuple(middle), tuple(draw))


def move_from_json(
    obj: object, where: str, options: Options
) -> tuple[int, Move, Mapping[str, Any]]:
    """``(seat, move, chance)`` from a record's move.

    ``chance`` is ``{"reshuffle": [...]}`` or ``{}``."""
    if not isinstance(obj, dict):
        raise RecordError(where, f"a move is an object, not {_kind(obj)}")
    if "seat" not in obj:
        raise RecordError(where, "missing field 'seat'")
    seat = obj["seat"]
    if type(seat) is not int or not 0 <= seat < options.players:
        raise RecordError(f"{where}.seat", f"must be a seat 0–{options.players - 1}, not {seat!r}")
    if "take" in obj and "place" in obj:
        raise RecordError(where, "a move has fields of two kinds ('take' and 'place')")
    if "take" in obj:
        return seat, *_take(obj, where)
    if "place" in obj:
        return seat, _place(obj, where), {}
    raise RecordError(where, "a move needs 'take' or 'place'")


def _take(obj: dict[str, Any], where: str) -> tuple[Move, Mapping[str, Any]]:
    for key in obj:
        if key not in ("seat", "take", "refresh", "reshuffle"):
            kind = key in ("discard", "declare")
            reason = (
                "a move has fields of two kinds ('take' and 'place')" if kind else "unknown field"
            )
            raise RecordError(f"{where}.{key}", reason)
    slot = obj["take"]
    if type(slot) is not int or not 0 <= slot <= 2:
        raise RecordError(f"{where}.take", f"a slot is 0, 1 or 2, not {slot!r}")
    refresh = obj.get("refresh", False)
    if type(refresh) is not bool:
        raise RecordError(f"{where}.refresh", f"must be true or false, not {refresh!r}")
    chance: dict[str, Any] = {}
    if "reshuffle" in obj:
        chance["reshuffle"] = _card_list(obj["reshuffle"], f"{where}.reshuffle")
    return Take(slot, refresh), chance


def _place(obj: dict[str, Any], where: str) -> Move:
    for key in obj:
        if key not in ("seat", "place", "discard", "declare"):
            kind = key in ("refresh", "reshuffle")
            reason = (
                "a move has fields of two kinds ('take' and 'place')" if kind else "unknown field"
            )
            raise RecordError(f"{where}.{key}", reason)
    position = obj["place"]
    if type(position) is not int or position < 0:
        raise RecordError(f"{where}.place", f"a position is an integer ≥ 0, not {position!r}")
    if "discard" not in obj:
        raise RecordError(where, "missing field 'discard'")
    side = obj["discard"]
    if side not in SIDES or type(side) is not str:
        raise RecordError(f"{where}.discard", f"must be 'left', 'right' or 'far', not {side!r}")
    declare = obj.get("declare", False)
    if type(declare) is not bool:
        raise RecordError(f"{where}.declare", f"must be true or false, not {declare!r}")
    return place(position, side, declare)
