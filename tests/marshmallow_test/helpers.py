"""Scenario builders: explicit deals and scripted moves."""

from __future__ import annotations

import random

from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest
from cardtable.games.marshmallow_test.cards import CARD_NAMES, parse_card
from cardtable.games.marshmallow_test.moves import parse_move


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def fill_deal(players: int, partial: dict[int, str]) -> list[list[int]]:
    """A deal where the seats in ``partial`` hold those cards (topped up to 12
    with the lowest unused cards) and the others get the next unused cards."""
    used = {c for text in partial.values() for c in cards(text)}
    spare = [c for c in range(60) if c not in used]
    hands = []
    for seat in range(players):
        hand = cards(partial.get(seat, ""))
        while len(hand) < 12:
            hand.append(spare.pop(0))
        hands.append(hand)
    return hands


def scenario(players: int, hands: list[list[int]], **options: object) -> MarshmallowState:
    game = MarshmallowTest(players=players, **options)
    state = game.new_state()
    state.deal(hands)
    return state


def play(state: MarshmallowState, *moves: str) -> None:
    """Apply moves in terminal notation, each by the seat to move."""
    for text in moves:
        seat = state.to_move
        assert seat is not None, f"no one to move before {text}"
        state.apply_as(seat, parse_move(text))


def random_game(players: int, seed: int, **options: object) -> MarshmallowState:
    game = MarshmallowTest(players=players, **options)
    state = game.new_game(random.Random(seed))
    rng = random.Random(seed + 1)
    while not state.finished:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return state


def names(moves: object) -> list[str]:
    return [str(m) for m in moves]  # type: ignore[attr-defined]


__all__ = ["CARD_NAMES", "cards", "fill_deal", "names", "play", "random_game", "scenario"]
