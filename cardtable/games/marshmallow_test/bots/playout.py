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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardtable.games.marshmallow_test.bots.heuristic import keep_value
from cardtable.games.marshmallow_test.cards import (
    COLOUR_MASKS,
    COLOUR_OF,
    NUM_CARDS,
    NUM_COLOURS,
    NUMBER_OF,
)
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT
from cardtable.games.marshmallow_test.tricks import STRENGTH, TRICKS_PER_ROUND

IntA = NDArray[np.int64]
BoolA = NDArray[np.bool_]
FloatA = NDArray[np.float64]

_NUM = np.array(NUMBER_OF, dtype=np.int64)
_BITS = np.arange(NUM_CARDS, dtype=np.uint64)
# Tables per trump are indexed trump + 1, so 0 is "no trump" (round 1, MT-4.1).
_TRUMPS = (None, *range(NUM_COLOURS))
# _COLMASK[c]: the cards of colour c; row 5 (index -1: no lead yet) is empty.
_COLMASK = np.array(
    [[bool(mask >> c & 1) for c in range(NUM_CARDS)] for mask in (*COLOUR_MASKS, 0)]
)
_IS_TRUMP = np.array([[COLOUR_OF[c] == t for c in range(NUM_CARDS)] for t in _TRUMPS])
_KEEP = np.array([[keep_value(c, t) for c in range(NUM_CARDS)] for t in _TRUMPS])
# Leading when wanting the trick: non-trump first, then number*2 + colour length.
_LEAD_WANT = (~_IS_TRUMP) * 1000 + 2 * _NUM[None, :]
# Leading when dodging: the least useful card to keep (argmax of the negated key).
_LEAD_DODGE = -_KEEP
# _STRENGTH[trump + 1, lead]: each card's strength in a trick of that lead (MT-5.6).
_STRENGTH = np.array([STRENGTH[-1], *STRENGTH[:-1]], dtype=np.int64)
_COL = np.array(COLOUR_OF, dtype=np.int64)
_STRENGTH16 = _STRENGTH.astype(np.int16)
_LEAD_WANT16 = _LEAD_WANT.astype(np.int16)
_LEAD_DODGE16 = _LEAD_DODGE.astype(np.int16)
_KEEP16 = _KEEP.astype(np.int16)
_NEG = -(10**6)


