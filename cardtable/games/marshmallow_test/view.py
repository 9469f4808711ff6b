"""What one seat may know (MT-9), as a plain frozen value.

A view holds the seat's own hand and everything public: every card played to
this round's tricks and by whom, trick counts, who is out, scores, trump, the
dealer. It never holds another seat's hand, the cards set aside or the hands
discarded by players who went out (MT-9.2). Bots, servers and logs are built
from views only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import RecordError
from cardtable.games.marshmallow_test.cards import (
    CARD_NAMES,
    COLOUR_NAMES,
    COLOUR_OF,
    NUMBER_OF,
    parse_card,
    parse_colour,
)
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT

PlayedCard = tuple[int, int]  # (seat, card)


@dataclass(frozen=True, slots=True)
class MarshmallowView:
    """One seat's knowledge of the game (``seat`` is ``None`` for a spectator,
    who sees no hand at all)."""

    seat: int | None
    players: int
    target: int
    trump_after_ruff: str
    round_number: int
    dealer: int | None  # None only before the first deal
    trump: int | None  # colour; None in round 1 and before the dealer names it
    to_move: int | None
    hand: tuple[int, ...]  # own cards, lowest first; () for a spectator
    hand_sizes: tuple[int, ...]  # cards held per seat (0 once out: discarded)
    tricks: tuple[tuple[PlayedCard, ...], ...]  # this round's completed tricks, in play order
    trick_winners: tuple[int, ...]  # who took each completed trick
    current_trick: tuple[PlayedCard, ...]  # cards played to the trick in progress
    trick_counts: tuple[int, ...]
    out: tuple[bool, ...]  # went out this round (MT-6.2)
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]  # as State.round_scores
    finished: bool
    winners: tuple[int, ...]

    # Derived facts, for bots and faces.
    @property
    def tricks_to_go_out(self) -> int:
        return TRICKS_TO_GO_OUT[self.players]  # MT-6.1

    @property
    def round_points(self) -> tuple[int, ...]:
        """What each seat has scored this round (0 for those still in)."""
        return self.round_scores[-1] if self.round_scores else (0,) * self.players

    @property
    def lead_colour(self) -> int | None:
        return COLOUR_OF[self.current_trick[0][1]] if self.current_trick else None

    @property
    def ruffed(self) -> bool:
        """A trump lies in a trick whose lead is not trump (MT-5.4)."""
        lead = self.lead_colour
        if lead is None or self.trump is None or lead == self.trump:
            return False
        return any(COLOUR_OF[c] == self.trump for _, c in self.current_trick)

    @property
    def trump_due(self) -> bool:
        """The dealer must name trump now (MT-4.2)."""
        return (
            not self.finished
            and self.round_number >= 2
            and self.trump is None
            and self.to_move is not None
        )

    @property
    def players_in(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if not self.out[s])

    def winning_card(self) -> PlayedCard | None:
        """The (seat, card) now winning the current trick (MT-5.6)."""
        if not self.current_trick:
            return None
        lead = COLOUR_OF[self.current_trick[0][1]]

        def strength(played: PlayedCard) -> int:
            colour = COLOUR_OF[played[1]]
            if colour == self.trump:
                return 100 + NUMBER_OF[played[1]]
            return NUMBER_OF[played[1]] if colour == lead else -1

        return max(self.current_trick, key=strength)

    def to_json(self) -> dict[str, Any]:
        def played(trick: tuple[PlayedCard, ...]) -> list[dict[str, Any]]:
            return [{"seat": s, "card": CARD_NAMES[c]} for s, c in trick]

        return {
            "seat": self.seat,
            "players": self.players,
            "target": self.target,
            "trump_after_ruff": self.trump_after_ruff,
            "round_number": self.round_number,
            "dealer": self.dealer,
            "trump": None if self.trump is None else COLOUR_NAMES[self.trump],
            "to_move": self.to_move,
            "hand": [CARD_NAMES[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "tricks": [played(t) for t in self.tricks],
            "trick_winners": list(self.trick_winners),
            "current_trick": played(self.current_trick),
            "trick_counts": list(self.trick_counts),
            "out": list(self.out),
            "scores": list(self.scores),
            "round_scores": [list(r) for r in self.round_scores],
            "finished": self.finished,
            "winners": list(self.winners),
        }


_FIELDS = tuple(MarshmallowView.__dataclass_fields__)


def view_from_json(obj: Any) -> MarshmallowView:
    """The inverse of :meth:`MarshmallowView.to_json`; RecordError says where."""
    if not isinstance(obj, dict):
        raise RecordError("view", "a view is a JSON object")
    missing = [k for k in _FIELDS if k not in obj]
    unknown = [k for k in obj if k not in _FIELDS]
    if missing or unknown:
        raise RecordError("view", f"missing keys {missing}, unknown keys {unknown}")
    try:

        def opt_int(v: Any) -> int | None:
            return None if v is None else _int(v)

        def played(items: Any) -> tuple[PlayedCard, ...]:
            return tuple((_int(p["seat"]), parse_card(p["card"])) for p in items)

        return MarshmallowView(
            seat=opt_int(obj["seat"]),
            players=_int(obj["players"]),
            target=_int(obj["target"]),
            trump_after_ruff=str(obj["trump_after_ruff"]),
            round_number=_int(obj["round_number"]),
            dealer=opt_int(obj["dealer"]),
            trump=None if obj["trump"] is None else parse_colour(obj["trump"]),
            to_move=opt_int(obj["to_move"]),
            hand=tuple(parse_card(c) for c in obj["hand"]),
            hand_sizes=tuple(_int(v) for v in obj["hand_sizes"]),
            tricks=tuple(played(t) for t in obj["tricks"]),
            trick_winners=tuple(_int(v) for v in obj["trick_winners"]),
            current_trick=played(obj["current_trick"]),
            trick_counts=tuple(_int(v) for v in obj["trick_counts"]),
            out=tuple(_bool(v) for v in obj["out"]),
            scores=tuple(_int(v) for v in obj["scores"]),
            round_scores=tuple(tuple(_int(v) for v in r) for r in obj["round_scores"]),
            finished=_bool(obj["finished"]),
            winners=tuple(_int(v) for v in obj["winners"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError("view", f"malformed view: {exc}") from None


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an int, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true/false, got {value!r}")
    return value
