"""The decisions of a record, each as its seat saw it.

A record is replayed through the game's rules (as ``cardtable replay`` does);
at every recorded decision of the seats asked for, the walk yields the
seat's view, the legal moves, which one was played, and a copy of the true
state. The true state serves only the hindsight evaluation, which is labelled
as such; the fair evaluation reads the view alone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass

from cardtable.core.game import Move, State, View
from cardtable.core.replay import ParsedRecord

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


def walk(parsed: ParsedRecord, seats: Collection[int] | None = None) -> Iterator[Decision]:
    """Every decision of ``seats`` (all seats when ``None``) in ``parsed``,
    a record that has already replayed without error."""
    state = parsed.game.new_state()
    index = 0
    for r, round_ in enumerate(parsed.rounds, start=1):
        state.deal(round_.deal)
        for m, (seat, move, chance) in enumerate(round_.moves, start=1):
            if seats is None or seat in seats:
                legal = tuple(state.legal_moves())
                yield Decision(
                    index=index,
                    round=r,
                    move=m,
                    seat=seat,
                    view=state.view(seat),
                    legal=legal,
                    played=_position(legal, move),
                    true_state=state.clone(),
                )
                index += 1
            state.apply_as(seat, move, **chance)


def _position(legal: tuple[Move, ...], move: Move) -> int:
    for i, candidate in enumerate(legal):
        if candidate == move or candidate.to_json() == move.to_json():
            return i
    raise ValueError(f"recorded move {move} is not among the legal moves")  # replay checked it
