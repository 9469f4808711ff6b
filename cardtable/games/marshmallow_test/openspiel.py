"""Marshmallow Test as a pyspiel game: the layout the OpenSpiel adapter reads.

Named by the manifest's ``openspiel``; imports no pyspiel (the adapter does).
Parameters are the options of MT-10. A deal is 12 chance nodes per seat, seat
0 first, each outcome a card ``0-59`` (hands are sets, so the order only names
the outcomes); the cards left over are set aside (MT-3.1).

Length: a round may pay nobody, so no game has a true bound; the automatic
``max_moves`` is ``(12·players + 1)·(10·target + 10)`` decisions, ~10 times
the rounds a game takes even if each paid only one point. The largest return
is ``target - 1`` plus the most one going-out can pay.

>>> LAYOUT.short_name, len(LAYOUT.deck), LAYOUT.card_name(59)
('python_cardtable_marshmallow_test', 60, 'P12')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.adapters.openspiel_layout import BaseLayout, Param
from cardtable.core.game import JSON
from cardtable.games.marshmallow_test import Deal, MarshmallowState, MarshmallowTest
from cardtable.games.marshmallow_test.cards import CARD_NAMES, HAND_SIZE, NUM_CARDS
from cardtable.games.marshmallow_test.options import OPTION_NAMES, TRICKS_TO_GO_OUT

__all__ = ["LAYOUT", "MarshmallowLayout"]


class MarshmallowLayout(BaseLayout):
    short_name = "python_cardtable_marshmallow_test"
    long_name = "cardtable Marshmallow Test"
    parameters: Mapping[str, Param] = {
        "players": 2,
        "target": 20,
        "trump_after_ruff": "may",
        "first_dealer": 0,
    }
    deck: tuple[int, ...] = tuple(range(NUM_CARDS))

    def options(self, params: Mapping[str, Param]) -> dict[str, Any]:
        return {name: params[name] for name in OPTION_NAMES}

    def parameters_of(self, game: MarshmallowTest) -> dict[str, Param]:
        params: dict[str, Param] = game.options_json
        return params

    def canonical(self, params: Mapping[str, Param], game: MarshmallowTest) -> dict[str, Param]:
        return dict(params)

    def max_utility(self, game: MarshmallowTest) -> int:
        # MT-6.2/8.1: below target before the last going-out, which pays at
        # most the tricks of the others: a hand's cards minus the tricks needed.
        opts = game.options
        return opts.target - 1 + HAND_SIZE - TRICKS_TO_GO_OUT[opts.players]

    def auto_max_moves(self, game: MarshmallowTest) -> int:
        # A round may pay nobody, so there is no bound: ~10 times the rounds a
        # game takes even if each paid only one point.
        opts = game.options
        return (HAND_SIZE * opts.players + 1) * (10 * opts.target + 10)

    def max_chance_nodes(self, game: MarshmallowTest, max_moves: int) -> int:
        rounds = max_moves // 2 + 1  # every round has at least 2 decisions
        return rounds * self.deal_size(game)

    def deal_size(self, game: MarshmallowTest) -> int:
        return HAND_SIZE * game.num_players  # MT-3.1: 12 each

    def deal(self, game: MarshmallowTest, cards: Sequence[int]) -> Deal:
        return Deal(tuple(tuple(sorted(self._hand(cards, s))) for s in range(game.num_players)))

    def dealt_to(self, game: MarshmallowTest, cards: Sequence[int], seat: int) -> list[int]:
        return sorted(self._hand(cards, seat))

    @staticmethod
    def _hand(cards: Sequence[int], seat: int) -> Sequence[int]:
        return cards[HAND_SIZE * seat : HAND_SIZE * (seat + 1)]  # seat 0 first

    def card_name(self, card: int) -> str:
        return CARD_NAMES[card]

    def hidden_json(self, state: MarshmallowState) -> dict[str, JSON]:
        players = state.game.num_players
        return {"hands": [[CARD_NAMES[c] for c in state.hand(p)] for p in range(players)]}


LAYOUT = MarshmallowLayout()
