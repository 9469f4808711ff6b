"""The surface every game offers, written down as protocols.

Generic code (records, replay, the terminal, bots, arena, adapters) talks to a
game only through these names, so each game is free in its internals. A game
is a sub-package of :mod:`cardtable.games` with a class implementing
:class:`Game`; its states implement :class:`State`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, runtime_checkable

from cardtable.core.errors import RefusalParam

JSON = Any  # a value that json.dumps accepts


@runtime_checkable
class Move(Protocol):
    """An immutable decision. ``index`` is its stable integer in the game's
    fixed action space (``0 <= index < Game.num_actions``)."""

    @property
    def index(self) -> int: ...

    def to_json(self) -> dict[str, JSON]:
        """The move as written in a record, without ``seat``."""
        ...


class Dealt(Protocol):
    """A deal as a game holds it: an immutable value that writes itself as
    the record's ``deal``."""

    def to_json(self) -> dict[str, JSON]: ...


@dataclass(frozen=True, slots=True)
class Applied:
    """What one :meth:`State.apply` appended to the game's record: the event a
    journal stores, so nobody diffs a rebuilt record to find it.

    Engines hand out shared singletons for the common case (a move without
    chance and no deal after it), so building one costs nothing on the hot
    path; the JSON is made only when :meth:`move_json` asks.
    """

    seat: int  # who made the move
    move: Move
    chance: Mapping[str, JSON]  # chance outcomes recorded with the move, {} if none
    # The deal this move's round end drew from the state's own generator, else
    # None. Kept as the game's deal value and written as JSON only by
    # events(): a playout that ends many rounds never pays for the JSON.
    deal: Dealt | None = None

    def move_json(self) -> dict[str, JSON]:
        """The move exactly as ``record()`` writes it: seat, move fields, chance."""
        return {"seat": self.seat, **self.move.to_json(), **self.chance}

    def events(self) -> list[tuple[str, dict[str, JSON]]]:
        """The record's new events in order: the move, then the deal if one followed."""
        if self.deal is None:
            return [("move", self.move_json())]
        return [("move", self.move_json()), ("deal", self.deal.to_json())]


class Explanation(NamedTuple):
    """One action of a seat's action space, as the rules judge it now: legal,
    or refused with the words and rule :class:`~cardtable.core.errors.IllegalMoveError`
    would carry (``reason``/``rule`` are ``None`` for a legal move).
    Its ``params`` are shared between answers: read them, never change them.

    A named tuple rather than a frozen dataclass: the server asks for a whole
    action space per move, and a tuple is built several times faster.
    """

    move: Move
    legal: bool
    reason: str | None
    rule: str | None
    #: The refusal's stable name and facts for a reader in any language
    #: (:class:`~cardtable.core.errors.IllegalMoveError`'s ``key`` and
    #: ``params``); ``None`` for a legal move or a refusal that gives none.
    key: str | None = None
    params: Mapping[str, RefusalParam] | None = None


class View(Protocol):
    """What one seat (or a spectator, seat ``None``) may know. A plain value:
    equal information compares equal, and it round-trips through JSON."""

    def to_json(self) -> dict[str, JSON]: ...


class State(Protocol):
    """A game in progress, changed only by :meth:`apply` (and :meth:`deal`).

    The built-in games build on :class:`cardtable.core.engine.Engine`, which
    also answers ``refusal(seat, move)`` and ``explain(seat)``; a plugin may
    implement only this protocol (callers then use the fallbacks of
    :mod:`cardtable.core.engine`).
    """

    game: Game

    @property
    def finished(self) -> bool: ...

    @property
    def to_move(self) -> int | None:
        """The seat that decides next; ``None`` when finished or awaiting a deal."""
        ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def round_scores(self) -> list[list[int]]: ...

    @property
    def winners(self) -> tuple[int, ...]:
        """Empty until the game is finished."""
        ...

    @property
    def round_number(self) -> int:
        """1-based number of the current (or last) round."""
        ...

    @property
    def moves_in_round(self) -> int:
        """How many moves the current round has had."""
        ...

    @property
    def awaiting_deal(self) -> bool:
        """True when a round must be dealt and the state has no generator."""
        ...

    def deal(self, deal: Any = None) -> JSON | None:
        """Deal the next round from an explicit deal (as parsed from a record),
        or with ``None`` from the state's own generator; returns the deal as
        the record writes it (a bare-protocol plugin may return ``None``)."""
        ...

    def legal_moves(self) -> Sequence[Move]: ...

    def apply(self, move: Any, **chance: Any) -> Applied | None:
        """Advance by one decision; raises IllegalMoveError citing the rule.

        ``chance`` carries recorded chance outcomes where a game has them
        inside a round (MyRummy 111's ``reshuffle``). Returns the
        :class:`Applied` event it appended to the record (the move with the
        chance drawn, and the next deal if the round ended and the state
        dealt it); a bare-protocol plugin may return ``None``, and callers
        then read the new events from :meth:`record`."""
        ...

    def apply_as(self, seat: int, move: Any, **chance: Any) -> Applied | None:
        """:meth:`apply`, after checking that it is ``seat``'s decision."""
        ...

    def view(self, seat: int | None) -> View: ...

    def clone(self, rng: random.Random | None = None) -> State: ...

    def record(self, players: Sequence[str] | None = None) -> dict[str, JSON]: ...


