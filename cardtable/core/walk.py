"""One walk over a parsed record; every consumer is a visitor of it.

A ``cardtable-record/1`` document is read once for form
(:func:`cardtable.core.replay.parse_record` gives a :class:`ParsedRecord`),
then :func:`walk` plays it through the game's rules and tells a
:class:`Visitor` what happens, in the spirit of python-chess's
``pgn.BaseVisitor``: ``cardtable replay`` (checks and the ``--trace`` lines),
the analysis (each seat's decisions) and the server's replay steps are
visitors of this one walk, so what "a record's moves in order, each applied
by the rules" means is written once.

The walk itself checks what only the rules can say about the record's
structure: no round after the game's end, no round before the last one is
complete, no move once a round or the game is over, and every move legal
(through the game's own ``apply_as``). A fault is a :class:`RuleBreakError`
handed to :meth:`Visitor.handle_error`, after which the walk ends.

>>> import random, cardtable
>>> from cardtable.core.replay import parse_record
>>> game = cardtable.load("marshmallow-test", players=3)
>>> state = game.new_game(random.Random(1))
>>> for _ in range(5):
...     _ = state.apply(state.legal_moves()[0])
>>> class CountMoves(Visitor[int]):
...     def __init__(self) -> None:
...         self.moves = 0
...     def after_move(self, move: RecordedMove, state: State) -> None:
...         self.moves += 1
...     def result(self) -> int:
...         return self.moves
>>> walk(parse_record(state.record()), CountMoves())
5
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cardtable.core.errors import CardtableError, IllegalMoveError
from cardtable.core.game import JSON, Game, Move, State

__all__ = [
    "STOP",
    "Flow",
    "ParsedRecord",
    "ParsedRound",
    "RecordedMove",
    "RuleBreakError",
    "Visitor",
    "walk",
]

T = TypeVar("T")


class RuleBreakError(CardtableError):
    """A well-formed record whose moves or result the rules do not allow.

    ``round`` and ``move`` are 1-based (``None`` where they do not apply);
    ``seat`` is the seat the record names for the offending move.
    """

    def __init__(
        self, reason: str, *, round: int | None, move: int | None, seat: int | None = None
    ) -> None:
        self.reason = reason
        self.round = round
        self.move = move
        self.seat = seat
        where = ""
        if round is not None:
            where = f"round {round}"
            if move is not None:
                where += f", move {move}"
            if seat is not None:
                where += f" (seat {seat})"
            where += ": "
        super().__init__(where + reason)


@dataclass(slots=True)
class ParsedRound:
    deal: Any
    moves: list[tuple[int, Move, Mapping[str, Any]]]  # (seat, move, chance outcomes)


@dataclass(slots=True)
class ParsedRecord:
    """A record checked for form, its parts already the game's own values."""

    game: Game
    players: list[str] | None
    rounds: list[ParsedRound]
    result: dict[str, JSON] | None


@dataclass(frozen=True, slots=True)
class RecordedMove:
    """One move of the record, and where it stands."""

    round: int  # 1-based
    move: int  # 1-based within its round, as replay's messages count
    step: int  # moves of the whole record before this one (the server's replay step)
    seat: int  # the seat the record names
    played: Move
    chance: Mapping[str, Any]  # the chance outcomes the record gives the move


class Flow(enum.Enum):
    """What :meth:`Visitor.before_move` may answer besides ``None`` (go on)."""

    STOP = "stop"  # end the walk here: the move is not applied, no hook follows


STOP = Flow.STOP


class Visitor(ABC, Generic[T]):
    """The hooks of :func:`walk`; each does nothing unless overridden.

    Hooks receive the walk's live state: a visitor that keeps a state past
    its hook keeps a ``clone()`` and never changes the one it is given.
    """

    def begin_game(self, state: State) -> None:
        """Before the first round: ``state`` is the game's, not yet dealt."""

    def begin_round(self, round: int, state: State) -> None:
        """Round ``round`` (1-based) has just been dealt."""

    def before_move(self, move: RecordedMove, state: State) -> Flow | None:
        """``move`` is next; ``state`` is the position it is played from."""
        return None

    def after_move(self, move: RecordedMove, state: State) -> None:
        """``move`` has been applied."""

    def end_round(self, round: int, state: State) -> None:
        """The record's moves of round ``round`` have all been applied (the
        round itself goes on where the record stops inside it)."""

    def end_game(self, state: State) -> None:
        """The record's last round is walked (the game may go on after it).

        May raise :class:`RuleBreakError` (a result the moves do not give);
        it goes to :meth:`handle_error` as the walk's own faults do."""

    def handle_error(self, error: RuleBreakError) -> None:
        """The record breaks a rule; the walk ends after this hook. By
        default the error propagates to :func:`walk`'s caller."""
        raise error

    @abstractmethod
    def result(self) -> T:
        """What :func:`walk` returns once the walk has ended."""


def walk(parsed: ParsedRecord, visitor: Visitor[T]) -> T:
    """Play ``parsed`` through its game's rules, telling ``visitor``; its result."""
    state = parsed.game.new_state()
    visitor.begin_game(state)
    try:
        if _walk_rounds(parsed, state, visitor) is STOP:
            return visitor.result()
        visitor.end_game(state)
    except RuleBreakError as exc:
        visitor.handle_error(exc)
    return visitor.result()


def _walk_rounds(parsed: ParsedRecord, state: State, visitor: Visitor[Any]) -> Flow | None:
    step = 0
    for r, round_ in enumerate(parsed.rounds, start=1):
        if state.finished:
            raise RuleBreakError(
                f"the game ended in round {r - 1}; no round may follow it", round=r, move=None
            )
        if not state.awaiting_deal:
            raise RuleBreakError(
                f"round {r - 1} is not complete: seat {state.to_move} is still to move,"
                " so no new round may start",
                round=r - 1,
                move=None,
            )
        state.deal(round_.deal)
        visitor.begin_round(r, state)
        for m, (seat, played, chance) in enumerate(round_.moves, start=1):
            over = _over(state)
            if over:
                raise RuleBreakError(f"{over}; no move may follow", round=r, move=m, seat=seat)
            move = RecordedMove(r, m, step, seat, played, chance)
            if visitor.before_move(move, state) is STOP:
                return STOP
            try:
                # Nothing here reads what apply_as returns: the record is the truth.
                state.apply_as(seat, played, **chance)
            except IllegalMoveError as exc:
                raise RuleBreakError(str(exc), round=r, move=m, seat=seat) from None
            step += 1
            visitor.after_move(move, state)
        visitor.end_round(r, state)
    return None


def _over(state: State) -> str | None:
    """Why no move can come now, if none can."""
    if state.finished:
        return "the game is over"
    if state.awaiting_deal:
        return "the round is over"
    return None
