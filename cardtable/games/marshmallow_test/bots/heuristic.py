"""A rule-of-thumb Marshmallow Test player that sees only its view.

The game's idea: going out scores the other players' tricks (MT-6.2) and the
last one in scores nothing (MT-7.1), so one wants to sit one trick short of
going out and take that last trick when the others hold many tricks, without
being left behind. Each decision this bot first asks "do I want this trick?"
and then plays the card that best gets (or dodges) it, keeping high cards for
the trick it will want later.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test.cards import COLOUR_OF, NUMBER_OF
from cardtable.games.marshmallow_test.moves import NameTrump, Play
from cardtable.games.marshmallow_test.tricks import card_strength
from cardtable.games.marshmallow_test.view import MarshmallowView


def keep_value(card: int, trump: int | None) -> int:
    """How useful ``card`` is to keep: its strength were it led, so trumps
    and high cards, which win tricks later, are worth most (MT-5.6)."""
    return card_strength(card, COLOUR_OF[card], trump)


class HeuristicBot:
    """Dodges tricks until the others hold many, then takes them; races when
    two are left; goes out at once when that wins the game."""

    def __init__(
        self, seat: int, game: Any, rng: random.Random, budget: Budget | None = None
    ) -> None:
        self.seat = seat
        self.game = game
        self.rng = rng  # the budget is not kept: rules of thumb answer at once

    # ------------------------------------------------------------------ decisions
    def choose(self, view: MarshmallowView, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], NameTrump):
            return self._name_trump(view, legal)
        plays = [m for m in legal if isinstance(m, Play)]
        want = self._want_trick(view)
        if view.current_trick:
            return self._follow(view, plays, want)
        return self._lead(view, plays, want)

    def _name_trump(self, view: MarshmallowView, legal: Sequence[Any]) -> Any:
        # MT-4.2: name the colour with the most and highest cards.
        def strength(colour: int) -> float:
            numbers = [NUMBER_OF[c] for c in view.hand if COLOUR_OF[c] == colour]
            return len(numbers) * 6 + sum(numbers) + self.rng.random()

        return max((m for m in legal if isinstance(m, NameTrump)), key=lambda m: strength(m.colour))

    def _want_trick(self, view: MarshmallowView) -> bool:
        me = self.seat
        need = view.tricks_to_go_out
        mine = view.trick_counts[me]
        if len(view.players_in) <= 2:
            return True  # a race: the last one in scores nothing (MT-7.1)
        others = sum(view.trick_counts) - mine  # what going out would score (MT-6.2)
        if mine == need - 1 and view.scores[me] + others >= view.target:
            return True  # going out now wins the game (MT-8.1)
        # Every trick we take feeds the others' scores and brings our own going
        # out nearer, which pays only once the others hold many tricks: take
        # the (mine+1)-th trick when they hold `patience` times that many.
        patience = 2 if view.players == 5 else 3
        return others >= patience * (mine + 1)

    # ------------------------------------------------------------------ cards
    def _lead(self, view: MarshmallowView, plays: list[Play], want: bool) -> Play:
        trump = view.trump
        if want:
            # Lead the highest card of a long non-trump colour, trumps if that is all.
            def lead_value(p: Play) -> tuple[int, int]:
                colour = COLOUR_OF[p.card]
                length = sum(1 for c in view.hand if COLOUR_OF[c] == colour)
                return (0 if colour == trump else 1, NUMBER_OF[p.card] * 2 + length)

            return max(plays, key=lead_value)
        # Dodge: lead the least useful card to keep, the lowest non-trump.
        return min(plays, key=lambda p: keep_value(p.card, trump))

    def _follow(self, view: MarshmallowView, plays: list[Play], want: bool) -> Play:
        trump = view.trump
        lead = COLOUR_OF[view.current_trick[0][1]]

        def strength(p: Play) -> int:
            return card_strength(p.card, lead, trump)  # MT-5.6

        def keep(p: Play) -> int:
            return keep_value(p.card, trump)

        best = max(card_strength(c, lead, trump) for _, c in view.current_trick)
        last = len(view.current_trick) == len(view.players_in) - 1
        winners = [p for p in plays if strength(p) > best]
        losers = [p for p in plays if strength(p) <= best]
        if want and winners:
            if last:
                return min(winners, key=strength)
            return max(winners, key=strength)
        if not want and losers:
            # Shed the most dangerous card that still loses.
            return max(losers, key=keep)
        if winners and not losers:
            # Forced to win (or to risk it): spend the highest when last, else the lowest.
            if last:
                return max(winners, key=keep)
            return min(winners, key=strength)
        # Want it but cannot win: throw the least useful card.
        return min(losers, key=keep)
