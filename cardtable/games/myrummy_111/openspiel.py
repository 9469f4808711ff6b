"""MyRummy 111 as a pyspiel game: the layout the OpenSpiel adapter reads.

Named by the manifest's ``openspiel``; imports no pyspiel (the adapter does).
Parameters are the options of MR-9; pyspiel holds no lists, so ``hand_sizes``
is a string of sizes (``"12/13/12"``; ``""`` = the default for the player
count) and ``symbols`` a string of 110 digits 1-4 (``""`` = the default deck),
and ``rounds``/``turn_limit`` are ``0`` for off.

A deal draws all 110 cards, each outcome ``card - 2``: each hand left to right
(MR-3.1 "the order dealt"), the three middle slots, then the draw pile top
first. A refresh that needs MR-4.6 reshuffles the discard pile (with the
middle) inside the take: the adapter holds the take while chance draws the
new order card by card, top first.

Length: every round pays each non-declarer at least 2 (a run of two cards),
so a game has at most ``rounds`` or ``ceil(target·n / (2(n-1)))`` rounds; a
round is bounded by ``turn_limit`` (2 decisions a turn) or, when that is off,
by :data:`TURN_CAP` turns: only a game in which nobody declares for that long
is stopped by the automatic ``max_moves``. The largest return is ``target - 1``
(or ``rounds - 1`` rounds) plus the best possible round.

>>> LAYOUT.short_name, len(LAYOUT.deck), LAYOUT.deck[0]
('python_cardtable_myrummy_111', 110, 2)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.adapters.openspiel_layout import BaseLayout, Param, split_ints
from cardtable.core.game import JSON
from cardtable.games.myrummy_111.cards import CARDS
from cardtable.games.myrummy_111.codec import Deal, deal_from_cards
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.moves import Move, Take
from cardtable.games.myrummy_111.scoring import max_round_points
from cardtable.games.myrummy_111.state import MyRummyState

__all__ = ["LAYOUT", "MyRummyLayout"]

TURN_CAP = 500  # turns per round when turn_limit is off (the adapter's bound)


class MyRummyLayout(BaseLayout):
    short_name = "python_cardtable_myrummy_111"
    long_name = "cardtable MyRummy 111"
    parameters: Mapping[str, Param] = {
        "players": 2,
        "hand_sizes": "",
        "target": 60,
        "rounds": 0,
        "turn_limit": 0,
        "symbols": "",
        "first_player": 0,
    }
    deck: tuple[int, ...] = CARDS

    def options(self, params: Mapping[str, Param]) -> dict[str, Any]:
        hand_sizes, symbols = str(params["hand_sizes"]), str(params["symbols"])
        return {
            "players": params["players"],
            "hand_sizes": split_ints(hand_sizes, "hand_sizes") if hand_sizes else None,
            "target": params["target"],
            "rounds": params["rounds"] or None,
            "turn_limit": params["turn_limit"] or None,
            "symbols": split_ints(symbols, "symbols", digits=True) if symbols else None,
            "first_player": params["first_player"],
        }

    def parameters_of(self, game: MyRummy111) -> dict[str, Param]:
        opts = game.options
        default = MyRummy111(players=opts.players).options
        return {
            "players": opts.players,
            "hand_sizes": "" if opts.hand_sizes == default.hand_sizes else _sizes(game),
            "target": opts.target,
            "rounds": opts.rounds or 0,
            "turn_limit": opts.turn_limit or 0,
            "symbols": "" if opts.symbols == default.symbols else _digits(game),
            "first_player": opts.first_player,
        }

    def canonical(self, params: Mapping[str, Param], game: MyRummy111) -> dict[str, Param]:
        """Separators that survive OpenSpiel's ``name(a=1,b=2)`` syntax: no commas."""
        out = dict(params)
        out["hand_sizes"] = _sizes(game) if params["hand_sizes"] else ""
        out["symbols"] = _digits(game) if params["symbols"] else ""
        return out

    def max_utility(self, game: MyRummy111) -> int:
        opts = game.options
        best = _best_round(game)
        if opts.rounds is not None:
            return opts.rounds * best
        return opts.target - 1 + best

    def auto_max_moves(self, game: MyRummy111) -> int:
        # Two decisions a turn; a round lasts at most turn_limit (or TURN_CAP) turns.
        return _rounds_bound(game) * 2 * (game.options.turn_limit or TURN_CAP)

    def max_chance_nodes(self, game: MyRummy111, max_moves: int) -> int:
        # Each round's deal, plus reshuffles: at most one per 3 turns' refresh.
        turns = max_moves // 2
        return (_rounds_bound(game) + turns // 3 + 1) * len(CARDS)

    def deal_size(self, game: MyRummy111) -> int:
        return len(CARDS)

    def deal(self, game: MyRummy111, cards: Sequence[int]) -> Deal:
        return deal_from_cards(list(cards), game.options.hand_sizes)

    def dealt_to(self, game: MyRummy111, cards: Sequence[int], seat: int) -> list[int]:
        sizes = game.options.hand_sizes
        start = sum(sizes[:seat])
        return list(cards[start : start + sizes[seat]])

    def reshuffle_before(self, state: MyRummyState, move: Move) -> tuple[int, ...] | None:
        middle = state.middle
        if isinstance(move, Take) and move.refresh and len(state.draw_pile) < len(middle):
            # MR-4.6: the refresh turns the discard pile (the middle on top) into the draw pile.
            return tuple(sorted((*state.discard_pile, *(c for c in middle if c is not None))))
        return None

    def apply_reshuffled(self, state: MyRummyState, move: Move, order: tuple[int, ...]) -> None:
        state.apply(move, reshuffle=order)

    def hidden_json(self, state: MyRummyState) -> dict[str, JSON]:
        return {
            "hands": [list(h) for h in state.hands],
            "middle_cards": list(state.middle),
            "draw": list(state.draw_pile),
        }


def _sizes(game: MyRummy111) -> str:
    return "/".join(map(str, game.options.hand_sizes))


def _digits(game: MyRummy111) -> str:
    return "".join(map(str, game.options.symbols))


def _rounds_bound(game: MyRummy111) -> int:
    """MR-6.3: every round pays each non-declarer at least 2 (a run of two
    cards), so a game ends within this many rounds."""
    opts, n = game.options, game.num_players
    if opts.rounds is not None:
        return opts.rounds
    return math.ceil(opts.target * n / (2 * (n - 1)))


def _best_round(game: MyRummy111) -> int:
    """The most one round can pay (MR-6.2: a sorted declaration of the cards
    with the most symbols), from the rules' own scoring."""
    opts = game.options
    return max_round_points(opts.symbols, max(opts.hand_sizes))


LAYOUT = MyRummyLayout()
