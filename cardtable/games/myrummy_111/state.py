"""The state of a MyRummy 111 game: every rule lives here (the exchange
itself in :mod:`.exchange`, the scores in :mod:`.scoring`), and the state
builds every :class:`~.view.MyRummyView`, the only door for hidden cards.

Hot-path layout: hands are lists of ints; the middle is a list of three cards
with a bitmask of face-up slots; the draw pile is a shared tuple (top first)
with a read position; the history of a round is an immutable cons list
``(prev, seat, move, card, extra)`` shared by clones. ``card`` is the card
taken (Take) or discarded (Place); ``extra`` is, for a Take, ``True`` if the
card was face up, ``False`` if face down, or the reshuffled discard pile
(a tuple, top first) when the refresh needed MR-4.6.

``apply`` returns a shared :class:`~cardtable.core.game.Applied` per seat and
move unless the move drew chance (a reshuffle) or a deal followed it, and
:meth:`refusal` judges a move by the same checks ``apply`` raises from.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.core.engine import NO_CHANCE, Engine, Refusal, applied_by_seat
from cardtable.core.errors import IllegalMoveError
from cardtable.core.game import Applied, Explanation, Game
from cardtable.games.myrummy_111.cards import CARDS
from cardtable.games.myrummy_111.codec import Deal, deal_from_cards, deal_from_json
from cardtable.games.myrummy_111.exchange import exchange, place_refusal
from cardtable.games.myrummy_111.moves import (
    MAX_POSITION,
    MOVES,
    TAKES,
    TAKES_WITH_REFRESH,
    Move,
    Place,
    Take,
    legal_places,
    place,
)
from cardtable.games.myrummy_111.options import MAX_PLAYERS, Options
from cardtable.games.myrummy_111.scoring import game_over, round_scores, winners
from cardtable.games.myrummy_111.view import (
    Event,
    MyRummyView,
    PlaceEvent,
    RoundEnd,
    TakeEvent,
    track_known,
)

TAKE, PLACE, IDLE = 0, 1, 2  # phases; IDLE = finished or awaiting a deal
_CARD_SUM = sum(CARDS)
ALL_UP = 7
Log = tuple[Any, ...] | None
# ``_APPLIED[seat][move.index]``: what ``apply`` returns for a move without chance or deal.
_APPLIED = applied_by_seat(MAX_PLAYERS, MOVES)
# ``_PLACE_MASKS[h] >> move.index & 1``: whether a Place is legal into a hand of
# ``h`` cards (MR-4.3/4.4, from legal_places): apply's hot path tests a bit.
_PLACE_MASKS = tuple(sum(1 << m.index for m in legal_places(h)) for h in range(MAX_POSITION + 1))
# What ``explain`` answered for the seat to move, by what its words depend on:
# (phase, all three middle cards face up, hand size). A take's refusals turn
# on MR-4.1 only, a place's on the hand size only (MR-4.3/4.4).
_EXPLAINED: dict[tuple[int, bool, int], tuple[Explanation, ...]] = {}


class MyRummyState(Engine[MyRummyView]):
    """A game in progress. Change it only through :meth:`apply` and :meth:`deal`.

    Build one with ``MyRummy111.new_game(rng)``; the game hands the state its
    options and the tables it precomputed from them (the value of each card's
    symbols, the legal placements of each seat's hand size).
    """

    turn_rule = "MR-4"

    __slots__ = (
        "_awaiting",
        "_deal",
        "_discard",
        "_dpos",
        "_draw",
        "_finished",
        "_hands",
        "_last_end",
        "_limit",
        "_log",
        "_middle",
        "_moves",
        "_n",
        "_opts",
        "_past",
        "_phase",
        "_places",
        "_rng",
        "_round",
        "_round_scores",
        "_slot",
        "_start",
        "_sym",
        "_to_move",
        "_totals",
        "_turns",
        "_up",
        "_winners",
        "game",
    )

    def __init__(
        self,
        game: Game,
        options: Options,
        symbol_lookup: tuple[int, ...],
        places_by_seat: tuple[tuple[Place, ...], ...],
        rng: random.Random | None = None,
    ) -> None:
        opts = options
        self.game = game
        self._opts = opts
        self._rng = rng
        self._n = opts.players
        self._sym = symbol_lookup
        self._limit = opts.turn_limit or 0
        self._places = places_by_seat
        self._hands: list[list[int]] = [[] for _ in range(self._n)]
        self._middle: list[int] = []
        self._up = 0
        self._draw: tuple[int, ...] = ()
        self._dpos = 0
        self._discard: list[int] = []  # bottom first, top last
        self._phase = IDLE
        self._to_move: int | None = None
        self._slot = -1
        self._turns = 0
        self._moves = 0
        self._log: Log = None
        self._deal: Deal | None = None
        self._past: tuple[tuple[Deal, Log], ...] = ()
        self._round = 1
        self._start = opts.first_player  # MR-2.2
        self._totals = [0] * self._n
        self._round_scores: tuple[tuple[int, ...], ...] = ()
        self._winners: tuple[int, ...] = ()
        self._finished = False
        self._awaiting = True
        # The latest round's public end, kept plain (round, seat, move, discarded
        # card, declared hand or None): rounds of random play are short, and
        # the RoundEnd value is built only when a view asks.
        self._last_end: tuple[int, int, Place, int, tuple[int, ...] | None] | None = None
        if rng is not None:
            self._deal_random()

    # ----------------------------------------------------------------- dealing
    def _deal_random(self) -> None:
        assert self._rng is not None
        # MR-3.1: shuffle by sorting on random keys -- uniform (up to ties of
        # 53-bit floats, chance < 1e-12) and faster than random.shuffle.
        rand = self._rng.random
        order = sorted(CARDS, key=lambda _card: rand())
        self._start_round(deal_from_cards(order, self._opts.hand_sizes))

    def deal(self, deal: Deal | dict[str, Any] | None = None) -> dict[str, Any]:
        """Deal the next round (MR-3) from an explicit deal, e.g. from a record,
        or with ``None`` from this state's own generator. Returns the deal as
        the record writes it."""
        if not self._awaiting:
            why = "the game is over" if self._finished else f"round {self._round} is in progress"
            raise IllegalMoveError(f"no deal is due: {why}", "MR-3.1")
        if deal is None:
            if self._rng is None:
                raise ValueError("this state has no generator: pass an explicit deal")
            self._deal_random()
        else:
            if not isinstance(deal, Deal):
                deal = deal_from_json(deal, "deal", self._opts)
            self._start_round(deal)
        assert self._deal is not None
        return self._deal.to_json()

    def resume(
        self,
        *,
        round_number: int,
        start_player: int,
        scores: Sequence[int],
        past_round_scores: Sequence[Sequence[int]],
        last_round: RoundEnd | None = None,
        finished: bool = False,
    ) -> None:
        """Set a new state, before its first deal, to the start of round
        ``round_number`` of a game in progress: ``start_player`` begins it
        (MR-2.2), ``scores`` are the totals before it, ``past_round_scores``
        the points of the earlier rounds (MR-7) and ``last_round`` the public
        end of the round before (what views show as ``last_round``).

        With ``finished`` the game ended with round ``round_number`` instead:
        ``past_round_scores`` holds every round and the winners follow from
        the totals (MR-7.1).

        For search bots that rebuild a position from a view: they know the
        earlier rounds' points but not their deals, so ``record()`` of such a
        state lists only the rounds dealt after it.
        """
        n = self._n
        if not self._awaiting or self._deal is not None or self._past:
            raise ValueError("resume() needs a new state that has not been dealt")
        if not 0 <= start_player < n or round_number < 1 or len(scores) != n:
            raise ValueError(f"bad resume: round {round_number}, start {start_player}")
        played = round_number if finished else round_number - 1
        if len(past_round_scores) != played or any(len(r) != n for r in past_round_scores):
            raise ValueError(f"round {round_number} follows {played} earlier rounds of {n} scores")
        self._round = round_number
        self._start = start_player
        self._totals = list(scores)
        self._round_scores = tuple(tuple(r) for r in past_round_scores)
        if last_round is not None:
            last = last_round.last_place
            move = place(last.position, last.discard, last.declare)
            self._last_end = (
                last_round.round_number,
                last.seat,
                move,
                last.card,
                last_round.declared_hand,
            )
        if finished:
            self._finished = True
            self._awaiting = False
            self._winners = winners(self._totals, self._round_scores[-1])

    def detach_rng(self) -> None:
        """Forget this state's generator: from now on every deal must be
        explicit (:meth:`deal` with a :class:`Deal`) and every MR-4.6
        reshuffle given to :meth:`apply` (``reshuffle=``), as when chance is
        played by someone else (an OpenSpiel chance node, a record)."""
        self._rng = None

    def with_cards(
        self,
        hands: Sequence[Sequence[int]],
        middle: Sequence[int],
        draw_pile: Sequence[int],
        rng: random.Random | None = None,
    ) -> MyRummyState:
        """A copy of this position with other cards in its places: the hands
        (seat by seat, left to right), the three middle slots (slot 0 first;
        while a card is being placed, that card in its slot) and the draw pile
        (top first). The same cards must be used (the sizes, the face-up
        middle cards and a checksum of the cards are checked: a full
        comparison would cost search more than the rest of this call), and
        everything else public (discard pile, history, scores) is kept. The
        copy uses ``rng`` (default: this state's generator) for its later
        chance.

        For search bots that sample the hidden cards of a position
        (:mod:`~cardtable.games.myrummy_111.determinize`): the copy plays on
        like any state, but its :meth:`record` still lists this state's deal,
        so it describes no real game.
        """
        if self._phase == IDLE:
            raise ValueError("with_cards() needs a round in progress")
        new_hands = [list(h) for h in hands]
        new_middle = list(middle)
        new_draw = tuple(draw_pile)
        old_draw = self._draw[self._dpos :]
        if (
            [len(h) for h in new_hands] != [len(h) for h in self._hands]
            or len(new_middle) != 3
            or len(new_draw) != len(old_draw)
        ):
            raise ValueError("with_cards() must keep the hands' sizes, 3 slots and the draw pile's")
        up = self._up
        if any(up >> s & 1 and new_middle[s] != self._middle[s] for s in range(3)):
            raise ValueError("with_cards() must keep the face-up middle cards (MR-5.1)")
        # MR-1.1: every card but the discard pile's is in these places.
        if sum(map(sum, new_hands)) + sum(new_middle) + sum(new_draw) != _CARD_SUM - sum(
            self._discard
        ):
            raise ValueError("with_cards() must place the same cards (MR-1.1)")
        state = self.clone(rng)
        state._hands = new_hands
        state._middle = new_middle
        state._draw = new_draw
        state._dpos = 0
        return state

    def _start_round(self, deal: Deal) -> None:
        self._hands = [list(h) for h in deal.hands]  # MR-3.1: the order dealt
        self._middle = list(deal.middle)  # MR-3.2: face down
        self._up = 0
        self._draw = deal.draw
        self._dpos = 0
        self._discard = []
        self._phase = TAKE
        self._to_move = self._start
        self._slot = -1
        self._turns = 0
        self._moves = 0
        self._log = None
        self._deal = deal
        self._awaiting = False

    # ------------------------------------------------------------------- moves
    def legal_moves(self) -> tuple[Move, ...]:
        phase = self._phase
        if phase == TAKE:
            return TAKES_WITH_REFRESH if self._up == ALL_UP else TAKES  # MR-4.1
        if phase == PLACE:
            return self._places[self._to_move]  # type: ignore[index]
        return ()

    def _seat_refusal(self, seat: int) -> Refusal | None:
        if self._to_move is None:
            return self._idle_refusal()  # no seat's decision: say why (MR-3.1, MR-7.1)
        return super()._seat_refusal(seat)

    def apply(self, move: Any, reshuffle: Sequence[int] | None = None, **chance: Any) -> Applied:
        """One decision; returns what it appended to the record. ``reshuffle``
        is the recorded new order (top first) of the discard pile when a
        refresh needs MR-4.6; without it the state's generator shuffles. No
        other chance outcome exists in this game."""
        if chance:
            raise IllegalMoveError(f"unknown chance outcome {next(iter(chance))!r}", "MR-4")
        cls = move.__class__
        phase = self._phase
        if cls is Take and phase == TAKE:
            assert isinstance(move, Take)
            slot = move.slot
            if move.refresh or not 0 <= slot <= 2:  # MR-4.1/4.2: a plain take is always legal
                error = self._take_refusal(move)
                if error is not None:
                    raise IllegalMoveError.from_refusal(error)
            extra: Any
            if move.refresh:
                extra = self._refresh(reshuffle)
            elif reshuffle is not None:
                raise IllegalMoveError("no reshuffle is needed: this take has no refresh", "MR-4.6")
            else:
                extra = bool(self._up >> slot & 1)
            seat: int = self._to_move  # type: ignore[assignment]
            self._slot = slot
            self._up &= ~(1 << slot)
            self._phase = PLACE
            self._moves += 1
            self._log = (self._log, seat, move, self._middle[slot], extra)
            if extra.__class__ is tuple:  # MR-4.6: the reshuffle is recorded with the move
                return Applied(seat, move, {"reshuffle": list(extra)})
            return _APPLIED[seat][move.index]
        if cls is Place and phase == PLACE:
            assert isinstance(move, Place)
            if reshuffle is not None:
                raise IllegalMoveError("no reshuffle is needed: a place never refreshes", "MR-4.6")
            return self._place(move)
        error = self._move_refusal(move)
        assert error is not None
        raise IllegalMoveError.from_refusal(error)

    def _move_refusal(self, move: Any) -> Refusal | None:
        cls = move.__class__
        phase = self._phase
        if cls is Take and phase == TAKE:
            return self._take_refusal(move)
        if cls is Place and phase == PLACE:
            return place_refusal(move.position, move.side, len(self._hands[self._to_move]))  # type: ignore[index]
        if phase == IDLE:
            return self._idle_refusal()
        if cls is Take or cls is Place:
            due = "take" if phase == TAKE else "place"
            other = "place" if due == "take" else "take"
            return Refusal(
                f"a {due} is due, not a {other}", "MR-4", key=f"MR-4.{due}-due", params={}
            )
        return Refusal(f"{move!r} is not a MyRummy 111 move", "MR-4")

    def _take_refusal(self, move: Take) -> Refusal | None:
        """Why the take due now may not be ``move`` (MR-4.1, MR-4.2), or None.
        A refresh that needs MR-4.6 without a generator still needs its
        reshuffle given to :meth:`apply`: that is chance, not a rule."""
        slot = move.slot
        if not 0 <= slot <= 2:
            return Refusal(
                f"there is no slot {slot}: slots are 0, 1, 2",
                "MR-4.2",
                key="MR-4.2.no-slot",
                params={"slot": slot},
            )
        if not move.refresh:
            return None
        if self._up != ALL_UP:
            return Refusal(
                "refresh only when all three middle cards are face up",
                "MR-4.1",
                key="MR-4.1.refresh",
                params={},
            )
        return None

    def _idle_refusal(self) -> Refusal:
        if self._finished:
            return Refusal("the game is over", "MR-7.1", key="MR-7.1.game-over", params={})
        return Refusal(
            f"round {self._round} must be dealt first",
            "MR-3.1",
            key="MR-3.1.deal-first",
            params={"round": self._round},
        )

    def _action_space(self) -> tuple[Move, ...]:
        return MOVES

    def _explain_due(self) -> tuple[Explanation, ...]:
        phase = self._phase
        if phase == IDLE:
            return super()._explain_due()
        key = (phase, self._up == ALL_UP, len(self._hands[self._to_move]))  # type: ignore[index]
        explained = _EXPLAINED.get(key)
        if explained is None:
            explained = _EXPLAINED[key] = super()._explain_due()
        return explained

    def _refresh(self, reshuffle: Sequence[int] | None) -> Any:
        """MR-4.1 (with MR-4.6), once :meth:`_take_refusal` allowed it; checks
        the reshuffle before changing anything."""
        draw, pos = self._draw, self._dpos
        left = len(draw) - pos
        pile = self._discard + self._middle  # slot 2 ends on top
        extra: Any = False
        if left < 3:  # MR-4.6 [interpretation]: reshuffle under the rest of the draw pile
            if reshuffle is not None:
                if not all(type(c) is int for c in reshuffle) or sorted(reshuffle) != sorted(pile):
                    raise IllegalMoveError(
                        f"the reshuffle must be a permutation of the {len(pile)} cards"
                        " of the discard pile",
                        "MR-4.6",
                    )
                new = tuple(reshuffle)
            elif self._rng is not None:
                order = pile[::-1]
                self._rng.shuffle(order)
                new = tuple(order)
            else:
                raise IllegalMoveError(
                    f"the discard pile must be reshuffled: the draw pile holds {left} cards",
                    "MR-4.6",
                )
            draw, pos = draw[pos:] + new, 0
            self._discard = []
            extra = new
        elif reshuffle is not None:
            raise IllegalMoveError(
                f"no reshuffle is needed: the draw pile holds {left} cards", "MR-4.6"
            )
        else:
            self._discard = pile
        self._middle = [draw[pos], draw[pos + 1], draw[pos + 2]]  # slot 0 first
        self._draw, self._dpos = draw, pos + 3
        self._up = 0
        return extra

    def _place(self, move: Place) -> Applied:
        seat: int = self._to_move  # type: ignore[assignment]
        hand = self._hands[seat]
        p = move.position
        side = move.side
        index = move.index
        if index < 0 or not _PLACE_MASKS[len(hand)] >> index & 1:  # MR-4.3, MR-4.4
            error = place_refusal(p, side, len(hand))
            assert error is not None, "apply refused a placement the rules allow"
            raise IllegalMoveError.from_refusal(error)
        slot = self._slot
        card = self._middle[slot]
        out = exchange(hand, card, p, side)
        self._middle[slot] = out  # MR-4.4: face up into the slot taken from
        self._up |= 1 << slot
        self._moves += 1
        self._turns += 1
        self._log = (self._log, seat, move, out, None)
        if move.declare or self._turns == self._limit:  # MR-4.5, MR-6.4
            self._end_round(seat, move, out)
            if self._deal is not None:  # this state dealt the next round itself
                return Applied(seat, move, NO_CHANCE, self._deal)
        else:
            self._to_move = seat + 1 if seat + 1 < self._n else 0
            self._phase = TAKE
        return _APPLIED[seat][index]  # a legal Place lies in the action space

    def _end_round(self, seat: int, move: Place, out: int) -> None:
        """The round ends after ``seat``'s ``move`` (which discarded ``out``)."""
        declarer = seat if move.declare else None
        # MR-6.2: the declarer shows the hand for the others to check.
        shown = None if declarer is None else tuple(self._hands[seat])
        self._last_end = (self._round, seat, move, out, shown)
        scores = round_scores(self._hands, self._sym, declarer)  # MR-6
        for seat, s in enumerate(scores):
            self._totals[seat] += s
        self._round_scores += (tuple(scores),)
        assert self._deal is not None
        self._past += ((self._deal, self._log),)
        self._deal = None
        self._phase = IDLE
        self._to_move = None
        opts = self._opts
        if game_over(self._totals, self._round, opts.rounds, opts.target):  # MR-7
            self._finished = True
            self._winners = winners(self._totals, scores)
            return
        self._round += 1
        self._start = (self._start + 1) % self._n  # MR-2.2
        self._awaiting = True
        if self._rng is not None:
            self._deal_random()

    # -------------------------------------------------------------- questions
    @property
    def options(self) -> Options:
        return self._opts

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def phase(self) -> str | None:
        """``"take"`` or ``"place"``; ``None`` when finished or awaiting a deal."""
        return ("take", "place", None)[self._phase]

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def round_scores(self) -> list[list[int]]:
        return [list(r) for r in self._round_scores]

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    @property
    def round_number(self) -> int:
        return self._round

    @property
    def moves_in_round(self) -> int:
        return self._moves

    @property
    def turns_in_round(self) -> int:
        return self._turns

    @property
    def awaiting_deal(self) -> bool:
        return self._awaiting and not self._finished

    @property
    def start_player(self) -> int:
        return self._start

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(h) for h in self._hands)

    @property
    def taken_slot(self) -> int | None:
        """The slot emptied by the pending take (place phase only)."""
        return self._slot if self._phase == PLACE else None

    @property
    def taken_card(self) -> int | None:
        """The card taken and not yet placed (place phase only)."""
        return self._middle[self._slot] if self._phase == PLACE else None

    @property
    def middle(self) -> tuple[int | None, ...]:
        """The three slots (face up or down); the taken slot is None while placing."""
        taken = self.taken_slot
        return tuple(None if s == taken else c for s, c in enumerate(self._middle))

    @property
    def middle_face_up(self) -> tuple[bool, ...]:
        return tuple(bool(self._up >> s & 1) for s in range(3))

    @property
    def draw_pile(self) -> tuple[int, ...]:
        """Top card first."""
        return self._draw[self._dpos :]

    @property
    def discard_pile(self) -> tuple[int, ...]:
        """Top card first."""
        return tuple(reversed(self._discard))

    def history(self) -> list[tuple[int, Move, int, Any]]:
        """This round's decisions as ``(seat, move, card, extra)`` (see module doc)."""
        out = []
        node = self._log
        while node is not None:
            out.append(node[1:])
            node = node[0]
        out.reverse()
        return out

    def _view(self, seat: int | None) -> MyRummyView:
        """What ``seat`` may know (MR-5, MR-8); ``None`` is a spectator."""
        opts = self._opts
        up = self._up
        placing = self._phase == PLACE
        history = self._public_history()
        own_take = placing and seat is not None and seat == self._to_move
        return MyRummyView(
            seat=seat,
            options=opts,
            round_number=self._round,
            start_player=self._start,
            to_move=self._to_move,
            phase=self.phase,
            hand=None if seat is None else tuple(self._hands[seat]),
            taken_card=self._middle[self._slot] if own_take else None,
            taken_slot=self._slot if placing else None,
            # The taken slot's bit is cleared by the take: it shows as None.
            middle=tuple(c if up >> s & 1 else None for s, c in enumerate(self._middle)),
            discard_pile=self.discard_pile,
            draw_size=len(self._draw) - self._dpos,
            hand_sizes=opts.hand_sizes,
            history=history,
            known=track_known(opts.hand_sizes, history),
            scores=tuple(self._totals),
            round_scores=self._round_scores,
            moves_in_round=self._moves,
            turns_in_round=self._turns,
            awaiting_deal=self.awaiting_deal,
            finished=self._finished,
            winners=self._winners,
            last_round=self._round_end(),
        )

    def _round_end(self) -> RoundEnd | None:
        if self._last_end is None:
            return None
        number, seat, move, card, shown = self._last_end
        return RoundEnd(
            number, PlaceEvent(seat, move.position, move.discard, card, move.declare), shown
        )

    def _public_history(self) -> tuple[Event, ...]:
        """MR-5.1: every action of the round, hiding face-down cards taken."""
        events: list[Event] = []
        for seat, move, card, extra in self.history():
            if isinstance(move, Take):
                shown = card if extra is True else None
                reshuffled = isinstance(extra, tuple)
                events.append(TakeEvent(seat, move.slot, move.refresh, shown, reshuffled))
            else:
                events.append(PlaceEvent(seat, move.position, move.discard, card, move.declare))
        return tuple(events)

    def clone(self, rng: random.Random | None = None) -> MyRummyState:
        """An independent copy; it keeps this state's generator unless given
        ``rng``. Cheap: the deal, the history and the piles' tuples are
        immutable and shared; only the lists are copied."""
        new = object.__new__(MyRummyState)
        new.game = self.game
        new._opts = self._opts
        new._rng = self._rng if rng is None else rng
        new._n = self._n
        new._sym = self._sym
        new._limit = self._limit
        new._places = self._places
        new._hands = [h[:] for h in self._hands]
        new._middle = self._middle[:]
        new._up = self._up
        new._draw = self._draw
        new._dpos = self._dpos
        new._discard = self._discard[:]
        new._phase = self._phase
        new._to_move = self._to_move
        new._slot = self._slot
        new._turns = self._turns
        new._moves = self._moves
        new._log = self._log
        new._deal = self._deal
        new._past = self._past
        new._round = self._round
        new._start = self._start
        new._totals = self._totals[:]
        new._round_scores = self._round_scores
        new._winners = self._winners
        new._finished = self._finished
        new._awaiting = self._awaiting
        new._last_end = self._last_end
        return new

    def _rounds_json(self) -> list[dict[str, Any]]:
        rounds = list(self._past)
        if self._deal is not None:
            rounds.append((self._deal, self._log))
        return [_round_json(d, log) for d, log in rounds]

    def _repr_details(self) -> str:
        return f", turn {self._turns}, phase {self.phase}"


def _round_json(deal: Deal, log: Log) -> dict[str, Any]:
    nodes = []
    while log is not None:
        nodes.append(log)
        log = log[0]
    moves = []
    for _, seat, move, _card, extra in reversed(nodes):
        obj: dict[str, Any] = {"seat": seat}
        obj.update(move.to_json())
        if isinstance(extra, tuple):
            obj["reshuffle"] = list(extra)
        moves.append(obj)
    return {"deal": deal.to_json(), "moves": moves}
