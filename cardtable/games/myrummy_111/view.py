"""What one seat (or a spectator) may know of a MyRummy 111 game (MR-5, MR-8).

:func:`build_view` is the only door for hidden cards. A seat sees its own hand
(and the card it has just taken); everyone sees the face-up middle cards, the
discard pile, the hand sizes and the public history of the round, from which
``known`` follows: for each seat, the cards it took face up at their current
positions (``None`` where unknown), tracked through later exchanges (MR-8).
A face-down card taken appears only in its taker's ``hand``/``taken_card``;
the draw pile never appears.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardtable.games.myrummy_111.moves import Take
from cardtable.games.myrummy_111.options import Options, make_options

if TYPE_CHECKING:
    from cardtable.games.myrummy_111.state import MyRummyState


@dataclass(frozen=True, slots=True)
class TakeEvent:
    """A public take: ``card`` only if it was face up (MR-5.1)."""

    seat: int
    slot: int
    refresh: bool
    card: int | None
    reshuffled: bool = False  # the refresh needed MR-4.6

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "take": self.slot,
            "refresh": self.refresh,
            "card": self.card,
            "reshuffled": self.reshuffled,
        }


@dataclass(frozen=True, slots=True)
class PlaceEvent:
    """A public placement: insertion position, discard side, the discarded card."""

    seat: int
    position: int
    discard: str
    card: int
    declare: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "place": self.position,
            "discard": self.discard,
            "card": self.card,
            "declare": self.declare,
        }


Event = TakeEvent | PlaceEvent


@dataclass(frozen=True, slots=True)
class MyRummyView:
    """MR-5 for ``seat`` (``None``: a spectator). Piles are listed top first;
    ``middle`` shows face-up cards, ``None`` for a face-down or taken slot."""

    seat: int | None
    options: Options
    round_number: int
    start_player: int
    to_move: int | None
    phase: str | None
    hand: tuple[int, ...] | None
    taken_card: int | None
    taken_slot: int | None
    middle: tuple[int | None, ...]
    discard_pile: tuple[int, ...]
    draw_size: int
    hand_sizes: tuple[int, ...]
    history: tuple[Event, ...]
    known: tuple[tuple[int | None, ...], ...]
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    moves_in_round: int
    turns_in_round: int
    awaiting_deal: bool
    finished: bool
    winners: tuple[int, ...]

    @property
    def discard_size(self) -> int:
        return len(self.discard_pile)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "options": self.options.to_json(),
            "round": self.round_number,
            "start_player": self.start_player,
            "to_move": self.to_move,
            "phase": self.phase,
            "hand": None if self.hand is None else list(self.hand),
            "taken_card": self.taken_card,
            "taken_slot": self.taken_slot,
            "middle": list(self.middle),
            "discard_pile": list(self.discard_pile),
            "draw_size": self.draw_size,
            "hand_sizes": list(self.hand_sizes),
            "history": [e.to_json() for e in self.history],
            "known": [list(k) for k in self.known],
            "scores": list(self.scores),
            "round_scores": [list(r) for r in self.round_scores],
            "moves_in_round": self.moves_in_round,
            "turns_in_round": self.turns_in_round,
            "awaiting_deal": self.awaiting_deal,
            "finished": self.finished,
            "winners": list(self.winners),
        }


def view_from_json(obj: dict[str, Any]) -> MyRummyView:
    """Inverse of :meth:`MyRummyView.to_json` (trusted input, e.g. server messages)."""
    events: list[Event] = []
    for e in obj["history"]:
        if "take" in e:
            events.append(TakeEvent(e["seat"], e["take"], e["refresh"], e["card"], e["reshuffled"]))
        else:
            events.append(PlaceEvent(e["seat"], e["place"], e["discard"], e["card"], e["declare"]))
    hand = obj["hand"]
    return MyRummyView(
        seat=obj["seat"],
        options=make_options(**obj["options"]),
        round_number=obj["round"],
        start_player=obj["start_player"],
        to_move=obj["to_move"],
        phase=obj["phase"],
        hand=None if hand is None else tuple(hand),
        taken_card=obj["taken_card"],
        taken_slot=obj["taken_slot"],
        middle=tuple(obj["middle"]),
        discard_pile=tuple(obj["discard_pile"]),
        draw_size=obj["draw_size"],
        hand_sizes=tuple(obj["hand_sizes"]),
        history=tuple(events),
        known=tuple(tuple(k) for k in obj["known"]),
        scores=tuple(obj["scores"]),
        round_scores=tuple(tuple(r) for r in obj["round_scores"]),
        moves_in_round=obj["moves_in_round"],
        turns_in_round=obj["turns_in_round"],
        awaiting_deal=obj["awaiting_deal"],
        finished=obj["finished"],
        winners=tuple(obj["winners"]),
    )


def public_history(state: MyRummyState) -> tuple[Event, ...]:
    """MR-5.1: every action of the round, hiding face-down cards taken."""
    events: list[Event] = []
    for seat, move, card, extra in state.history():
        if isinstance(move, Take):
            up = extra is True
            events.append(
                TakeEvent(
                    seat, move.slot, move.refresh, card if up else None, isinstance(extra, tuple)
                )
            )
        else:
            events.append(PlaceEvent(seat, move.position, move.discard, card, move.declare))
    return tuple(events)


def track_known(
    hand_sizes: tuple[int, ...], history: tuple[Event, ...]
) -> tuple[tuple[int | None, ...], ...]:
    """MR-8: each hand as the public history reveals it (``None`` = unknown)."""
    known: list[list[int | None]] = [[None] * h for h in hand_sizes]
    pending: int | None = None
    for e in history:
        if isinstance(e, TakeEvent):
            pending = e.card
            continue
        k = known[e.seat]
        p = e.position
        if e.discard == "left":
            k[p - 1] = pending
        elif e.discard == "right":
            k[p] = pending
        elif p == 0:
            k.pop()
            k.insert(0, pending)
        else:
            k.pop(0)
            k.append(pending)
    return tuple(tuple(k) for k in known)


def build_view(state: MyRummyState, seat: int | None) -> MyRummyView:
    """The view of ``seat`` (``None``: spectator), built from public facts plus
    that seat's own hand."""
    opts = state.options
    if seat is not None and not (type(seat) is int and 0 <= seat < opts.players):
        raise ValueError(f"seat must be 0–{opts.players - 1} or None, got {seat!r}")
    up = state.middle_face_up
    middle = tuple(c if up[s] else None for s, c in enumerate(state.middle))
    history = public_history(state)
    hand = None if seat is None else state.hands[seat]
    own_take = seat is not None and seat == state.to_move and state.phase == "place"
    return MyRummyView(
        seat=seat,
        options=opts,
        round_number=state.round_number,
        start_player=state.start_player,
        to_move=state.to_move,
        phase=state.phase,
        hand=hand,
        taken_card=state.taken_card if own_take else None,
        taken_slot=state.taken_slot,
        middle=middle,
        discard_pile=state.discard_pile,
        draw_size=len(state.draw_pile),
        hand_sizes=opts.hand_sizes,
        history=history,
        known=track_known(opts.hand_sizes, history),
        scores=state.scores,
        round_scores=tuple(tuple(r) for r in state.round_scores),
        moves_in_round=state.moves_in_round,
        turns_in_round=state.turns_in_round,
        awaiting_deal=state.awaiting_deal,
        finished=state.finished,
        winners=state.winners,
    )
