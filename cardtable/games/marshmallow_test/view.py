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
    HAND_SIZE,
    is_card_name,
    parse_card,
)
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT, TRUMP_AFTER_RUFF
from cardtable.games.marshmallow_test.tricks import has_ruff, trick_winner

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
        return has_ruff(self.current_trick, self.trump)

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
        return trick_winner(self.current_trick, self.trump)

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
    """The inverse of :meth:`MarshmallowView.to_json`, checked: anything
    malformed raises :class:`RecordError` naming where (``view.hand[3]``).

    Checked are the shape, the types and the ranges (seats, colours, cards,
    one entry per seat), not whether the facts could arise in a game.
    """
    if not isinstance(obj, dict):
        raise RecordError("view", f"a view is a JSON object, not {type(obj).__name__}")
    missing = [k for k in _FIELDS if k not in obj]
    unknown = [k for k in obj if k not in _FIELDS]
    if missing or unknown:
        raise RecordError("view", f"missing keys {missing}, unknown keys {unknown}")
    players = _int(obj["players"], "view.players", 2, 5)
    seat_range = (0, players - 1)

    def seat(key: str) -> int | None:
        value = obj[key]
        return None if value is None else _int(value, f"view.{key}", *seat_range)

    def per_seat(key: str, low: int, high: int | None) -> tuple[int, ...]:
        items = _list(obj[key], f"view.{key}", players)
        return tuple(_int(v, f"view.{key}[{i}]", low, high) for i, v in enumerate(items))

    def played(items: Any, where: str) -> tuple[PlayedCard, ...]:
        out = []
        for i, p in enumerate(_list(items, where)):
            at = f"{where}[{i}]"
            if not isinstance(p, dict) or set(p) != {"seat", "card"}:
                raise RecordError(at, 'a played card is {"seat": 0, "card": "G12"}')
            out.append((_int(p["seat"], f"{at}.seat", *seat_range), _card(p["card"], f"{at}.card")))
        return tuple(out)

    tricks = tuple(
        played(t, f"view.tricks[{i}]") for i, t in enumerate(_list(obj["tricks"], "view.tricks"))
    )
    winners = _list(obj["trick_winners"], "view.trick_winners", len(tricks))
    ruff = obj["trump_after_ruff"]
    if ruff not in TRUMP_AFTER_RUFF:
        raise RecordError(
            "view.trump_after_ruff", f"one of {', '.join(TRUMP_AFTER_RUFF)}, not {ruff!r}"
        )
    trump = obj["trump"]
    if trump is not None and trump not in COLOUR_NAMES:
        raise RecordError("view.trump", f"null or one of {', '.join(COLOUR_NAMES)}, not {trump!r}")
    return MarshmallowView(
        seat=seat("seat"),
        players=players,
        target=_int(obj["target"], "view.target", 1, None),
        trump_after_ruff=ruff,
        round_number=_int(obj["round_number"], "view.round_number", 0, None),
        dealer=seat("dealer"),
        trump=None if trump is None else COLOUR_NAMES.index(trump),
        to_move=seat("to_move"),
        hand=tuple(
            _card(c, f"view.hand[{i}]") for i, c in enumerate(_list(obj["hand"], "view.hand"))
        ),
        hand_sizes=per_seat("hand_sizes", 0, HAND_SIZE),
        tricks=tricks,
        trick_winners=tuple(
            _int(v, f"view.trick_winners[{i}]", *seat_range) for i, v in enumerate(winners)
        ),
        current_trick=played(obj["current_trick"], "view.current_trick"),
        trick_counts=per_seat("trick_counts", 0, HAND_SIZE),
        out=tuple(
            _bool(v, f"view.out[{i}]") for i, v in enumerate(_list(obj["out"], "view.out", players))
        ),
        scores=per_seat("scores", 0, None),
        round_scores=tuple(
            tuple(
                _int(v, f"view.round_scores[{r}][{i}]", 0, None)
                for i, v in enumerate(_list(row, f"view.round_scores[{r}]", players))
            )
            for r, row in enumerate(_list(obj["round_scores"], "view.round_scores"))
        ),
        finished=_bool(obj["finished"], "view.finished"),
        winners=tuple(
            _int(v, f"view.winners[{i}]", *seat_range)
            for i, v in enumerate(_list(obj["winners"], "view.winners"))
        ),
    )


def _int(value: Any, where: str, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(where, f"expected an int, got {value!r}")
    if value < low or (high is not None and value > high):
        upper = "" if high is None else f" to {high}"
        raise RecordError(
            where, f"expected {low}{upper}{' or more' if high is None else ''}, got {value}"
        )
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(where, f"expected true or false, got {value!r}")
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(where, f"expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise RecordError(where, f"expected {length} entries, got {len(value)}")
    return value


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str) or not is_card_name(value):
        raise RecordError(where, f"a card is written like 'G12', not {value!r}")
    return parse_card(value)
