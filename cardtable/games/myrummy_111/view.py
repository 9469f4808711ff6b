"""What one seat (or a spectator) may know of a MyRummy 111 game (MR-5, MR-8).

A :class:`MyRummyView` is a plain frozen value; the state builds it
(:meth:`~cardtable.games.myrummy_111.state.MyRummyState.view`, the only door
for hidden cards) and this module never sees a state. A seat sees its own
hand (and the card it has just taken); everyone sees the face-up middle
cards, the discard pile, the hand sizes and the public history of the round,
from which ``known`` follows (:func:`track_known`): for each seat, the cards
it took face up at their current positions (``None`` where unknown), tracked
through later exchanges (MR-8). A face-down card taken appears only in its
taker's ``hand``/``taken_card``; the draw pile never appears. When a round
ends, ``last_round`` keeps its public end: the final placement and, after a
declaration, the declarer's hand, which the declarer shows for the others to
check (MR-6.2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cardtable.core.errors import OptionError, RecordError
from cardtable.games.myrummy_111.cards import HIGHEST, LOWEST, is_card
from cardtable.games.myrummy_111.exchange import exchange
from cardtable.games.myrummy_111.moves import SIDES
from cardtable.games.myrummy_111.options import OPTION_NAMES, Options, make_options

T = TypeVar("T")


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

    @property
    def side(self) -> int:
        """0 left, 1 right, 2 far (as :attr:`~.moves.Place.side`)."""
        return SIDES.index(self.discard)

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
class RoundEnd:
    """The public end of the latest round that ended: its number, its final
    placement (the discarded card lies face up, MR-4.4) and, when that
    placement declared, the declarer's whole hand — shown to everyone so the
    others can check the order (MR-6.2; the rulebook: "zeigt nun seine Karten
    vor"). ``declared_hand`` is ``None`` after MR-6.4's turn limit."""

    round_number: int
    last_place: PlaceEvent
    declared_hand: tuple[int, ...] | None = None

    @property
    def declarer(self) -> int | None:
        return self.last_place.seat if self.last_place.declare else None

    def to_json(self) -> dict[str, Any]:
        hand = self.declared_hand
        return {
            "round": self.round_number,
            "last_place": self.last_place.to_json(),
            "declared_hand": None if hand is None else list(hand),
        }


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
    last_round: RoundEnd | None = None

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
            "last_round": None if self.last_round is None else self.last_round.to_json(),
        }


def track_known(
    hand_sizes: Sequence[int], history: Sequence[Event]
) -> tuple[tuple[int | None, ...], ...]:
    """MR-8: each hand as the public history reveals it (``None`` = unknown):
    the round's exchanges (MR-4.4) replayed on what everyone saw taken."""
    known: list[list[int | None]] = [[None] * h for h in hand_sizes]
    pending: int | None = None
    for e in history:
        if isinstance(e, TakeEvent):
            pending = e.card
        else:
            exchange(known[e.seat], pending, e.position, e.side)
    return tuple(tuple(k) for k in known)


# ------------------------------------------------------------------ reading
_FIELDS = (
    "seat",
    "options",
    "round",
    "start_player",
    "to_move",
    "phase",
    "hand",
    "taken_card",
    "taken_slot",
    "middle",
    "discard_pile",
    "draw_size",
    "hand_sizes",
    "history",
    "known",
    "scores",
    "round_scores",
    "moves_in_round",
    "turns_in_round",
    "awaiting_deal",
    "finished",
    "winners",
    "last_round",
)


def view_from_json(obj: Any) -> MyRummyView:
    """The inverse of :meth:`MyRummyView.to_json`; a malformed view (from a
    network message, say) raises :class:`RecordError` saying where and why."""
    if not isinstance(obj, dict):
        raise RecordError("view", "a view is a JSON object")
    missing = [k for k in _FIELDS if k not in obj]
    unknown = [k for k in obj if k not in _FIELDS]
    if missing or unknown:
        raise RecordError("view", f"missing keys {missing}, unknown keys {unknown}")
    options = _options(obj["options"])
    n = options.players
    seat = _opt(obj["seat"], "seat", lambda v, w: _int(v, w, 0, n - 1))
    hand = _opt(obj["hand"], "hand", _cards)
    last = obj["last_round"]
    return MyRummyView(
        seat=seat,
        options=options,
        round_number=_int(obj["round"], "round", 1),
        start_player=_int(obj["start_player"], "start_player", 0, n - 1),
        to_move=_opt(obj["to_move"], "to_move", lambda v, w: _int(v, w, 0, n - 1)),
        phase=_phase(obj["phase"]),
        hand=None if hand is None else tuple(hand),
        taken_card=_opt(obj["taken_card"], "taken_card", _card),
        taken_slot=_opt(obj["taken_slot"], "taken_slot", lambda v, w: _int(v, w, 0, 2)),
        middle=tuple(_list(obj["middle"], "middle", lambda v, w: _opt(v, w, _card), 3)),
        discard_pile=tuple(_cards(obj["discard_pile"], "discard_pile")),
        draw_size=_int(obj["draw_size"], "draw_size"),
        hand_sizes=tuple(_list(obj["hand_sizes"], "hand_sizes", _int, n)),
        history=tuple(_list(obj["history"], "history", lambda v, w: _event(v, w, n))),
        known=tuple(
            tuple(_list(k, w, lambda v, w2: _opt(v, w2, _card)))
            for k, w in _items(obj["known"], "known", n)
        ),
        scores=tuple(_list(obj["scores"], "scores", _int, n)),
        round_scores=tuple(
            tuple(_list(r, w, _int, n)) for r, w in _items(obj["round_scores"], "round_scores")
        ),
        moves_in_round=_int(obj["moves_in_round"], "moves_in_round"),
        turns_in_round=_int(obj["turns_in_round"], "turns_in_round"),
        awaiting_deal=_bool(obj["awaiting_deal"], "awaiting_deal"),
        finished=_bool(obj["finished"], "finished"),
        winners=tuple(_list(obj["winners"], "winners", lambda v, w: _int(v, w, 0, n - 1))),
        last_round=None if last is None else _round_end(last, "last_round", n),
    )