def masks_to_bool(masks: IntA | NDArray[np.uint64]) -> BoolA:
    """60-bit masks (any shape) to boolean card arrays (shape + (60,))."""
    m = np.asarray(masks).astype(np.uint64)
    return ((m[..., None] >> _BITS) & np.uint64(1)).astype(bool)


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

    Fields are arrays with one entry (or row) per round: ``hands`` (rows, n,
    60) bool; ``trump`` (-1 in round 1); ``to_move``; ``lead`` (-1 before the
    trick's first card); ``ruffed``; ``best`` / ``best_seat`` (the card now
    winning the trick); ``ncur`` (cards in the trick); ``counts`` (tricks per
    seat); ``inn`` (still in, MT-6.2); ``num_in``; ``tricks``; ``scores``;
    ``done``; ``winner`` (the seat that ended the game, MT-8.1, else -1).
    """

    def __init__(
        self,
        table: Table,
        hands: BoolA,
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
        self.hands = hands
        self.trump = np.broadcast_to(np.asarray(trump, dtype=np.int64), (rows,)).copy()
        self.t1 = self.trump + 1  # index into the per-trump tables
        self.is_trump = _IS_TRUMP[self.t1]
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
        self.num_in = self.inn.sum(1)
        self.tricks = np.full(rows, tricks, dtype=np.int64)
        self.scores = np.tile(np.array(scores or (0,) * n, dtype=np.int64), (rows, 1))
        self.done = np.zeros(rows, dtype=bool)
        self.winner = np.full(rows, -1, dtype=np.int64)
        self._offsets = np.arange(1, n + 1, dtype=np.int64)

    # ------------------------------------------------------------------ rules
    def active(self) -> IntA:
        return np.flatnonzero(~self.done)

    def legal(self, a: IntA) -> BoolA:
        """Legal cards (rows of ``a``), as the engine's ``legal_moves``."""
        hand = self.hands[a, self.to_move[a]]
        lead = self.lead[a]
        leading = lead < 0
        follow = hand & _COLMASK[lead]  # lead -1 picks the empty row
        has_f: BoolA = np.any(follow, axis=1)
        # MT-5.2 leader / MT-5.3 void: any card; MT-5.3: follow the lead colour.
        legal = np.where((has_f & ~leading)[:, None], follow, hand)
        ruffed: BoolA = self.ruffed[a]
        if ruffed.any():
            trumps = hand & self.is_trump[a]
            if self.table.must:
                # MT-5.4 [must]: holding a trump, play one; else anything.
                has_t: BoolA = np.any(trumps, axis=1)
                after = np.where(has_t[:, None], trumps, hand)
            else:
                # MT-5.4: follow or trump in; void in the lead colour: anything.
                after = np.where(has_f[:, None], follow | trumps, hand)
            legal = np.where(ruffed[:, None], after, legal)
        return legal

    def _next_in(self, a: IntA, seat: IntA) -> IntA:
        """The next seat clockwise from ``seat`` that is still in (MT-5.1)."""
        offsets = (seat[:, None] + self._offsets[None, :]) % self.table.players
        flags = self.inn[a[:, None], offsets]
        k = flags.argmax(1)
        nxt: IntA = offsets[np.arange(len(a)), k]
        return nxt

    def step(self, a: IntA, cards: IntA) -> None:
        """Rows ``a`` (all unfinished) play ``cards`` (each legal there)."""
        p = self.to_move[a]
        self.hands[a, p, cards] = False
        col = _COL[cards]
        lead = np.where(self.lead[a] < 0, col, self.lead[a])  # MT-5.2
        self.lead[a] = lead
        t = self.trump[a]
        is_tr = col == t
        strength = _STRENGTH[self.t1[a], lead, cards]  # MT-5.6
        self.ruffed[a] |= is_tr & (lead != t)  # MT-5.4: a trump off a non-trump lead
        best = self.best[a]
        better = strength > best
        self.best[a] = np.where(better, strength, best)
        self.best_seat[a] = np.where(better, p, self.best_seat[a])
        ncur = self.ncur[a] + 1
        self.ncur[a] = ncur
        end = ncur == self.num_in[a]
        go_on = a[~end]
        if len(go_on):
            self.to_move[go_on] = self._next_in(go_on, p[~end])
        e = a[end]
        if len(e):
            self._end_trick(e)

    def _end_trick(self, e: IntA) -> None:
        table = self.table
        w = self.best_seat[e]  # MT-5.7
        self.lead[e] = -1
        self.ruffed[e] = False
        self.best[e] = -1
        self.ncur[e] = 0
        tricks = self.tricks[e] + 1
        self.tricks[e] = tricks
        cw = self.counts[e, w] + 1
        self.counts[e, w] = cw
        out = cw == table.need
        stay = ~out
        # Not out: the winner leads (MT-6.3), unless hands are exhausted (MT-7.2).
        s = e[stay]
        if len(s):
            self.to_move[s] = w[stay]
            self.done[s[tricks[stay] == TRICKS_PER_ROUND]] = True
        o = e[out]
        if len(o):
            wo = w[out]
            # MT-6.2: score every other player's tricks, those already out included.
            points = tricks[out] - cw[out]
            new = self.scores[o, wo] + points
            self.scores[o, wo] = new
            self.inn[o, wo] = False
            self.hands[o, wo] = False
            num_in = self.num_in[o] - 1
            self.num_in[o] = num_in
            won = new >= table.target  # MT-8.1: the game ends at once
            self.winner[o[won]] = wo[won]
            ended = won | (num_in == 1) | (tricks[out] == TRICKS_PER_ROUND)  # MT-7.1, 7.2
            self.done[o[ended]] = True
            more = ~ended
            if more.any():
                # MT-6.3: the next player clockwise still in leads.
                self.to_move[o[more]] = self._next_in(o[more], wo[more])

    # ------------------------------------------------------------------ policy
    def policy(self, a: IntA, legal: BoolA, epsilon: float, rng: np.random.Generator) -> IntA:
        """Each row's card: HeuristicBot's choice, or with chance ``epsilon`` a
        uniformly random legal card."""
        choice = self.heuristic(a, legal)
        if epsilon > 0:
            k = len(a)
            noisy = rng.random(k) < epsilon
            if noisy.any():
                keys = rng.random((int(noisy.sum()), NUM_CARDS))
                rand = np.where(legal[noisy], keys, -1.0).argmax(1)
                choice[noisy] = rand
        return choice

    def _per_trump(self, table: NDArray[Any], rows: IntA) -> NDArray[Any]:
        """``table[trump + 1]`` for each of ``rows``: one broadcast row when
        every row has the same trump (all but trump-naming searches)."""
        if self.same_trump >= 0:
            one: NDArray[Any] = table[self.same_trump][None]
            return one
        per_row: NDArray[Any] = table[self.t1[rows]]
        return per_row

    def heuristic(self, a: IntA, legal: BoolA) -> IntA:
        """HeuristicBot's card in every row of ``a`` (ties: lowest card, as there)."""
        table = self.table
        n = table.players
        k = len(a)
        me = self.to_move[a]
        mine = self.counts[a, me]
        others = self.tricks[a] - mine  # every trick taken so far but ours
        num_in = self.num_in[a]
        need = table.need
        patience = 2 if n == 5 else 3
        want = (
            (num_in <= 2)  # MT-7.1: a race
            | ((mine == need - 1) & (self.scores[a, me] + others >= table.target))  # MT-8.1
            | (others >= patience * (mine + 1))
        )
        lead = self.lead[a]
        leading = lead < 0
        choice = np.empty(k, dtype=np.int64)
        lr = np.flatnonzero(leading)
        if len(lr):
            hand = legal[lr]  # a leader may play any card (MT-5.2)
            rows = a[lr]
            # Per card: the number of cards of its colour in the hand.
            lengths = hand.reshape(-1, 5, 12).view(np.int8).sum(2, dtype=np.int16)
            length = np.repeat(lengths, 12, axis=1)
            w = want[lr][:, None]
            key = np.where(w, self._per_trump(_LEAD_WANT16, rows) + length, 0)
            key += np.where(w, 0, self._per_trump(_LEAD_DODGE16, rows))
            key += hand * np.int16(4096)  # outside the hand never wins
            choice[lr] = key.argmax(1)
        fr = np.flatnonzero(~leading)
        if len(fr):
            rows = a[fr]
            lg = legal[fr]
            if self.same_trump >= 0:
                strength = _STRENGTH16[self.same_trump][lead[fr]]
            else:
                strength = _STRENGTH16[self.t1[rows], lead[fr]]
            keep = self._per_trump(_KEEP16, rows)
            wins = strength > self.best[rows][:, None].astype(np.int16)
            winners = lg & wins
            any_w: BoolA = np.any(winners, axis=1)
            any_l: BoolA = np.any(lg & ~wins, axis=1)
            last = self.ncur[rows] == num_in[fr] - 1
            w = want[fr]
            # The cases of HeuristicBot._follow: "take" (want it, can win),
            # "shed" (dodge, can lose), "forced" (only winners), else "lose"
            # (want it, cannot win); the first and third choose among winners.
            take = w & any_w
            shed = ~w & any_l
            forced = ~take & ~shed & ~any_l
            among_winners = take | forced
            # The key to maximise is a * strength + b * keep, per case:
            # take: last ? -strength : strength; shed: keep;
            # forced: last ? keep : -strength; lose: -keep.
            coef_s = np.where(take, np.where(last, -1, 1), np.where(forced & ~last, -1, 0))
            coef_k = np.where(shed | (forced & last), 1, np.where(take | forced, 0, -1))
            key = coef_s.astype(np.int16)[:, None] * strength
            key += coef_k.astype(np.int16)[:, None] * keep
            pool = lg & (wins == among_winners[:, None])
            key += pool * np.int16(1024)  # outside the pool never wins
            choice[fr] = key.argmax(1)
        return choice

    def run(self, epsilon: float, rng: np.random.Generator) -> None:
        """Play every row to the end of its round (or of the game)."""
        while True:
            a = self.active()
            if not len(a):
                return
            legal = self.legal(a)
            self.step(a, self.policy(a, legal, epsilon, rng))


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


__all__ = ["Batch", "Table", "masks_to_bool", "score_chances", "win_chances"]
