"""The decisions of a record, each as its seat saw it.

A record is walked through the game's rules by the one record walk
(:mod:`cardtable.core.walk`, the walk ``cardtable replay`` makes too);
at every recorded decision of the seats asked for, this visitor keeps the
seat's view, the legal moves, which one was played, and a copy of the true
state. The true state serves only the hindsight evaluation, which is labelled
as such; the fair evaluation reads the view alone.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from cardtable.core.game import Move, State, View
from cardtable.core.walk import ParsedRecord, RecordedMove, Visitor
from cardtable.core.walk import walk as walk_record

__all__ = ["Decision", "walk"]


@dataclass(frozen=True, slots=True)
class Decision:
    """One recorded decision; ``round`` and ``move`` are 1-based as in ``replay``."""

    index: int  # position among the decisions walked
    round: int
    move: int
    seat: int
    view: View
    legal: tuple[Move, ...]
    played: int  # index into ``legal``
    true_state: State  # before the move: for hindsight only

    @property
    def forced(self) -> bool:
        return len(self.legal) == 1


def walk(parsed: ParsedRecord, seats: Collection[int] | None = None) -> list[Decision]:
    """Every decision of ``seats`` (all seats when ``None``) in ``parsed``,
    a record that has already replayed without error (a rule break raises)."""
    return walk_record(parsed, _Decisions(seats))


class _Decisions(Visitor[list[Decision]]):
    """Collects each wanted seat's decision as the one record walk reaches it."""

    def __init__(self, seats: Collection[int] | None) -> None:
        self.seats = seats
        self.decisions: list[Decision] = []

    def before_move(self, move: RecordedMove, state: State) -> None:
        if self.seats is not None and move.seat not in self.seats:
            return
        legal = tuple(state.legal_moves())
        self.decisions.append(
            Decision(
                index=len(self.decisions),
                round=move.round,
                move=move.move,
                seat=move.seat,
                view=state.view(move.seat),
                legal=legal,
                played=_position(legal, move.played),
                true_state=state.clone(),
            )
        )

    def result(self) -> list[Decision]:
        return self.decisions


def _position(legal: tuple[Move, ...], move: Move) -> int:
    for i, candidate in enumerate(legal):
        if candidate == move or candidate.to_json() == move.to_json():
            return i
    raise ValueError(f"recorded move {move} is not among the legal moves")  # replay checked it