def _fail(where: str, reason: str) -> RecordError:
    return RecordError(f"view.{where}", reason)


def _int(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        upper = "" if high is None else f"–{high}"
        raise _fail(where, f"must be an integer {low}{upper or ' or more'}, not {value!r}")
    return value


def _bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise _fail(where, f"must be true or false, not {value!r}")
    return value


def _card(value: Any, where: str) -> int:
    if not is_card(value):
        raise _fail(where, f"a card is an integer {LOWEST}–{HIGHEST}, not {value!r}")
    result: int = value
    return result


def _cards(value: Any, where: str) -> list[int]:
    return _list(value, where, _card)


def _opt(value: Any, where: str, read: Callable[[Any, str], T]) -> T | None:
    return None if value is None else read(value, where)


def _dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where, "must be a JSON object")
    return value


def _items(value: Any, where: str, length: int | None = None) -> list[tuple[Any, str]]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise _fail(where, f"must hold {length} entries, not {len(value)}")
    return [(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _list(
    value: Any, where: str, read: Callable[[Any, str], T], length: int | None = None
) -> list[T]:
    return [read(v, w) for v, w in _items(value, where, length)]


def _options(value: Any) -> Options:
    """Every option written out, as :meth:`Options.to_json` writes them (no
    defaults filled in: what is read writes back unchanged)."""
    given = _dict(value, "options")
    if sorted(given) != sorted(OPTION_NAMES):
        raise _fail("options", f"the options are {', '.join(OPTION_NAMES)}")
    try:
        options = make_options(**given)
    except OptionError as exc:
        raise _fail(f"options.{exc.option}", exc.reason) from None
    for name, written in options.to_json().items():
        if given[name] != written:
            raise _fail(f"options.{name}", f"must be written out in full, not {given[name]!r}")
    return options


def _phase(value: Any) -> str | None:
    if value not in ("take", "place", None):
        raise _fail("phase", f"must be 'take', 'place' or null, not {value!r}")
    result: str | None = value
    return result


def _event(value: Any, where: str, n: int) -> Event:
    e = _dict(value, where)
    keys = ("seat", "take", "refresh", "card", "reshuffled")
    if "place" in e:
        keys = ("seat", "place", "discard", "card", "declare")
    if sorted(e) != sorted(keys):
        raise _fail(where, f"an event has the keys {', '.join(keys)}")
    seat = _int(e["seat"], f"{where}.seat", 0, n - 1)
    if "take" in e:
        return TakeEvent(
            seat,
            _int(e["take"], f"{where}.take", 0, 2),
            _bool(e["refresh"], f"{where}.refresh"),
            _opt(e["card"], f"{where}.card", _card),
            _bool(e["reshuffled"], f"{where}.reshuffled"),
        )
    return _place_event(e, where, seat)


def _place_event(e: dict[str, Any], where: str, seat: int) -> PlaceEvent:
    discard = e["discard"]
    if discard not in SIDES:  # only the three strings equal a side
        raise _fail(f"{where}.discard", f"must be 'left', 'right' or 'far', not {discard!r}")
    return PlaceEvent(
        seat,
        _int(e["place"], f"{where}.place"),
        discard,
        _card(e["card"], f"{where}.card"),
        _bool(e["declare"], f"{where}.declare"),
    )


def _round_end(value: Any, where: str, n: int) -> RoundEnd:
    r = _dict(value, where)
    if sorted(r) != ["declared_hand", "last_place", "round"]:
        raise _fail(where, "the last round has the keys round, last_place, declared_hand")
    place = _event(r["last_place"], f"{where}.last_place", n)
    if not isinstance(place, PlaceEvent):
        raise _fail(f"{where}.last_place", "a round ends with a placement")
    hand = _opt(r["declared_hand"], f"{where}.declared_hand", _cards)
    return RoundEnd(
        _int(r["round"], f"{where}.round", 1), place, None if hand is None else tuple(hand)
    )
