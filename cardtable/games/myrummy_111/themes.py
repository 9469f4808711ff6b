"""A puzzle solution's idea in MyRummy 111's words (``puzzle_theme``)."""

from __future__ import annotations

from cardtable.core.game import Move, View
from cardtable.games.myrummy_111.moves import Place, Take
from cardtable.games.myrummy_111.view import MyRummyView

__all__ = ["theme"]


def theme(view: View, move: Move) -> tuple[str, str | None]:
    """``(theme, rule)`` for making ``move`` from ``view``."""
    assert isinstance(view, MyRummyView)
    if isinstance(move, Take):
        if move.refresh:
            return "refresh the middle", "MR-4.1"
        card = view.middle[move.slot]
        if card is None:
            return f"take the face-down card in slot {move.slot}", "MR-4.2"
        return f"take the face-up {card}", "MR-4.2"
    assert isinstance(move, Place)
    if move.declare:
        return "declare now", "MR-4.5"
    card = view.taken_card
    if move.discard == "far":
        end = "left" if move.position == 0 else "right"
        return f"put the {card} at the {end} end and discard the far end", "MR-4.4"
    return f"put the {card} at position {move.position}, discard {move.discard}", "MR-4.4"
