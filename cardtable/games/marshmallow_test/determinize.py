"""Resampling from a view: full states whose hidden cards agree with what one seat knows.

The public door is :func:`determinize` ``(game, view, rng) -> state`` (the
manifest names it; OpenSpiel keeps the same knowledge in the game as
``ResampleFromInfostate``). Search bots and the adapters use it, or its
parts: :func:`constraints_from_view`, :func:`sample_hidden`,
:func:`build_state`.

A seat sees only ``view(seat)`` (MT-9). To search it imagines the other
hands: it draws the unseen cards (every card not in its own hand and not yet
played this round) among

* the other players still in, ``view.hand_sizes[s]`` cards each;
* the players already out, whose remaining cards were discarded unseen
  (MT-6.2): they were dealt 12, so they held ``12 - played`` more;
* the cards set aside at the deal (MT-3.1): ``60 - 12 * players``.

Every play also tells what the player did *not* hold (MT-5.3, MT-5.4; the
facts are :func:`~cardtable.games.marshmallow_test.tricks.shown_voids`).
Those voids hold for every card the player still had at that time, so for the
discarded cards of players out as well.

>>> import random
>>> from cardtable.games.marshmallow_test import MarshmallowTest
>>> game = MarshmallowTest(players=3)
>>> state = game.new_game(random.Random(3))
>>> for _ in range(7):
...     _ = state.apply(state.legal_moves()[0])
>>> view = state.view(1)
>>> sample = determinize(game, view, random.Random(0))
>>> sample.view(1) == view
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardtable.games.marshmallow_test.cards import (
    COLOUR_MASKS,
    FULL_DECK,
    HAND_SIZE,
    NUM_CARDS,
    NUM_COLOURS,
    cards_of,
)
from cardtable.games.marshmallow_test.codec import Deal
from cardtable.games.marshmallow_test.game import MarshmallowTest
from cardtable.games.marshmallow_test.moves import PLAYS, TRUMPS
from cardtable.games.marshmallow_test.state import MarshmallowState
from cardtable.games.marshmallow_test.tricks import shown_voids
from cardtable.games.marshmallow_test.view import MarshmallowView

SET_ASIDE = -1  # the bucket of cards set aside (MT-3.1), in Constraints.buckets


@dataclass(frozen=True, slots=True)
class Constraints:
    """What one seat knows about where the unseen cards are.

    ``unseen``: 60-bit mask of the cards to place. ``need[s]``: how many of
    them seat ``s`` holds or held (0 for the viewer while in: the view
    does not keep a hand discarded on going out, not even one's own). ``void[s]``: 60-bit mask
    of the cards ``s`` cannot hold (whole colours, from MT-5.3/5.4).
    ``set_aside``: how many were set aside unseen (MT-3.1).
    ``played[s]``: mask of the cards ``s`` played this round.
    """

    seat: int
    players: int
    unseen: int
    need: tuple[int, ...]
    void: tuple[int, ...]
    set_aside: int
    played: tuple[int, ...]

    @property
    def buckets(self) -> tuple[int, ...]:
        """Seats that receive unseen cards, then ``SET_ASIDE`` if any are."""
        seats = tuple(s for s in range(self.players) if self.need[s] > 0)
        return (*seats, SET_ASIDE) if self.set_aside else seats

    def allowed(self, bucket: int) -> int:
        """Mask of the unseen cards ``bucket`` may receive."""
        if bucket == SET_ASIDE:
            return self.unseen
        return self.unseen & ~self.void[bucket]


def void_masks(
    players: int,
    tricks: tuple[tuple[tuple[int, int], ...], ...],
    trump: int | None,
    must: bool,
) -> list[int]:
    """Per seat, the 60-bit mask of the colours that seat has shown it lacks
    in ``tricks`` (MT-5.3, MT-5.4: :func:`.tricks.shown_voids`)."""
    void = [0] * players
    for trick in tricks:
        for seat, colour in shown_voids(trick, trump, must):
            void[seat] |= COLOUR_MASKS[colour]
    return void


def constraints_from_view(view: MarshmallowView) -> Constraints:
    """The hard facts about the unseen cards that ``view`` implies (see module doc)."""
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to determinize for")
    n = view.players
    me = view.seat
    tricks = (*view.tricks, view.current_trick)
    played = [0] * n
    for trick in tricks:
        for seat, card in trick:
            played[seat] |= 1 << card
    own = 0
    for card in view.hand:
        own |= 1 << card
    all_played = 0
    for mask in played:
        all_played |= mask
    unseen = FULL_DECK & ~own & ~all_played
    need = []
    for s in range(n):
        if view.out[s]:
            need.append(HAND_SIZE - played[s].bit_count())  # discarded unseen (MT-6.2)
        elif s == me:
            need.append(0)
        else:
            need.append(view.hand_sizes[s])
    set_aside = NUM_CARDS - HAND_SIZE * n  # MT-3.1
    if sum(need) + set_aside != unseen.bit_count():
        raise ValueError("inconsistent view: hand sizes do not match the unseen cards")
    void = void_masks(n, tricks, view.trump, view.trump_after_ruff == "must")
    return Constraints(me, n, unseen, tuple(need), tuple(void), set_aside, tuple(played))


def sample_hidden(cons: Constraints, rng: random.Random, tries: int = 30) -> list[int]:
    """One placement of the unseen cards: a 60-bit mask per seat (the viewer's
    entry is 0; out players get their discarded cards). Cards set aside are
    left out.

    Cards go one at a time, those with the fewest open buckets first, each to
    an open bucket with chance proportional to its room: exactly uniform when
    no void is known, close to it otherwise. A dead end restarts; after
    ``tries`` of them every step is checked for feasibility, which cannot fail.
    """
    n = cons.players
    order = _cards_by_freedom(cons)
    for _ in range(tries):
        hands = _greedy(cons, order, rng, check=False)
        if hands is not None:
            return hands
    hands = _greedy(cons, order, rng, check=True)
    if hands is None:  # pragma: no cover - the view itself would be impossible
        raise ValueError("no deal is consistent with this view")
    assert len(hands) == n
    return hands


def _cards_by_freedom(cons: Constraints) -> list[int]:
    # Colours open to the fewest seats first (ties keep colour order).
    def freedom(colour: int) -> int:
        return sum(
            1 for s in range(cons.players) if cons.need[s] and not cons.void[s] >> (12 * colour) & 1
        )

    colours = sorted(range(NUM_COLOURS), key=freedom)
    out: list[int] = []
    for c in colours:
        out.extend(cards_of(cons.unseen & COLOUR_MASKS[c]))
    return out


def _greedy(
    cons: Constraints, order: list[int], rng: random.Random, *, check: bool
) -> list[int] | None:
    n = cons.players
    need = list(cons.need)
    aside = cons.set_aside
    void = cons.void
    hands = [0] * n
    left = cons.unseen
    rand = rng.random
    for card in order:
        bit = 1 << card
        left ^= bit
        # Open buckets and their room; SET_ASIDE takes any card (MT-3.1).
        options = [(s, need[s]) for s in range(n) if need[s] and not void[s] & bit]
        if aside:
            options.append((SET_ASIDE, aside))
        if check:
            kept = []
            for bucket, room in options:
                if bucket == SET_ASIDE:
                    ok = feasible_with(cons, need, aside - 1, left)
                else:
                    need[bucket] -= 1
                    ok = feasible_with(cons, need, aside, left)
                    need[bucket] += 1
                if ok:
                    kept.append((bucket, room))
            options = kept
        if not options:
            return None
        total = 0
        for _, room in options:
            total += room
        r = rand() * total
        chosen = options[-1][0]
        for bucket, room in options:
            r -= room
            if r < 0:
                chosen = bucket
                break
        if chosen == SET_ASIDE:
            aside -= 1
        else:
            need[chosen] -= 1
            hands[chosen] |= bit
    return hands


def feasible_with(cons: Constraints, need: list[int], aside: int, left: int) -> bool:
    """Hall's condition: the cards of every set of colours in ``left`` fit the
    room of the buckets that may take them."""
    counts = [(left & COLOUR_MASKS[c]).bit_count() for c in range(NUM_COLOURS)]
    for subset in range(1, 1 << NUM_COLOURS):
        cards = 0
        mask = 0
        for c in range(NUM_COLOURS):
            if subset >> c & 1:
                cards += counts[c]
                mask |= COLOUR_MASKS[c]
        if cards == 0:
            continue
        room = aside
        for s in range(cons.players):
            if need[s] and mask & ~cons.void[s]:
                room += need[s]
        if cards > room:
            return False
    return True


def build_state(
    game: MarshmallowTest, view: MarshmallowView, hidden: list[int]
) -> MarshmallowState:
    """The full engine state of ``view``'s round with ``hidden[s]`` (a mask)
    as the cards seat ``s`` still holds (or discarded, when out).

    The state has no generator (it awaits explicit deals after this round).
    The round number, dealer and earlier points are set with
    :meth:`~.state.MarshmallowState.resume`, then the deal is rebuilt (held +
    played cards per seat) and this round's moves replayed through
    :meth:`~.state.MarshmallowState.apply_as`, so the rules check every play.
    Past rounds carry only their points: the state's ``record()`` holds empty
    deals for them.
    """
    if not isinstance(game, MarshmallowTest):
        raise TypeError(f"not a Marshmallow Test game: {game!r}")
    if view.seat is None or view.dealer is None:
        raise ValueError("determinize needs a seated view of a dealt round")
    opts = game.options
    if (opts.players, opts.target, opts.trump_after_ruff) != (
        view.players,
        view.target,
        view.trump_after_ruff,
    ):
        raise ValueError(f"the view is not of a game of {game!r}")
    me = view.seat
    n = view.players
    played = [0] * n
    for trick in (*view.tricks, view.current_trick):
        for seat, card in trick:
            played[seat] |= 1 << card
    own = 0
    for card in view.hand:
        own |= 1 << card
    hands = []
    for s in range(n):
        held = (own if s == me else 0) | hidden[s]
        hands.append(tuple(sorted(cards_of(held | played[s]))))
    state = game.new_state()
    round_pts = view.round_scores[-1] if view.round_scores else (0,) * n
    state.resume(
        round_number=view.round_number,
        dealer=view.dealer,
        scores=[view.scores[s] - round_pts[s] for s in range(n)],
        past_round_scores=view.round_scores[:-1],
    )
    state.deal(Deal(tuple(hands)))
    if view.trump is not None:
        state.apply(TRUMPS[view.trump])  # MT-4.2
    for trick in (*view.tricks, view.current_trick):
        for seat, card in trick:
            state.apply_as(seat, PLAYS[card])
    return state


def determinize(
    game: MarshmallowTest, view: MarshmallowView, rng: random.Random
) -> MarshmallowState:
    """A full engine state, drawn with ``rng``, that ``view`` cannot tell
    apart from the real one: ``determinize(game, view, rng).view(view.seat) ==
    view``. Uniform over the consistent deals when no void is known, close to
    it otherwise (:func:`sample_hidden`). The state has no generator: rounds
    after this one wait for explicit deals.

    ``view`` must be a seated view of a dealt round of ``game``
    (``ValueError`` otherwise; ``TypeError`` for another game).
    """
    if not isinstance(view, MarshmallowView):
        raise TypeError(f"not a Marshmallow Test view: {type(view).__name__}")
    cons = constraints_from_view(view)
    return build_state(game, view, sample_hidden(cons, rng))


__all__ = [
    "SET_ASIDE",
    "Constraints",
    "build_state",
    "constraints_from_view",
    "determinize",
    "feasible_with",
    "sample_hidden",
    "void_masks",
]
