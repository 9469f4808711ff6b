"""A puzzle solution's idea in Marshmallow Test's words (``puzzle_theme``).

Read from the view of the seat to move and the solution alone, as the
puzzle is: whether the card takes the trick can be told for certain only by
the trick's last player, so earlier in a trick the theme says what the card
does to the trick so far. Each theme is a :class:`Phrase`: English, and the
key of the board's catalog (``theme.*``) with the card or colour, for a page
in another language.
"""

from __future__ import annotations

from cardtable.core.game import Move, View
from cardtable.core.phrase import Phrase
from cardtable.games.marshmallow_test.cards import CARD_NAMES, COLOUR_NAMES, COLOUR_OF
from cardtable.games.marshmallow_test.moves import NameTrump, Play
from cardtable.games.marshmallow_test.tricks import card_strength
from cardtable.games.marshmallow_test.view import MarshmallowView

__all__ = ["theme"]


def theme(view: View, move: Move) -> tuple[Phrase, str | None]:
    """``(theme, rule)`` for playing ``move`` from ``view``."""
    assert isinstance(view, MarshmallowView) and view.seat is not None
    if isinstance(move, NameTrump):
        colour = COLOUR_NAMES[move.colour]
        return Phrase(f"name {colour} as trump", "theme.nameTrump", {"trump": colour}), "MT-4.2"
    assert isinstance(move, Play)
    card = CARD_NAMES[move.card]

    def said(text: str, key: str) -> Phrase:
        return Phrase(text, f"theme.{key}", {"card": card})

    lead = view.lead_colour
    if lead is None:
        return said(f"lead the {card}", "lead"), "MT-5.2"
    winning = view.winning_card()
    assert winning is not None
    beats = card_strength(move.card, lead, view.trump) > card_strength(winning[1], lead, view.trump)
    last = len(view.current_trick) == len(view.players_in) - 1
    if beats and last and view.trick_counts[view.seat] + 1 == view.tricks_to_go_out:
        if len(view.players_in) == 2:
            return said(
                f"go out now with the {card}: the last player scores nothing", "goOutLast"
            ), "MT-7.1"
        return said(f"go out now with the {card}", "goOut"), "MT-6.2"
    if COLOUR_OF[move.card] not in (lead, view.trump):
        return said(f"throw off the {card}", "throwOff"), "MT-5.3"
    if beats and COLOUR_OF[move.card] == view.trump and lead != view.trump:
        return said(f"trump in with the {card}", "trumpIn"), "MT-5.4"
    if beats:
        if last:
            return said(f"take the trick with the {card}", "take"), "MT-5.6"
        return said(f"play over with the {card}", "playOver"), "MT-5.6"
    return said(f"duck under the trick with the {card}", "duck"), "MT-5.6"
