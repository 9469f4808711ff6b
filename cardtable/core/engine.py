"""The engine base of the built-in games, and the engine's answers for any state.

:class:`Engine` writes once what every game's state repeats around its rules:
the seat check of ``apply_as``, the seat check of ``view``, the assembly of
``record()`` and ``repr``. It also answers the questions callers used to
answer by trial on clones (PokerKit's ``verify_*`` do the same):
:meth:`Engine.refusal` says why a move would be refused and
:meth:`Engine.explain` judges every action of the game's action space, each
computed by the game's own non-mutating rule checks. The rules stay in the
game's rule modules; a game supplies them through the hooks below.

A plugin may implement only the bare :class:`~cardtable.core.game.State`
protocol: the free functions :func:`refusal` and :func:`explain` ask a state
that :class:`Explains` (every :class:`Engine`, or a plugin's state with both
methods) and otherwise try each move on a clone.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from cardtable.core.errors import IllegalMoveError, Refusal
from cardtable.core.game import JSON, Applied, Explanation, Game, Move, State, View
from cardtable.core.records import make_record

__all__ = [
    "NO_CHANCE",
    "Applied",
    "Engine",
    "Explains",
    "Explanation",
    "Refusal",
    "applied_by_seat",
    "explain",
    "explanation",
    "refusal",
]

#: The ``chance`` of every :class:`Applied` without chance outcomes (read-only,
#: so the shared singletons cannot be changed by a caller).
NO_CHANCE: MappingProxyType[str, JSON] = MappingProxyType({})

ViewT = TypeVar("ViewT", bound=View)


@runtime_checkable
class Explains(Protocol):
    """A state that answers :func:`refusal` and :func:`explain` itself, from
    its rules: every :class:`Engine`, and a plugin's state that has both
    methods without building on the base. Any other state is judged by
    trial on a clone."""

    def refusal(self, seat: int, move: Move) -> IllegalMoveError | None: ...

    def explain(self, seat: int) -> tuple[Explanation, ...]: ...


def explanation(move: Move, refused: Refusal | None) -> Explanation:
    """``move`` as the rules judge it: legal when ``refused`` is ``None``,
    else refused with its words, rule, key and parameters."""
    if refused is None:
        return Explanation(move, True, None, None)
    return Explanation(move, False, refused.reason, refused.rule, refused.key, refused.params)


def applied_by_seat(seats: int, moves: Sequence[Move]) -> tuple[tuple[Applied, ...], ...]:
    """``table[seat][move.index]``: the shared :class:`Applied` of each move
    of the action space ``moves`` made by each seat without chance, so an
    engine's ``apply`` returns its event without allocating."""
    return tuple(tuple(Applied(seat, move, NO_CHANCE) for move in moves) for seat in range(seats))


