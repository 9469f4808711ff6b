"""Deals and moves as written in a ``cardtable-record/1`` (record-format.md).

Everything malformed raises :class:`RecordError` with the path of the bad
value (``rounds[0].deal.hands[2][5]``) and never another exception type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import RecordError
from cardtable.games.marshmallow_test.cards import (
    CARD_NAMES,
    COLOUR_NAMES,
    HAND_SIZE,
    NUM_CARDS,
    is_card_name,
    parse_card,
)
from cardtable.games.marshmallow_test.moves import PLAYS, TRUMPS, MTMove


@dataclass(frozen=True, slots=True)
class Deal:
    """One round's deal: 12 cards per seat (MT-3.1); the rest are set aside."""

    hands: tuple[tuple[int, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"hands": [[CARD_NAMES[c] for c in hand] for hand in self.hands]}

    def check(self, players: int) -> None:
        """ValueError unless this is a possible deal for ``players`` seats."""
        if len(self.hands) != players:
            raise ValueError(f"a deal has {players} hands, one per seat, not {len(self.hands)}")
        seen: set[int] = set()
        for seat, hand in enumerate(self.hands):
            if len(hand) != HAND_SIZE:
                raise ValueError(f"hand {seat} has {len(hand)} cards, not {HAND_SIZE}")
            for c in hand:
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < NUM_CARDS:
                    raise ValueError(f"hand {seat} holds {c!r}, which is no card")
                if c in seen:
                    raise ValueError(f"card {CARD_NAMES[c]} is dealt twice")
                seen.add(c)

    @staticmethod
    def of(hands: Any, players: int) -> Deal:
        """A checked Deal from any sequence of hands of card ints."""
        try:
            deal = Deal(tuple(tuple(hand) for hand in hands))
        except TypeError:
            raise ValueError(f"a deal is {players} hands of {HAND_SIZE} cards") from None
        deal.check(players)
        return deal


def _keys(obj: Any, where: str, required: tuple[str, ...], allowed: tuple[str, ...]) -> None:
    if not isinstance(obj, dict):
        raise RecordError(where, f"expected a JSON object, got {type(obj).__name__}")
    for key in obj:
        if key not in allowed:
            raise RecordError(f"{where}.{key}", f"unknown key {key!r}")
    for key in required:
        if key not in obj:
            raise RecordError(where, f"missing key {key!r}")


def deal_from_json(obj: Any, where: str, players: int) -> Deal:
    """Parse ``{"hands": [[12 cards] per seat]}`` strictly."""
    _keys(obj, where, ("hands",), ("hands",))
    hands = obj["hands"]
    where_hands = f"{where}.hands"
    if not isinstance(hands, list):
        raise RecordError(where_hands, f"expected a list of hands, got {type(hands).__name__}")
    if len(hands) != players:
        raise RecordError(where_hands, f"expected {players} hands (one per seat), got {len(hands)}")
    first_seen: dict[int, str] = {}
    parsed: list[tuple[int, ...]] = []
    for i, hand in enumerate(hands):
        where_hand = f"{where_hands}[{i}]"
        if not isinstance(hand, list):
            raise RecordError(where_hand, f"expected a list of cards, got {type(hand).__name__}")
        if len(hand) != HAND_SIZE:
            raise RecordError(where_hand, f"expected {HAND_SIZE} cards, got {len(hand)}")
        cards = []
        for j, name in enumerate(hand):
            where_card = f"{where_hand}[{j}]"
            if not isinstance(name, str):
                raise RecordError(where_card, f"a card is a string like 'G12', not {name!r}")
            if not is_card_name(name):
                raise RecordError(where_card, f"unknown card {name!r}")
            c = parse_card(name)
            if c in first_seen:
                raise RecordError(
                    where_card, f"card {CARD_NAMES[c]} is dealt twice (also at {first_seen[c]})"
                )
            first_seen[c] = where_card
            cards.append(c)
        parsed.append(tuple(cards))
    return Deal(tuple(parsed))


def move_from_json(obj: Any, where: str, players: int) -> tuple[int, MTMove, dict[str, Any]]:
    """Parse ``{"seat": 1, "play": "R7"}`` or ``{"seat": 2, "trump": "green"}``."""
    _keys(obj, where, ("seat",), ("seat", "play", "trump"))
    seat = obj["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RecordError(
            f"{where}.seat", f"a seat is an int from 0 to {players - 1}, not {seat!r}"
        )
    if not 0 <= seat < players:
        raise RecordError(f"{where}.seat", f"no seat {seat}: seats are 0 to {players - 1}")
    has_play, has_trump = "play" in obj, "trump" in obj
    if has_play and has_trump:
        raise RecordError(where, "a move has either 'play' or 'trump', not both")
    if has_play:
        name = obj["play"]
        if not isinstance(name, str):
            raise RecordError(f"{where}.play", f"a card is a string like 'G12', not {name!r}")
        if not is_card_name(name):
            raise RecordError(f"{where}.play", f"unknown card {name!r}")
        return seat, PLAYS[parse_card(name)], {}
    if has_trump:
        colour = obj["trump"]
        if not isinstance(colour, str) or colour.lower() not in COLOUR_NAMES:
            raise RecordError(
                f"{where}.trump", f"unknown colour {colour!r}: one of {', '.join(COLOUR_NAMES)}"
            )
        return seat, TRUMPS[COLOUR_NAMES.index(colour.lower())], {}
    raise RecordError(where, "missing key 'play' or 'trump'")
