"""PIMC for Marshmallow Test: perfect-information Monte Carlo over the bot's view.

Each decision the bot sees only its view and the legal moves (MT-9). It

1. reads from the view what the unseen cards must satisfy (hand sizes, voids
   shown by plays, MT-5.3/5.4: :mod:`cardtable.games.marshmallow_test.determinize`);
2. draws many determinizations (complete placements of those cards) and plays
   each legal move in each of them (common random numbers: every move is
   judged on the same deals);
3. finishes every (deal, move) pair with a playout to the end of the round,
   all at once on numpy arrays (:mod:`.playout`), the players following a
   noisy copy of the heuristic policy;
4. scores each finished round by the bot's chance of winning the *game*:
   1 if it reached the target (MT-8.1), 0 if another did, else a softmax of
   the scores fitted on self-play (:func:`.playout.win_chances`);
5. plays the move with the best mean.

This is perfect-information Monte Carlo on the root's information set
(PIMC, "determinized flat Monte Carlo"), not a tree search and so not
IS-MCTS (for that, seat ``openspiel-ismcts``): the only decision searched is
the root's; a "simulation" below is one playout of one round to its end. It
was called ``ismcts`` in release 0.1.

Optionally (``weighting`` > 0) the determinizations are resampled by how
well they explain the others' plays under the heuristic policy. Against
heuristic opponents this did not measurably help (4 players, 0.1 s a move,
same 100 deals: 62% wins resampled vs 67% uniform; weighted means with a
sharper model were worse, 12 vs 17 of 33), so it is off by default.

>>> import random
>>> from cardtable.games.marshmallow_test import MarshmallowTest
>>> from cardtable.bots.base import Budget
>>> game = MarshmallowTest(players=3)
>>> state = game.new_game(random.Random(1))
>>> bot = PIMCBot(0, game, random.Random(2), Budget(iterations=200))
>>> bot.choose(state.view(0), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test.bots.playout import (
    Batch,
    FloatA,
    IntA,
    Table,
    masks_to_bool,
    win_chances,
)
from cardtable.games.marshmallow_test.cards import NUMBER_OF, cards_of
from cardtable.games.marshmallow_test.determinize import (
    Constraints,
    constraints_from_view,
    sample_hidden,
)
from cardtable.games.marshmallow_test.moves import NameTrump, Play
from cardtable.games.marshmallow_test.tricks import card_strength
from cardtable.games.marshmallow_test.view import MarshmallowView

DEFAULT_SECONDS = 0.2  # per decision when the budget sets no limit
_NUMBERS = np.array(NUMBER_OF, dtype=np.int64)
U64A = NDArray[np.uint64]


class PIMCBot:
    """Determinized flat Monte Carlo (PIMC) over the seat's information set.

    ``budget.seconds`` and/or ``budget.iterations`` (simulations, i.e. round
    playouts, per decision) bound each decision; without either it thinks
    ``DEFAULT_SECONDS``. ``epsilon`` is the chance of a random card in the
    playouts; ``batch_rows`` the playouts played at once, and under a time
    budget alone (no ``iterations``) up to ``max_batch_rows`` in every batch
    after the first (which measures the speed): one numpy operation then
    serves more playouts, about 1.5 times as many a second at 4 players. An
    iteration budget keeps ``batch_rows``, so that there a seed gives the
    same decisions whatever the machine's speed. ``weighting`` > 0
    draws ``pool_size`` determinizations, weighs each by how likely it made
    the others play as they did under the heuristic policy with that much
    noise, and resamples the playouts' deals from them (0: uniform deals).
    """

    batch_type = Batch  # plays the playouts; a subclass may play another policy

    def __init__(
        self,
        seat: int,
        game: Any,
        rng: random.Random,
        budget: Budget | None = None,
        *,
        epsilon: float = 0.1,
        beta: float | None = None,
        batch_rows: int = 1024,
        max_batch_rows: int = 4096,
        weighting: float = 0.0,
        pool_size: int = 1024,
    ) -> None:
        self.seat = seat
        self.game = game
        self.rng = rng
        self.budget = budget or Budget()
        self.epsilon = epsilon
        self.beta = beta
        self.batch_rows = batch_rows
        self.max_batch_rows = max_batch_rows
        self.weighting = weighting
        self.pool_size = pool_size
        self.last_ess = 0.0  # effective pool size, last weighted decision
        self.np_rng = np.random.default_rng(rng.getrandbits(64))
        opts = game.options
        self.table = Table(opts.players, opts.target, opts.trump_after_ruff == "must")
        self.last_simulations = 0  # playouts run for the last decision
        self.last_values: tuple[float, ...] = ()  # mean value per legal move, last decision

    # ------------------------------------------------------------------ decisions
    def choose(self, view: MarshmallowView, legal: Sequence[Any]) -> Any:
        if not isinstance(view, MarshmallowView) or view.seat != self.seat:
            raise TypeError("PIMCBot decides from its own seat's MarshmallowView only")
        if len(legal) == 1:
            self.last_simulations = 0
            self.last_values = ()
            return legal[0]
        values = self.evaluate(view, legal)
        best = max(range(len(legal)), key=lambda i: values[i])
        return legal[best]

    def evaluate(self, view: MarshmallowView, legal: Sequence[Any]) -> tuple[float, ...]:
        """Mean chance of winning the game after each legal move, within the budget."""
        seconds = self.budget.seconds
        max_sims = self.budget.iterations
        if seconds is None and max_sims is None:
            seconds = DEFAULT_SECONDS
        start = time.perf_counter()
        deadline = math.inf if seconds is None else start + seconds
        cons = constraints_from_view(view)
        moves = len(legal)
        sums = np.zeros(moves)
        deals = 0
        sims = 0
        pool = self._pool(view, cons) if self.weighting else None
        per_row = 0.0  # seconds per playout, measured
        while True:
            rows = self.batch_rows
            if max_sims is not None:
                rows = min(rows, max_sims - sims)
            elif per_row:
                rows = max(rows, self.max_batch_rows)
            if per_row and seconds is not None:
                rows = min(rows, int((deadline - time.perf_counter()) / per_row))
            d = max(1, rows // moves)
            t0 = time.perf_counter()
            values = self._playouts(view, legal, self._draw(view, cons, d, pool))
            per_row = (time.perf_counter() - t0) / (d * moves)
            sums += values.sum(0)
            deals += d
            sims += d * moves
            if max_sims is not None and sims >= max_sims:
                break
            if time.perf_counter() + per_row * moves >= deadline:
                break
        self.last_simulations = sims
        self.last_values = tuple(float(v) for v in sums / deals)
        return self.last_values

    # ------------------------------------------------------------------ playouts
    def _deal_masks(self, view: MarshmallowView, cons: Constraints, d: int) -> U64A:
        """``d`` determinizations as (d, players) 60-bit masks of the cards each
        seat holds now; a player out gets the cards they discarded (MT-6.2).

        Shuffled deals on numpy, kept when they respect every void (rejection:
        exactly uniform over the consistent deals); rows still missing after a
        few rounds come from :func:`~cardtable.games.marshmallow_test.determinize.sample_hidden`."""
        own = 0
        for card in view.hand:
            own |= 1 << card
        n = view.players
        unseen = np.array(cards_of(cons.unseen), dtype=np.uint64)
        ones = np.uint64(1)
        voids = np.array(cons.void, dtype=np.uint64)
        found: list[U64A] = []
        have = 0
        for _ in range(3):
            want = 2 * (d - have) if have else d + d // 4
            order = np.argsort(self.np_rng.random((want, len(unseen))), axis=1)
            shuffled = np.left_shift(ones, unseen[order])
            masks = np.zeros((want, n), dtype=np.uint64)
            pos = 0
            for s in range(n):
                k = cons.need[s]
                if k:
                    masks[:, s] = np.bitwise_or.reduce(shuffled[:, pos : pos + k], axis=1)
                    pos += k
            ok = ~np.any(masks & voids[None, :], axis=1)
            found.append(masks[ok][: d - have])
            have += int(min(ok.sum(), d - have))
            if have >= d:
                break
        rest = [sample_hidden(cons, self.rng) for _ in range(d - have)]
        if rest:
            found.append(np.array(rest, dtype=np.uint64))
        out = np.concatenate(found)
        out[:, self.seat] |= np.uint64(own)
        return out

    def _pool(self, view: MarshmallowView, cons: Constraints) -> tuple[U64A, FloatA]:
        """Determinizations and their probabilities: ``pool_size`` drawn
        uniformly, weighed by how well they explain the others' plays."""
        masks = self._deal_masks(view, cons, self.pool_size)
        weights = self._likelihoods(view, cons, masks)
        weights /= weights.sum()
        self.last_ess = float(1.0 / (weights**2).sum())
        return masks, weights

    def _draw(
        self,
        view: MarshmallowView,
        cons: Constraints,
        d: int,
        pool: tuple[U64A, FloatA] | None,
    ) -> U64A:
        """``d`` determinizations: fresh uniform ones, or resampled from ``pool``."""
        if pool is None:
            return self._deal_masks(view, cons, d)
        masks, weights = pool
        return masks[self.np_rng.choice(len(masks), size=d, p=weights)]

    def _playouts(self, view: MarshmallowView, legal: Sequence[Any], masks: U64A) -> FloatA:
        """The bot's chance of winning the game per (determinization, move)."""
        moves = len(legal)
        d = masks.shape[0]
        now = masks.astype(np.int64)
        now[:, np.array(view.out, dtype=bool)] = 0  # out: holds nothing (MT-6.2)
        hands = np.repeat(now, moves, axis=0)
        if isinstance(legal[0], NameTrump):
            # MT-4.2: the dealer names trump, then leads (MT-5.1).
            colours = np.array([m.colour for m in legal], dtype=np.int64)
            batch = self._batch(view, hands, np.tile(colours, d))
        else:
            batch = self._batch(view, hands, -1 if view.trump is None else view.trump)
            cards = np.tile(np.array([m.card for m in legal if isinstance(m, Play)]), d)
            batch.step(np.arange(batch.rows), cards)
        batch.run(self.epsilon, self.np_rng)
        chances = win_chances(batch, self.beta)[:, self.seat]
        return chances.reshape(d, moves)

    def _likelihoods(self, view: MarshmallowView, cons: Constraints, masks: U64A) -> FloatA:
        """How likely each determinization made the others play as they did,
        were they the heuristic player with ``weighting`` noise: the round is
        replayed from its deal (held + played cards) on all of them at once."""
        eps = self.weighting
        n = view.players
        d = masks.shape[0]
        played = np.array(cons.played, dtype=np.uint64)
        dealt = masks_to_bool(masks | played[None, :])  # the round's deal
        logw = np.zeros(d)
        dealer = view.dealer if view.dealer is not None else 0
        if view.trump is not None and dealer != self.seat:
            # MT-4.2: the heuristic names its longest and highest colour.
            hand = dealt[:, dealer]
            strength = (hand * (_NUMBERS + 6)).reshape(d, 5, 12).sum(2)
            top = strength == strength.max(1, keepdims=True)
            p = (1 - eps) * top[:, view.trump] / top.sum(1) + eps / 5
            logw += np.log(p)
        round_pts = view.round_scores[-1] if view.round_scores else (0,) * n
        batch = Batch(
            self.table,
            dealt,
            trump=-1 if view.trump is None else view.trump,
            to_move=dealer,
            scores=tuple(view.scores[s] - round_pts[s] for s in range(n)),
        )
        rows = np.arange(d)
        for trick in (*view.tricks, view.current_trick):
            for seat, card in trick:
                if seat != self.seat:
                    legal = batch.legal(rows)
                    choice = batch.heuristic(rows, legal)
                    p = (1 - eps) * (choice == card) + eps / legal.sum(1)
                    logw += np.log(p)
                batch.step(rows, np.full(d, card, dtype=np.int64))
        w: FloatA = np.exp(logw - logw.max())
        return w

    def _batch(self, view: MarshmallowView, hands: IntA, trump: Any) -> Batch:
        best, best_seat = -1, -1
        won = view.winning_card()
        lead_colour = view.lead_colour
        if won is not None and lead_colour is not None:
            best_seat, card = won
            best = card_strength(card, lead_colour, view.trump)  # MT-5.6
        return self.batch_type(
            self.table,
            hands,
            trump=trump,
            to_move=view.to_move if view.to_move is not None else -1,
            lead=-1 if lead_colour is None else lead_colour,
            ruffed=view.ruffed,
            best=best,
            best_seat=best_seat,
            ncur=len(view.current_trick),
            counts=view.trick_counts,
            inn=tuple(not o for o in view.out),
            tricks=len(view.tricks),
            scores=view.scores,
        )


__all__ = ["DEFAULT_SECONDS", "PIMCBot"]