class Engine(ABC, Generic[ViewT]):
    """Base of a game state: the generic checks and assembly around the rules.

    A game implements the :class:`~cardtable.core.game.State` protocol's
    rules (``apply``, ``deal``, ``legal_moves``, ``clone`` and the
    queries) and these hooks:

    * :meth:`_move_refusal`: the :class:`Refusal` ``apply(move)`` would raise now;
    * :meth:`_view`: the view of a seat already checked;
    * :meth:`_rounds_json`: the record's rounds;
    * :data:`turn_rule`: the rule cited when a seat moves out of turn, and
      :meth:`_seat_refusal` where a game words that differently;
    * :meth:`_action_space`, :meth:`_explain_due` and :meth:`_repr_details`
      where the defaults are too slow or too plain.

    Subclasses keep ``__slots__``: this base adds none.
    """

    __slots__ = ()

    game: Game
    #: The rule a move out of turn breaks (``"MT-5.1"``).
    turn_rule: ClassVar[str]

    # ------------------------------------------------------------ rules hooks
    @abstractmethod
    def apply(self, move: Any, **chance: Any) -> Applied:
        """Advance by one decision; the game's rules."""

    @property
    @abstractmethod
    def to_move(self) -> int | None: ...

    @property
    @abstractmethod
    def finished(self) -> bool: ...

    @property
    @abstractmethod
    def scores(self) -> tuple[int, ...]: ...

    @property
    @abstractmethod
    def round_scores(self) -> list[list[int]]: ...

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]: ...

    @property
    @abstractmethod
    def round_number(self) -> int: ...

    @abstractmethod
    def _move_refusal(self, move: Any) -> Refusal | None:
        """Why ``apply(move)`` (without chance outcomes) would raise now, or
        ``None`` when the rules allow it; changes nothing."""

    @abstractmethod
    def _view(self, seat: int | None) -> ViewT:
        """The view of ``seat``, which :meth:`view` has checked."""

    @abstractmethod
    def _rounds_json(self) -> list[dict[str, JSON]]:
        """The record's ``rounds``: each round's deal and moves so far."""

    def _seat_refusal(self, seat: int) -> Refusal | None:
        """The seat check of :meth:`apply_as`: the refusal when a decision is
        due and it is not ``seat``'s. When no one is to move, ``apply``'s own
        errors say why (the game is over, a deal is due)."""
        to_move = self.to_move
        if to_move is None or seat == to_move:
            return None
        return Refusal(
            f"it is seat {to_move}'s turn, not seat {seat}'s",
            self.turn_rule,
            key=f"{self.turn_rule}.turn",
            params={"to_move": to_move, "seat": seat},
        )

    def _action_space(self) -> Sequence[Move]:
        """Every move of the game's action space, by index."""
        game = self.game
        return [game.move_from_index(i) for i in range(game.num_actions)]

    def _explain_due(self) -> tuple[Explanation, ...]:
        """:meth:`explain` for the seat whose decision it is (or any seat
        when no one is to move): :meth:`_move_refusal` of every action. A
        game may answer faster from what the words depend on."""
        check = self._move_refusal
        return tuple([explanation(move, check(move)) for move in self._action_space()])

    def _repr_details(self) -> str:
        """Game-specific facts for ``repr`` (``", phase take"``), or nothing."""
        return ""

    # ------------------------------------------------------------ written once
    def apply_as(self, seat: int, move: Any, **chance: Any) -> Applied:
        """:meth:`apply`, checking first that the decision is ``seat``'s."""
        refused = self._seat_refusal(seat)
        if refused is not None:
            raise IllegalMoveError.from_refusal(refused)
        return self.apply(move, **chance)

    def refusal(self, seat: int, move: Move) -> IllegalMoveError | None:
        """The :class:`IllegalMoveError` that ``apply_as(seat, move)`` would
        raise, or ``None`` when the rules allow the move; nothing is applied
        or copied. (A state without a generator still needs a chance outcome
        some legal moves draw, such as MyRummy 111's reshuffle, given to
        ``apply``.)"""
        refused = self._seat_refusal(seat)
        if refused is None:
            refused = self._move_refusal(move)
        return None if refused is None else IllegalMoveError.from_refusal(refused)

    def explain(self, seat: int) -> tuple[Explanation, ...]:
        """Every action of the game's action space, in index order, judged
        for ``seat``: legal, or refused with the reason and rule
        :meth:`refusal` gives."""
        refused = self._seat_refusal(seat)
        if refused is None:
            return self._explain_due()
        return tuple([explanation(move, refused) for move in self._action_space()])

    def view(self, seat: int | None) -> ViewT:
        """What ``seat`` may know; ``None`` is a spectator. The only door
        through which hidden cards leave the engine."""
        if seat is not None and not (
            isinstance(seat, int)
            and not isinstance(seat, bool)
            and 0 <= seat < self.game.num_players
        ):
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.game.num_players - 1}")
        return self._view(seat)

    def record(self, players: Sequence[str] | None = None) -> dict[str, JSON]:
        """This game as a ``cardtable-record/1`` document."""
        result = {
            "finished": self.finished,
            "scores": list(self.scores),
            "round_scores": self.round_scores,
            "winners": list(self.winners),
        }
        return make_record(self.game, self._rounds_json(), result, players)

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} round {self.round_number}, to move {self.to_move}, "
            f"scores {self.scores}{self._repr_details()}{', finished' if self.finished else ''}>"
        )


# ---------------------------------------------------------------- for any state
def refusal(state: State, seat: int, move: Move) -> IllegalMoveError | None:
    """Why ``state.apply_as(seat, move)`` would be refused, or ``None``: the
    state's own :meth:`Engine.refusal` when it :class:`Explains`, else a
    trial on a clone (a bare-protocol plugin)."""
    if isinstance(state, (Engine, Explains)):  # Engine first: a protocol check is slow
        return state.refusal(seat, move)
    return _trial(state, seat, move, random.Random(0))


def explain(state: State, seat: int) -> tuple[Explanation, ...]:
    """Every action of the state's game, in index order, judged for ``seat``
    (:meth:`Engine.explain`); for a bare-protocol state the seat to move's
    legal moves are legal and every other action is tried on a clone."""
    if isinstance(state, (Engine, Explains)):
        return state.explain(seat)
    game = state.game
    legal = {m.index for m in state.legal_moves()} if seat == state.to_move else set()
    scratch = random.Random(0)
    out: list[Explanation] = []
    for index in range(game.num_actions):
        move = game.move_from_index(index)
        error = None if index in legal else _trial(state, seat, move, scratch)
        out.append(explanation(move, None if error is None else _refusal_of(error)))
    return tuple(out)


def _refusal_of(error: IllegalMoveError) -> Refusal:
    """The refusal an error raised: its parameters only where it names its
    key, as a game's own hooks give them."""
    params = error.params if error.key is not None else None
    return Refusal(error.reason, error.rule, error.key, params)


def _trial(state: State, seat: int, move: Move, scratch: random.Random) -> IllegalMoveError | None:
    # The clone draws on a scratch generator: a trial that ends a round must
    # not advance the generator of the game being played.
    trial = state.clone(scratch)
    try:
        trial.apply_as(seat, move)
    except IllegalMoveError as exc:
        return exc
    return None
