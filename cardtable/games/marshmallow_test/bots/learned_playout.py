"""``pimc`` whose playouts follow the learned policy (issue 26, item 2).

``pimc`` finishes every determinized round with a copy of the heuristic, so
more playouts only tell how good a move is *if the heuristic plays on*
(``docs/strength.md``, "Why the levels do not climb"). Here the seats in a
playout play the learned policy's move instead (:mod:`.learned`), either
every seat (:class:`LearnedPlayoutBot`, ``pimc-lp``) or the opponents only,
the bot's own seat keeping the heuristic (:class:`OpponentModelBot`,
``pimc-lp-opp``): the policy as the opponents' model. :class:`SmallPlayoutBot`
(``pimc-lp-small``) is ``pimc-lp`` with the policy distilled into one small
hidden layer (:data:`PLAYOUT_WEIGHTS`), for playouts a few times cheaper.

Each seat of a playout decides from what it would see in that determinized
world and nothing more: :class:`SeenBatch` keeps, beside the cards, the
public facts of the round (the cards played, the trick in progress, the
voids the plays have shown: MT-5.3, MT-5.4) and writes, for every row whose
seat to move is the policy's, the same features as
:class:`~cardtable.games.marshmallow_test.observations.MarshmallowEncoder`
would for that seat's view (its own hand, public facts, relative seats),
all rows in one numpy array, and runs the network on them at once (the
first layer straight from the batch, :meth:`SeenBatch.first_layer`). A row
with a single legal card skips the network; ``epsilon`` of the cards are
random, as in ``pimc``.

>>> import random
>>> from cardtable.bots.base import Budget
>>> from cardtable.games.marshmallow_test import MarshmallowTest
>>> game = MarshmallowTest(players=4)
>>> state = game.new_game(random.Random(1))
>>> bot = LearnedPlayoutBot(0, game, random.Random(2), Budget(iterations=100))
>>> bot.choose(state.view(0), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

import random
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test.bots.endgame import EndgameBot
from cardtable.games.marshmallow_test.bots.learned import WEIGHTS, Policy
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot
from cardtable.games.marshmallow_test.bots.playout import Batch, IntA, masks_to_bool
from cardtable.games.marshmallow_test.cards import COLOUR_OF, NUM_CARDS, NUM_COLOURS
from cardtable.games.marshmallow_test.tricks import shown_voids
from cardtable.games.marshmallow_test.view import MarshmallowView

F32 = NDArray[np.float32]
#: The learned policy distilled into one small hidden layer for the playouts
#: (``benchmarks/train_playout_policy_marshmallow.py``): ``pimc-lp-small``.
PLAYOUT_WEIGHTS = WEIGHTS.with_name("playout_policy.npz")
_COL = np.array(COLOUR_OF, dtype=np.int64)
_ONE = np.int64(1)
_COLOURS = np.arange(NUM_COLOURS, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Seen:
    """What every row of a :class:`SeenBatch` shares: the network (and its
    encoder's layout), the round's dealer, and which seats the policy plays."""

    policy: Policy
    scale: F32  # the encoder's 1/divisor per feature
    dealer: int
    by_policy: NDArray[np.bool_]  # per seat: the policy plays it (else the heuristic)
    must: bool  # trump_after_ruff == "must" (MT-5.4 variant)
    # The first layer as :meth:`SeenBatch.first_layer` reads it: each
    # feature's row of weights times the feature's scale, then a row of zeros
    # (where a gather for an absent card or seat points); its bias with the
    # row of ``to_move``'s relative seat 0 added (the mover is always itself).
    w1: F32
    b1: F32

    @classmethod
    def of(cls, policy: Policy, dealer: int, by_policy: NDArray[np.bool_], must: bool) -> Seen:
        enc = policy.encoder
        # first_layer reads these blocks in one product each: they must be adjacent.
        assert enc.o_played == enc.o_hand + NUM_CARDS
        assert enc.o_tricks == enc.o_voids + enc.n * NUM_COLOURS
        assert enc.o_out == enc.o_tricks + enc.n and enc.o_sizes == enc.o_out + enc.n
        assert enc.o_scores == enc.o_sizes + enc.n
        scale = enc.floats(array("H", [1] * enc.size))
        w, b = policy.layers[0]
        w1 = np.concatenate([w * scale[:, None], np.zeros((1, w.shape[1]), dtype=w.dtype)])
        b1 = b + w1[enc.o_to_move]
        return cls(policy, scale, dealer, by_policy, must, w1, b1)


class SeenBatch(Batch):
    """A :class:`~.playout.Batch` that also keeps what every seat has seen of
    the round, and plays the learned policy for the seats ``seen`` names.

    Per row: ``played`` (mask of the cards played this round, the trick in
    progress included), ``cur`` (rows, n: each seat's card in the trick in
    progress, -1 for none), ``leader`` (who led it, -1 before a lead) and
    ``voids`` (bit ``seat * 5 + colour``: a void the plays have shown).
    """

    _SEEN = ("played", "cur", "leader", "voids")  # per row, taken and put with the rest
    seen: Seen
    played: IntA
    cur: IntA
    leader: IntA
    voids: IntA

    def observe(self, seen: Seen, view: MarshmallowView) -> None:
        """Start every row from the public facts of ``view`` (the round so far)."""
        rows, n = self.rows, self.table.players
        self.seen = seen
        played = 0
        cur = [-1] * n
        voids = 0
        for trick in (*view.tricks, view.current_trick):
            for seat, colour in shown_voids(trick, view.trump, seen.must):
                voids |= 1 << (seat * NUM_COLOURS + colour)
            for _, card in trick:
                played |= 1 << card
        for seat, card in view.current_trick:
            cur[seat] = card
        leader = view.current_trick[0][0] if view.current_trick else -1
        self.played = np.full(rows, played, dtype=np.int64)
        self.cur = np.tile(np.array(cur, dtype=np.int64), (rows, 1))
        self.leader = np.full(rows, leader, dtype=np.int64)
        self.voids = np.full(rows, voids, dtype=np.int64)

    def _take(self, a: IntA) -> SeenBatch:
        sub = super()._take(a)
        assert isinstance(sub, SeenBatch)
        sub.seen = self.seen
        for name in self._SEEN:
            setattr(sub, name, getattr(self, name)[a])
        return sub

    def _put(self, a: IntA, sub: Batch) -> None:
        super()._put(a, sub)
        for name in self._SEEN:
            getattr(self, name)[a] = getattr(sub, name)

    def _play(self, at: IntA, hand: IntA, cards: IntA) -> bool:
        """Note the public facts of the cards played, then play them."""
        p = self.to_move
        lead, trump = self.lead, self.trump
        col = _COL[cards]
        following = lead >= 0
        # The facts shown_voids reads off a trick, one card at a time: before
        # a ruff, not following shows a void in the lead colour (MT-5.3);
        # after one, under "may" a card neither following nor trump does,
        # under "must" a card that is not trump shows a void in trump (MT-5.4).
        ruffed = self.ruffed
        off_lead = col != lead
        if self.seen.must:
            void_lead = following & ~ruffed & off_lead
            void_trump = following & ruffed & (col != trump)
        else:
            void_lead = following & off_lead & (~ruffed | (col != trump))
            void_trump = np.zeros_like(void_lead)
        base = p * NUM_COLOURS
        self.voids |= np.where(void_lead, _ONE << np.where(void_lead, base + lead, 0), 0)
        self.voids |= np.where(void_trump, _ONE << np.where(void_trump, base + trump, 0), 0)
        self.played |= _ONE << cards
        self.cur[np.arange(self.rows), p] = cards
        self.leader = np.where(following, self.leader, p)
        finished = super()._play(at, hand, cards)
        ended = self.ncur == 0  # the trick was completed (MT-5.7)
        if np.count_nonzero(ended):
            self.cur[ended] = -1
            self.leader[ended] = -1
        return finished

    def features(self, rows: IntA) -> F32:
        """The encoder's features of the view of the seat to move in ``rows``
        (as :meth:`MarshmallowEncoder.encode` on that seat's view)."""
        enc = self.seen.policy.encoder
        n = self.table.players
        k = len(rows)
        me = self.to_move[rows]
        r = rows[:, None]
        seats = (me[:, None] + np.arange(n)) % n  # [row, relative seat]: absolute seat
        x = np.zeros((k, enc.size), dtype=np.float32)
        at = np.arange(k)
        x[:, enc.o_hand : enc.o_hand + NUM_CARDS] = masks_to_bool(self.masks[rows, me])
        x[:, enc.o_played : enc.o_played + NUM_CARDS] = masks_to_bool(self.played[rows])
        cur = self.cur[r, seats]
        has = cur >= 0
        i, j = np.nonzero(has)
        x[i, enc.o_current + j * NUM_CARDS + cur[i, j]] = 1
        leader = self.leader[rows]
        led = leader >= 0
        x[at[led], enc.o_leader + (leader[led] - me[led]) % n] = 1
        bits = seats[:, :, None] * NUM_COLOURS + _COLOURS
        voids = (self.voids[rows, None, None] >> bits) & 1
        x[:, enc.o_voids : enc.o_voids + n * NUM_COLOURS] = voids.reshape(k, -1)
        x[:, enc.o_tricks : enc.o_tricks + n] = np.minimum(self.counts[r, seats], enc.need)
        x[:, enc.o_out : enc.o_out + n] = ~self.inn[r, seats]
        x[:, enc.o_sizes : enc.o_sizes + n] = np.bitwise_count(self.masks[r, seats])
        x[:, enc.o_scores : enc.o_scores + n] = np.minimum(self.scores[r, seats], enc.target)
        trump = self.trump[rows]
        named = trump >= 0
        x[at[named], enc.o_trump + trump[named]] = 1
        x[at, enc.o_dealer + (self.seen.dealer - me) % n] = 1  # one column per row
        x[:, enc.o_to_move] = 1  # the seat to move is itself: relative seat 0
        out: F32 = x * self.seen.scale
        return out

    def first_layer(self, rows: IntA) -> F32:
        """The network's first layer before its activation,
        ``features(rows) @ w1 + b1``, without writing the features out:
        they are a few cards and seats in a row of hundreds of zeros, so
        each block is a product of its bits or a sum of gathered rows of
        weights (equal up to the order of the float additions)."""
        seen = self.seen
        enc = seen.policy.encoder
        w = seen.w1
        zero = enc.size  # the row of zeros
        n = self.table.players
        k = len(rows)
        me = self.to_move[rows]
        r = rows[:, None]
        seats = (me[:, None] + np.arange(n)) % n  # [row, relative seat]: absolute seat
        # Hand and cards played: 120 bits, one product.
        cards = masks_to_bool(np.stack((self.masks[rows, me], self.played[rows]), 1))
        h = cards.reshape(k, 2 * NUM_CARDS) @ w[enc.o_hand : enc.o_played + NUM_CARDS]
        # Voids shown, tricks, out, hand sizes, scores: n * 9 numbers, one product.
        bits = seats[:, :, None] * NUM_COLOURS + _COLOURS
        counts = np.concatenate(
            (
                ((self.voids[rows, None, None] >> bits) & 1).reshape(k, -1),
                np.minimum(self.counts[r, seats], enc.need),
                ~self.inn[r, seats],
                np.bitwise_count(self.masks[r, seats]),
                np.minimum(self.scores[r, seats], enc.target),
            ),
            axis=1,
        ).astype(np.float32)
        h += counts @ w[enc.o_voids : enc.o_scores + n]
        # One-hot facts: the trick's card per seat, its leader, trump, dealer.
        cur = self.cur[r, seats]
        leader = self.leader[rows]
        trump = self.trump[rows]
        picks = np.concatenate(
            (
                np.where(cur >= 0, enc.o_current + np.arange(n) * NUM_CARDS + cur, zero),
                np.where(leader >= 0, enc.o_leader + (leader - me) % n, zero)[:, None],
                np.where(trump >= 0, enc.o_trump + trump, zero)[:, None],
                (enc.o_dealer + (seen.dealer - me) % n)[:, None],
            ),
            axis=1,
        )
        h += w[picks].sum(1)
        out: F32 = h + seen.b1
        return out

    def _heuristic(self, at: IntA, hand: IntA, legal: IntA) -> IntA:
        """The playout's choice before ``epsilon``'s noise: the learned
        policy's best legal card where it plays the seat to move and has a
        choice, the heuristic's elsewhere."""
        if self.seen.by_policy.all():
            # The heuristic would only pick a lone legal card: the lowest bit.
            choice: IntA = np.bitwise_count((legal & -legal) - 1).astype(np.int64)
        else:
            choice = super()._heuristic(at, hand, legal)
        ask = self.seen.by_policy[self.to_move] & ((legal & (legal - 1)) != 0)
        rows = np.flatnonzero(ask)
        if len(rows):
            h = self.first_layer(rows)
            for w, b in self.seen.policy.layers[1:]:
                h = np.maximum(h, 0) @ w + b
            logits = h[:, :NUM_CARDS]  # plays only: 0-59
            ok = masks_to_bool(legal[rows])
            choice[rows] = np.where(ok, logits, -np.inf).argmax(1)  # ties: lowest card
        return choice


class LearnedPlayoutBot(PIMCBot):
    """``pimc`` whose playouts follow the learned policy at the seats
    :meth:`policy_seats` names (here: all of them)."""

    batch_type = SeenBatch
    weights: Path = WEIGHTS  # the network the playouts follow

    def __init__(
        self, seat: int, game: Any, rng: random.Random, budget: Budget | None = None
    ) -> None:
        super().__init__(seat, game, rng, budget)
        self.policy = Policy(game, self.weights)
        self.by_policy = self.policy_seats(game.num_players)

    def policy_seats(self, players: int) -> NDArray[np.bool_]:
        return np.ones(players, dtype=bool)

    def _batch(self, view: MarshmallowView, hands: IntA, trump: Any) -> Batch:
        batch = super()._batch(view, hands, trump)
        assert isinstance(batch, SeenBatch)
        dealer = 0 if view.dealer is None else view.dealer
        batch.observe(Seen.of(self.policy, dealer, self.by_policy, self.table.must), view)
        return batch


class OpponentModelBot(LearnedPlayoutBot):
    """``pimc`` whose playouts model the opponents by the learned policy; its
    own seat plays on with the heuristic, as in ``pimc``."""

    def policy_seats(self, players: int) -> NDArray[np.bool_]:
        seats = np.ones(players, dtype=bool)
        seats[self.seat] = False
        return seats


class SmallPlayoutBot(LearnedPlayoutBot):
    """``pimc-lp`` with the policy distilled into a network a few times
    cheaper (:data:`PLAYOUT_WEIGHTS`), so that its playouts cost nearer
    ``pimc``'s and it can win at equal time, not only at equal playouts."""

    weights = PLAYOUT_WEIGHTS


class SmallPlayoutEndgameBot(EndgameBot):
    """``pimc-lp-small`` until a round's last tricks, then those solved exactly
    on sampled hidden cards (:mod:`.endgame`): the ``expert`` level."""

    searcher = SmallPlayoutBot


__all__ = [
    "PLAYOUT_WEIGHTS",
    "LearnedPlayoutBot",
    "OpponentModelBot",
    "Seen",
    "SeenBatch",
    "SmallPlayoutBot",
    "SmallPlayoutEndgameBot",
]
