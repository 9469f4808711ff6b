"""What a game tells the OpenSpiel adapter: its layout as a pyspiel game.

:mod:`cardtable.adapters.openspiel` knows no game. It registers one pyspiel
game for each registered game whose manifest names an ``openspiel`` layout
(``"module:attr"``, an object with the attributes and methods of
:class:`OpenSpielLayout`), and asks that layout everything particular to the
game:

- **names and parameters**: the pyspiel short and long names, the parameters
  with their defaults (pyspiel parameters hold only ints, floats, bools and
  strings), how parameters become ``cardtable.load`` options and back, and
  the canonical form the game string writes;
- **sizes**: the largest return, the automatic bound on decisions, the most
  chance nodes a history can hold;
- **chance**: the deck (chance outcome ``i`` deals card ``deck[i]``, one card
  per chance node, uniform over the cards not yet drawn), how many cards a
  deal draws, how the drawn cards become the state's ``deal``, which of them a
  seat already holds while the deal is in progress; and, for games that
  reshuffle inside a move (a discard pile turned into the draw pile, say),
  which cards a move must have reshuffled before it applies and how it
  applies with their order;
- **strings**: a card's name (in chance action strings) and the hidden cards
  of a state as JSON (OpenSpiel's privileged ``str(state)``).

Everything else (chance nodes, information states, observers, returns,
length, serialization) is the adapter's, the same for every game.
:class:`BaseLayout` holds the defaults: no reshuffles inside moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from cardtable.core.game import JSON, Game, Move, State

__all__ = ["BaseLayout", "OpenSpielLayout", "Param", "split_ints"]

Param = int | float | bool | str  # what a pyspiel parameter may hold


class OpenSpielLayout(Protocol):
    """One game as a pyspiel game (see the module doc)."""

    short_name: str  # ``pyspiel.load_game`` name, e.g. ``"python_cardtable_<game>"``
    long_name: str
    parameters: Mapping[str, Param]  # every parameter with its default (``max_moves`` is added)
    deck: tuple[int, ...]  # engine cards in outcome order: outcome ``i`` is card ``deck[i]``

    def options(self, params: Mapping[str, Param]) -> dict[str, Any]:
        """The ``cardtable.load`` options for ``params`` (every parameter given)."""
        ...

    def parameters_of(self, game: Game) -> dict[str, Param]:
        """The parameters that load ``game`` (the inverse of :meth:`options`)."""
        ...

    def canonical(self, params: Mapping[str, Param], game: Game) -> dict[str, Param]:
        """``params`` as the game string writes them (so that it parses back)."""
        ...

    def max_utility(self, game: Game) -> int:
        """The largest final score possible (the smallest is 0)."""
        ...

    def auto_max_moves(self, game: Game) -> int:
        """The bound on decisions for ``max_moves=0``."""
        ...

    def max_chance_nodes(self, game: Game, max_moves: int) -> int:
        """The most chance nodes a history of at most ``max_moves`` decisions holds."""
        ...

    def deal_size(self, game: Game) -> int:
        """How many cards (chance nodes) one deal draws."""
        ...

    def deal(self, game: Game, cards: Sequence[int]) -> Any:
        """The argument of ``State.deal`` for ``cards``, in the order drawn."""
        ...

    def dealt_to(self, game: Game, cards: Sequence[int], seat: int) -> list[int]:
        """The cards of a deal in progress (``cards``, in order) that ``seat`` holds."""
        ...

    def reshuffle_before(self, state: State, move: Move) -> tuple[int, ...] | None:
        """The cards chance must put in a new order before ``move`` applies
        (``None``: the move applies at once)."""
        ...

    def apply_reshuffled(self, state: State, move: Move, order: tuple[int, ...]) -> None:
        """Apply ``move``, its reshuffled cards coming out in ``order``."""
        ...

    def card_name(self, card: int) -> str: ...

    def hidden_json(self, state: State) -> dict[str, JSON]:
        """Every card the views hide (for OpenSpiel's ``str(state)``)."""
        ...


class BaseLayout:
    """Defaults for a layout: moves never reshuffle, cards are named by number."""

    def reshuffle_before(self, state: Any, move: Any) -> tuple[int, ...] | None:
        return None

    def apply_reshuffled(self, state: Any, move: Any, order: tuple[int, ...]) -> None:
        raise NotImplementedError("this game has no reshuffles inside a move")

    def card_name(self, card: int) -> str:
        return str(card)


def split_ints(text: str, name: str, *, digits: bool = False) -> list[int]:
    """A parameter string of integers as a list: commas, spaces, ``/`` or ``;``
    separate them; with ``digits``, one word is read digit by digit.

    >>> split_ints("12, 13/14", "hand_sizes"), split_ints("1234", "symbols", digits=True)
    ([12, 13, 14], [1, 2, 3, 4])
    """
    words = text.replace(",", " ").replace("/", " ").replace(";", " ").split()
    if len(words) == 1 and digits:
        words = list(words[0])
    try:
        return [int(w) for w in words]
    except ValueError:
        raise ValueError(f"{name}: {text!r} is not a list of integers") from None
