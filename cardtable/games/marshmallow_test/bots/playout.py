"""Many Marshmallow Test rounds played at once, in lockstep, on numpy arrays.

A search bot needs thousands of playouts a second; one Python step through
the engine costs microseconds per card, so this module plays a whole batch of
rounds (one row each: one determinization and one first move) with numpy:
every call of :meth:`Batch.step` plays one card in every unfinished row.

The rules are those of :mod:`cardtable.games.marshmallow_test.state`, a
second, vectorised engine (rule numbers cite
``shared/spec/marshmallow-test.md``): its tables are built from the game's
own constants and :func:`~cardtable.games.marshmallow_test.tricks.card_strength`,
and ``tests/bots`` checks it against the engine card for card. The rows'
playing policy mimics
:class:`~cardtable.games.marshmallow_test.bots.heuristic.HeuristicBot` (dodge
tricks until the others hold many, race when two are left, go out when that
wins the game) with a chance ``epsilon`` of a uniformly random legal card.

A row ends with its round (MT-7.1, MT-7.2) or with the game (MT-8.1), and
:func:`win_chances` turns its scores into each seat's chance of winning the
game.

Each seat's hand is a 60-bit mask (bit ``card``, as in
:mod:`~cardtable.games.marshmallow_test.cards`), and so are the legal cards
and the cards that would win the trick (a table per trump, lead and best
strength). Every choice of the policy takes, within one colour, its highest
or its lowest card, so it is read off each colour's 12-bit field through a
table (:func:`_choice_table`) and the colours compared. A card in every row
then costs a few dozen numpy operations on arrays of one number per row, not
on (rows, 60) arrays; :meth:`Batch.run` plays on a packed copy of the rows
still going, which they leave as they finish. The playouts are those of the
earlier (rows, 60) engine, random numbers included: the same seed gives the
same cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardtable.games.marshmallow_test.bots.heuristic import keep_value
from cardtable.games.marshmallow_test.cards import (
    CARDS_PER_COLOUR,
    COLOUR_MASKS,
    COLOUR_OF,
    COLOUR_SHIFT,
    NUM_CARDS,
    NUM_COLOURS,
    NUMBER_OF,
    RED,
)
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT
from cardtable.games.marshmallow_test.tricks import STRENGTH, TRICKS_PER_ROUND

IntA = NDArray[np.int64]
BoolA = NDArray[np.bool_]
FloatA = NDArray[np.float64]

_BITS = np.arange(NUM_CARDS, dtype=np.uint64)
_BIT = np.left_shift(1, np.arange(NUM_CARDS, dtype=np.int64))  # card -> its bit
_NEVER = -(10**6)  # a key that never wins a max
_COL = np.array(COLOUR_OF, dtype=np.int64)
# _COLMASK[c]: the cards of colour c as a mask; the last (index -1: no lead
# yet, or no trump) is empty.
_COLMASK = np.array([*COLOUR_MASKS, 0], dtype=np.int64)
# Tables per trump are indexed trump + 1, so 0 is "no trump" (round 1, MT-4.1).
# _STRENGTH[trump + 1, lead, card]: each card's strength in a trick of that
# lead (MT-5.6).
_STRENGTH = np.array([STRENGTH[-1], *STRENGTH[:-1]], dtype=np.int64)
_STRENGTH_FLAT = _STRENGTH.ravel()
# _WINS[trump + 1, lead, best + 1]: the cards that beat a trick whose best
# strength is ``best`` (-1 .. 112), as a mask; flattened.
_BESTS = int(_STRENGTH.max()) + 2
_BEATEN = np.arange(-1, _BESTS - 1)[:, None]  # best, -1 .. 112
_WINS = np.where(_STRENGTH[:, :, None, :] > _BEATEN, _BIT, 0).sum(3)
_WINS_FLAT = _WINS.ravel()

# Choosing a card. Every choice of the heuristic maximises a key over a set
# of cards, ties going to the lowest card, and every key is, within one
# colour, monotone in the number: a card's value to keep (its strength were
# it led: number, + 100 for a trump, MT-5.6) maximised (HIGH) or minimised
# (LOW), or, leading to win, non-trump first, then 2 * number + the colour's
# length (WANT). So each colour offers one card, read off its 12-bit field.
LOW, HIGH, WANT = 0, 1, 2
_FIELD = 1 << CARDS_PER_COLOUR
# _SHIFTS: where each colour's field starts, shaped to broadcast over rows.
_SHIFTS = np.array(COLOUR_SHIFT, dtype=np.int64)[:, None]


def _choice_table() -> IntA:
    """``[mode, is_trump, field]``: ``key * 128 + index`` of the card of a
    colour's 12-bit ``field`` that ``mode`` picks (its index 0-11 in the
    colour), ``_NEVER * 128`` for an empty field."""
    table = np.full((3, 2, _FIELD), _NEVER * 128, dtype=np.int64)
    for field in range(1, _FIELD):
        low = (field & -field).bit_length() - 1
        high = field.bit_length() - 1
        for is_trump in (0, 1):
            trump = RED if is_trump else None  # a red card: index == card
            table[LOW, is_trump, field] = -keep_value(low, trump) * 128 + low
            table[HIGH, is_trump, field] = keep_value(high, trump) * 128 + high
            want = 1000 * (1 - is_trump) + 2 * NUMBER_OF[high] + field.bit_count()
            table[WANT, is_trump, field] = want * 128 + high
    return table


_CHOICE = _choice_table().ravel()
# Per trump + 1 and colour: the offset of the is_trump half of _CHOICE.
_TRUMP_OFFSET = np.array(
    [[_FIELD * (c == t) for c in range(NUM_COLOURS)] for t in (-1, *range(NUM_COLOURS))],
    dtype=np.int64,
).T.copy()  # [colour, trump + 1]
# Ties between colours go to the lowest colour: the colour as (4 - c) * 16.
_COLOUR_TIE = ((NUM_COLOURS - 1 - np.arange(NUM_COLOURS, dtype=np.int64)) * 16)[:, None]


def _next_seats(n: int) -> IntA:
    """``[seat * 2**n + in_mask]``: the next seat clockwise from ``seat`` whose
    bit is set in ``in_mask`` (MT-5.1); ``seat`` itself when it is the only one."""
    table = np.zeros((n, 1 << n), dtype=np.int64)
    for seat in range(n):
        for mask in range(1 << n):
            table[seat, mask] = next(
                ((seat + k) % n for k in range(1, n + 1) if mask >> ((seat + k) % n) & 1),
                (seat + 1) % n,
            )
    return table.ravel()


_NEXT = {n: _next_seats(n) for n in range(2, 6)}
# What Batch keeps per row and play changes; rows are gathered and written
# back by name# (trump and t1 do not change during play).
_FIELDS = (
    "masks",
    "to_move",
    "lead",
    "ruffed",
    "best",
    "best_seat",
    "ncur",
    "counts",
    "inn",
    "in_mask",
    "num_in",
    "tricks",
    "scores",
    "done",
    "winner",
)


def masks_to_bool(masks: IntA | NDArray[np.uint64]) -> BoolA:
    """60-bit masks (any shape) to boolean card arrays (shape + (60,))."""
    m = np.asarray(masks).astype(np.uint64)
    return ((m[..., None] >> _BITS) & np.uint64(1)).astype(bool)


def bool_to_masks(cards: NDArray[Any]) -> IntA:
    """Boolean card arrays (shape + (60,)) to 60-bit masks (shape), int64."""
    packed = np.packbits(np.asarray(cards, dtype=bool), axis=-1, bitorder="little")
    masks: IntA = packed.view("<u8")[..., 0].astype(np.int64)
    return masks


@dataclass(frozen=True, slots=True)
class Table:
    """What every row of a batch shares: the game's options and this round's trump."""

    players: int
    target: int
    must: bool  # trump_after_ruff == "must" (MT-5.4 variant)

    @property
    def need(self) -> int:
        return TRICKS_TO_GO_OUT[self.players]  # MT-6.1


class Batch:
    """``rows`` rounds of one game in progress, each with its own cards.

    ``hands`` is (rows, n, 60) bool, or (rows, n) 60-bit masks (ints). Fields
    are arrays with one entry (or row) per round: ``masks`` (rows, n) int64,
    the cards each seat holds (bit ``card``); ``trump`` (-1 in round 1);
    ``to_move``; ``lead`` (-1 before the trick's first card); ``ruffed``;
    ``best`` / ``best_seat`` (the card now winning the trick); ``ncur`` (cards
    in the trick); ``counts`` (tricks per seat); ``inn`` (still in, MT-6.2)
    and ``in_mask`` (the same as bits); ``num_in``; ``tricks``; ``scores``;
    ``done``; ``winner`` (the seat that ended the game, MT-8.1, else -1).
    The property ``hands`` gives the cards held as (rows, n, 60) bool.

    :meth:`legal`, :meth:`heuristic`, :meth:`policy` and :meth:`step` act on
    the rows ``a`` given; :meth:`run` plays every unfinished row to its end
    on a packed copy of them (rows leave it as they finish), so that each
    card costs a few operations on arrays of one number per row.
    """

    table: Table
    rows: int
    same_trump: int
    masks: IntA
    trump: IntA
    t1: IntA
    to_move: IntA
    lead: IntA
    ruffed: BoolA
    best: IntA
    best_seat: IntA
    ncur: IntA
    counts: IntA
    inn: BoolA
    in_mask: IntA
    num_in: IntA
    tricks: IntA
    scores: IntA
    done: BoolA
    winner: IntA
    _base: IntA  # row * players: a row's first entry in (rows, n) arrays, flattened

    def __init__(
        self,
        table: Table,
        hands: BoolA | IntA,
        *,
        trump: int | IntA,
        to_move: int | IntA,
        lead: int = -1,
        ruffed: bool = False,
        best: int = -1,
        best_seat: int = -1,
        ncur: int = 0,
        counts: tuple[int, ...] | None = None,
        inn: tuple[bool, ...] | None = None,
        tricks: int = 0,
        scores: tuple[int, ...] | None = None,
    ) -> None:
        rows, n = hands.shape[0], table.players
        self.table = table
        self.rows = rows
        if hands.ndim == 3:
            self.masks = bool_to_masks(hands)
        else:
            self.masks = np.array(hands, dtype=np.int64)
        self.trump = np.broadcast_to(np.asarray(trump, dtype=np.int64), (rows,)).copy()
        self.t1 = self.trump + 1  # index into the per-trump tables
        # trump + 1 when every row has the same trump, else -1.
        self.same_trump = int(self.t1[0]) if rows and (self.t1 == self.t1[0]).all() else -1
        self.to_move = np.broadcast_to(np.asarray(to_move, dtype=np.int64), (rows,)).copy()
        self.lead = np.full(rows, lead, dtype=np.int64)
        self.ruffed = np.full(rows, ruffed, dtype=bool)
        self.best = np.full(rows, best, dtype=np.int64)
        self.best_seat = np.full(rows, best_seat, dtype=np.int64)
        self.ncur = np.full(rows, ncur, dtype=np.int64)
        self.counts = np.tile(np.array(counts or (0,) * n, dtype=np.int64), (rows, 1))
        self.inn = np.tile(np.array(inn or (True,) * n, dtype=bool), (rows, 1))
        self.in_mask = self.inn.astype(np.int64) @ np.left_shift(1, np.arange(n, dtype=np.int64))
        self.num_in = self.inn.sum(1)
        self.tricks = np.full(rows, tricks, dtype=np.int64)
        self.scores = np.tile(np.array(scores or (0,) * n, dtype=np.int64), (rows, 1))
        self.done = np.zeros(rows, dtype=bool)
        self.winner = np.full(rows, -1, dtype=np.int64)
        self._base = np.arange(rows) * n

    @property
    def hands(self) -> BoolA:
        """The cards each seat holds, (rows, n, 60) bool (a copy)."""
        return masks_to_bool(self.masks)

    def _take(self, a: IntA) -> Batch:
        """A batch of rows ``a`` of this one (copies), of the same class."""
        sub = object.__new__(type(self))
        sub.table = self.table
        sub.rows = rows = len(a)
        sub.same_trump = self.same_trump
        if self.same_trump >= 0:  # every row alike: any rows will do
            sub.trump, sub.t1 = self.trump[:rows], self.t1[:rows]
        else:
            sub.trump, sub.t1 = self.trump[a], self.t1[a]
        for name in _FIELDS:
            setattr(sub, name, getattr(self, name)[a])
        sub._base = np.arange(rows) * self.table.players
        return sub

    def _put(self, a: IntA, sub: Batch) -> None:
        """Write ``sub`` (taken from rows ``a``) back into rows ``a``."""
        for name in _FIELDS:
            getattr(self, name)[a] = getattr(sub, name)

    def _hand(self) -> tuple[IntA, IntA]:
        """Where the seat to move is in the flattened (rows, n) arrays, and its mask."""
        at = self._base + self.to_move
        hand: IntA = self.masks.ravel()[at]
        return at, hand

    # ------------------------------------------------------------------ rules
    def active(self) -> IntA:
        return np.flatnonzero(~self.done)

    def legal(self, a: IntA) -> BoolA:
        """Legal cards (rows of ``a``), as the engine's ``legal_moves``."""
        sub = self._take(a)
        return masks_to_bool(sub._legal(sub._hand()[1]))

    def _legal(self, hand: IntA) -> IntA:
        """The legal cards of every row's seat to move, as masks."""
        follow = hand & _COLMASK[self.lead]  # lead -1 picks the empty mask
        has_f = follow != 0
        # MT-5.2 leader / MT-5.3 void: any card; MT-5.3: follow the lead colour.
        legal = np.where(has_f, follow, hand)
        ruffed = self.ruffed
        if self.same_trump != 0 and np.count_nonzero(ruffed):
            trumps = hand & _COLMASK[self.trump]
            if self.table.must:
                # MT-5.4 [must]: holding a trump, play one; else anything.
                after = np.where(trumps != 0, trumps, hand)
            else:
                # MT-5.4: follow or trump in; void in the lead colour: anything.
                after = np.where(has_f, follow | trumps, hand)
            legal = np.where(ruffed, after, legal)
        return legal

    def step(self, a: IntA, cards: IntA) -> None:
        """Rows ``a`` (all unfinished) play ``cards`` (each legal there)."""
        sub = self._take(a)
        sub._play(*sub._hand(), np.asarray(cards, dtype=np.int64))
        self._put(a, sub)

    def _play(self, at: IntA, hand: IntA, cards: IntA) -> bool:
        """Every row plays its card (from ``hand``, the mask of its seat to
        move, at ``at``: see :meth:`_hand`); whether a row finished."""
        p = self.to_move
        self.masks.ravel()[at] = hand & ~_BIT[cards]
        col = _COL[cards]
        lead = np.where(self.lead < 0, col, self.lead)  # MT-5.2
        self.lead = lead
        t = self.trump
        if self.same_trump >= 0:
            strength = _STRENGTH[self.same_trump].ravel()[lead * NUM_CARDS + cards]
        else:
            strength = _STRENGTH_FLAT[(self.t1 * NUM_COLOURS + lead) * NUM_CARDS + cards]
        if self.same_trump != 0:
            self.ruffed |= (col == t) & (lead != t)  # MT-5.4: a trump off a non-trump lead
        best = self.best
        better = strength > best  # MT-5.6
        self.best = np.where(better, strength, best)
        self.best_seat = np.where(better, p, self.best_seat)
        ncur = self.ncur + 1
        self.ncur = ncur
        end = ncur == self.num_in
        # The next seat still in (MT-5.1); at the trick's end, see _end_trick.
        n = self.table.players
        self.to_move = np.where(end, p, _NEXT[n][(p << n) + self.in_mask])
        if np.count_nonzero(end):
            return self._end_trick(end.nonzero()[0])
        return False

    def _end_trick(self, e: IntA) -> bool:
        """Rows ``e`` complete a trick; whether a row finished."""
        table = self.table
        n = table.players
        w = self.best_seat[e]  # MT-5.7
        self.lead[e] = -1
        self.ruffed[e] = False
        self.best[e] = -1
        self.ncur[e] = 0
        tricks = self.tricks[e] + 1
        self.tricks[e] = tricks
        ew = self._base[e] + w  # the winner, in the flattened (rows, n) arrays
        counts = self.counts.ravel()
        cw = counts[ew] + 1
        counts[ew] = cw
        out = cw == table.need
        stay = ~out
        finished = False
        # Not out: the winner leads (MT-6.3), unless hands are exhausted (MT-7.2).
        s = e[stay]
        if len(s):
            self.to_move[s] = w[stay]
            full = s[tricks[stay] == TRICKS_PER_ROUND]
            if len(full):
                self.done[full] = True
                finished = True
        o = e[out]
        if len(o):
            wo = w[out]
            # MT-6.2: score every other player's tricks, those already out included.
            points = tricks[out] - cw[out]
            ow = ew[out]
            scores = self.scores.ravel()
            new = scores[ow] + points
            scores[ow] = new
            self.inn.ravel()[ow] = False
            in_mask = self.in_mask[o] & ~np.left_shift(1, wo)
            self.in_mask[o] = in_mask
            self.masks.ravel()[ow] = 0
            num_in = self.num_in[o] - 1
            self.num_in[o] = num_in
            won = new >= table.target  # MT-8.1: the game ends at once
            self.winner[o[won]] = wo[won]
            ended = won | (num_in == 1) | (tricks[out] == TRICKS_PER_ROUND)  # MT-7.1, 7.2
            self.done[o[ended]] = True
            more = ~ended
            if more.any():
                # MT-6.3: the next player clockwise still in leads.
                self.to_move[o[more]] = _NEXT[n][(wo[more] << n) + in_mask[more]]
            finished = finished or bool(ended.any())
        return finished

    # ------------------------------------------------------------------ policy
    def policy(self, a: IntA, legal: BoolA, epsilon: float, rng: np.random.Generator) -> IntA:
        """Each row's card: HeuristicBot's choice, or with chance ``epsilon`` a
        uniformly random legal card."""
        sub = self._take(a)
        return sub._policy(*sub._hand(), bool_to_masks(legal), epsilon, rng)

    def _policy(
        self, at: IntA, hand: IntA, legal: IntA, epsilon: float, rng: np.random.Generator
    ) -> IntA:
        """:meth:`policy` on every row, ``legal`` as masks."""
        choice = self._heuristic(at, hand, legal)
        if epsilon > 0:
            noisy = rng.random(self.rows) < epsilon
            if np.count_nonzero(noisy):
                # One random key per card: the legal card with the highest.
                some = legal[noisy].astype("<i8", copy=False)  # bytes low first
                keys = rng.random((len(some), NUM_CARDS))
                ok = np.unpackbits(
                    some.view(np.uint8).reshape(-1, 8), axis=1, count=NUM_CARDS, bitorder="little"
                ).view(bool)
                choice[noisy] = np.where(ok, keys, -1.0).argmax(1)
        return choice

    def heuristic(self, a: IntA, legal: BoolA) -> IntA:
        """HeuristicBot's card in every row of ``a`` (ties: lowest card, as there)."""
        sub = self._take(a)
        return sub._heuristic(*sub._hand(), bool_to_masks(legal))

    def _heuristic(self, at: IntA, hand: IntA, legal: IntA) -> IntA:
        """:meth:`heuristic` on every row, ``legal`` as masks."""
        table = self.table
        n = table.players
        mine = self.counts.ravel()[at]
        others = self.tricks - mine  # every trick taken so far but ours
        num_in = self.num_in
        need = table.need
        patience = 2 if n == 5 else 3
        want = (
            (num_in <= 2)  # MT-7.1: a race
            | ((mine == need - 1) & (self.scores.ravel()[at] + others >= table.target))  # MT-8.1
            | (others >= patience * (mine + 1))
        )
        lead = self.lead
        leading = lead < 0
        # Following: the legal cards that would win the trick now (MT-5.6).
        t1 = self.same_trump if self.same_trump >= 0 else self.t1
        winners = legal & _WINS_FLAT[(t1 * NUM_COLOURS + lead) * _BESTS + self.best + 1]
        losers = legal & ~winners
        any_l = losers != 0
        last = self.ncur == num_in - 1
        # The cases of HeuristicBot._follow: "take" (want it, can win),
        # "shed" (dodge, can lose), "forced" (only winners), else "lose"
        # (want it, cannot win); the first and third choose among winners.
        take = want & (winners != 0)
        shed = ~want & any_l
        forced = ~(take | shed | any_l)
        among_winners = take | forced
        # Their keys (strength is the value to keep for a winner):
        # take: last ? LOW : HIGH; shed: HIGH; forced: last ? HIGH : LOW; lose: LOW.
        high = (take & ~last) | shed | (forced & last)
        # Leading (MT-5.2): wanting the trick WANT, else LOW.
        cards = np.where(leading, legal, np.where(among_winners, winners, losers))
        mode = np.where(leading, np.where(want, WANT, LOW), high)
        return self._pick(cards, mode)

    def _pick(self, cards: IntA, mode: IntA) -> IntA:
        """Per row, the card of ``cards`` (a mask) that ``mode`` picks."""
        fields = (cards[None, :] >> _SHIFTS) & (_FIELD - 1)  # (colours, rows)
        if self.same_trump >= 0:
            offset = _TRUMP_OFFSET[:, self.same_trump, None]
        else:
            offset = _TRUMP_OFFSET[:, self.t1]
        key = _CHOICE[fields + offset + mode * (2 * _FIELD)] + _COLOUR_TIE
        best = key.max(0)
        colour = NUM_COLOURS - 1 - ((best >> 4) & 7)
        card: IntA = colour * CARDS_PER_COLOUR + (best & 15)
        return card

    def run(self, epsilon: float, rng: np.random.Generator) -> None:
        """Play every row to the end of its round (or of the game)."""
        ids = self.active()
        sub = self._take(ids)
        while sub.rows:
            at, hand = sub._hand()
            legal = sub._legal(hand)
            if sub._play(at, hand, sub._policy(at, hand, legal, epsilon, rng)):
                done = sub.done
                ended = np.flatnonzero(done)
                self._put(ids[ended], sub._take(ended))
                go_on = np.flatnonzero(~done)
                ids = ids[go_on]
                sub = sub._take(go_on)


#: Fitted on heuristic self-play (400 games per player count): the chance of
#: winning the game from the scores at a round's end is close to a softmax of
#: the scores with this inverse temperature (log-likelihood beat the power law
#: ``(target - score) ** -k`` for every player count).
SOFTMAX_BETA = {2: 0.2, 3: 0.25, 4: 0.35, 5: 0.25}


def score_chances(scores: NDArray[Any], players: int, beta: float | None = None) -> FloatA:
    """Each row's chance per seat of winning the game from scores at a round's
    end when nobody has won yet: a softmax of the scores (``beta`` per
    player count by default)."""
    if beta is None:
        beta = SOFTMAX_BETA[players]
    s = scores.astype(np.float64) * beta
    weight = np.exp(s - s.max(1, keepdims=True))
    chances: FloatA = weight / weight.sum(1, keepdims=True)
    return chances


def win_chances(batch: Batch, beta: float | None = None) -> FloatA:
    """Each row's chance per seat of winning the game, from its end of round.

    A row that ended the game (MT-8.1) gives its winner 1. Otherwise the
    chances are a softmax of the scores (``beta`` per player count by default):
    points relative to the others count, and being left in scores nothing
    (MT-7.1), so it costs that seat.
    """
    chances = score_chances(batch.scores, batch.table.players, beta)
    won = batch.winner >= 0
    if won.any():
        chances[won] = 0.0
        chances[np.flatnonzero(won), batch.winner[won]] = 1.0
    return chances


__all__ = [
    "Batch",
    "Table",
    "bool_to_masks",
    "masks_to_bool",
    "score_chances",
    "win_chances",
]