class Game(Protocol):
    """A game with fixed options: the factory of states and the record codec.

    A game may also declare its length, ``max_decisions()``
    (:class:`BoundedGame`): the loops that play whole games or rounds
    (playouts, the arena, the balance lab) read it through
    :func:`max_decisions`, and a game without it gets each loop's own
    generous guard instead.
    """

    name: str
    num_players: int
    num_actions: int

    @property
    def options_json(self) -> dict[str, JSON]:
        """The options as written in a record (every option, defaults included)."""
        ...

    def new_game(self, rng: random.Random) -> State:
        """A new game whose deals and shuffles draw only on ``rng``."""
        ...

    def new_state(self, rng: random.Random | None = None) -> State:
        """A new game; without ``rng`` it awaits an explicit :meth:`State.deal`."""
        ...

    def move_from_index(self, index: int) -> Move: ...

    def parse_move(self, text: str) -> Move:
        """A move from the terminal's notation; raises ValueError explaining why not."""
        ...

    def deal_from_json(self, obj: JSON, where: str) -> Any:
        """Parse and check a record's ``deal``; raises RecordError at ``where``."""
        ...

    def move_from_json(self, obj: JSON, where: str) -> tuple[int, Move, Mapping[str, Any]]:
        """Parse a record's move into (seat, move, chance outcomes for apply)."""
        ...

    def view_from_json(self, obj: JSON) -> View: ...


@runtime_checkable
class BoundedGame(Protocol):
    """A :class:`Game` that declares its length, as OpenSpiel's
    ``GameInfo.max_game_length`` does.

    ``max_decisions()`` is an upper bound on the decisions (``apply`` calls;
    deals and recorded chance are not decisions) one whole game with these
    options takes, derived from the rules: a game still unfinished after that
    many is a bug in its rules or in its bound. Where the rules put no bound
    on a game (nobody has to end a round), the bound is the one the rules
    imply in practice, written down with its argument in the game's method.
    Optional: a plugin written without it keeps working (:func:`max_decisions`).
    """

    def max_decisions(self) -> int: ...


def max_decisions(game: Game) -> int | None:
    """The most decisions one whole game of ``game`` takes, as the game
    declares it (:class:`BoundedGame`); ``None`` when it declares none, and
    the caller then keeps its own generous guard (a plugin written before the
    method existed plays as it did).

    >>> class Plain: ...
    >>> max_decisions(Plain()) is None  # type: ignore[arg-type]
    True
    """
    declare = getattr(game, "max_decisions", None)
    if declare is None:
        return None
    bound = declare()
    if type(bound) is not int or bound < 1:
        raise TypeError(f"{game.name}: max_decisions() must be a positive int, got {bound!r}")
    return bound


class GameTooLongError(RuntimeError):
    """A game still unfinished after ``bound`` decisions. With ``declared``
    the bound is the game's own :meth:`BoundedGame.max_decisions`, so the game
    broke its own rules' bound: a bug in the game (its rules or its bound);
    else it is the caller's guard for a game that declares none.

    Carries its facts and pickles to an equal error (arena workers send it
    back to their parent).

    >>> err = GameTooLongError("nim", {"heaps": 3}, 40)
    >>> print(err)  # doctest: +NORMALIZE_WHITESPACE
    nim {"heaps":3}: no end after 40 decisions, the most the game declares
    (max_decisions()): a bug in its rules or in its bound
    >>> import pickle; str(pickle.loads(pickle.dumps(err))) == str(err)
    True
    """

    def __init__(
        self, game: str, options: Mapping[str, JSON], bound: int, declared: bool = True
    ) -> None:
        self.game = game
        self.options = dict(options)
        self.bound = bound
        self.declared = declared
        shown = json.dumps(self.options, separators=(",", ":"))
        why = (
            "the most the game declares (max_decisions()): a bug in its rules or in its bound"
            if declared
            else "a guard for a game that declares no max_decisions()"
        )
        super().__init__(f"{game} {shown}: no end after {bound} decisions, {why}")

    @classmethod
    def of(cls, game: Game, bound: int, declared: bool = True) -> GameTooLongError:
        """The error for ``game`` with its name and options."""
        return cls(game.name, game.options_json, bound, declared)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.game, self.options, self.bound, self.declared))
