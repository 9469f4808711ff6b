"""A puzzle solution's idea in MyRummy 111's words (``puzzle_theme``).

Each theme is a :class:`Phrase`: English, and the key of the board's catalog
(``theme.*``) with the card, slot and position, for a page in another
language. Slots are counted from 1, as the board's log counts them;
positions are the gaps' numbers the board shows (0 before the first card).
"""

from __future__ import annotations

from cardtable.core.game import Move, View
from cardtable.core.phrase import Phrase
from cardtable.games.myrummy_111.moves import Place, Take
from cardtable.games.myrummy_111.view import MyRummyView

__all__ = ["theme"]


def theme(view: View, move: Move) -> tuple[Phrase, str | None]:
    """``(theme, rule)`` for making ``move`` from ``view``."""
    assert isinstance(view, MyRummyView)
    if isinstance(move, Take):
        if move.refresh:
            return Phrase("refresh the middle", "theme.refresh", {}), "MR-4.1"
        face_up = view.middle[move.slot]
        if face_up is None:
            slot = move.slot + 1
            return Phrase(
                f"take the face-down card in slot {slot}", "theme.takeDown", {"slot": slot}
            ), "MR-4.2"
        card = str(face_up)
        return Phrase(f"take the face-up {card}", "theme.takeUp", {"card": card}), "MR-4.2"
    assert isinstance(move, Place)
    if move.declare:
        return Phrase("declare now", "theme.declare", {}), "MR-4.5"
    taken = str(view.taken_card)
    if move.discard == "far":
        end = "left" if move.position == 0 else "right"
        return Phrase(
            f"put the {taken} at the {end} end and discard the far end",
            f"theme.placeFar.{end}",
            {"card": taken},
        ), "MR-4.4"
    return Phrase(
        f"put the {taken} at position {move.position} and discard its {move.discard} neighbour",
        f"theme.place.{move.discard}",
        {"card": taken, "position": move.position},
    ), "MR-4.4"
