"""A search bot for MyRummy 111: one-card lookahead plus flat determinized search.

Perfect-information Monte Carlo (PIMC), not a tree search: the root's
choices are judged over sampled determinizations, with no tree below them
and no information sets (OpenSpiel's ``openspiel-ismcts`` is the real
IS-MCTS). Registered as ``pimc`` (``ismcts`` in release 0.1).

Each decision the bot sees only its view (MR-5) and the legal moves. It:

1. lists *candidates* with a prior from the one-card lookahead
   (:mod:`.lookahead`): at a take (MR-4.1/4.2) every face-up slot (the best
   quality the card makes), one blind take for all face-down slots and one
   refresh for the three refresh takes (the mean of that over the unseen
   cards); at a place (MR-4.3–4.5) the distinct hands the placements leave,
   the best ``keep`` by the heuristic's quality, judged by their expected best
   quality after the next blind draw; a hand that would be sorted also gets a
   declaring twin (MR-6.2);
2. when the choice is open (a take between the ``take_width`` best, a
   place between the ``place_width`` best, or declaring against waiting,
   MR-4.5), runs *simulations* until the budget is
   spent: each samples a fresh determinization
   (:mod:`cardtable.games.myrummy_111.determinize`: hidden
   cards uniform among the cards that could be there), plays *every*
   candidate on it with the same playout seed (common random numbers), plays
   on with the heuristic playout policy (:mod:`.playout`) for ``horizon``
   turns of all seats (or to the end of the round) and scores the position as
   the chance to win the *game* (MR-7), not the round;
3. plays the candidate with the best mean (plus a small prior term); without
   a search, the best prior.

Resampling per simulation makes the face-down card of a take a chance event
(MR-4.2): in each determinization it is fixed, over many it is spread.

A *simulation* = one candidate played on one determinization + one truncated
playout + one evaluation; ``benchmarks/bench_pimc_myrummy.py`` counts them.
``budget.iterations`` caps simulations (checked per determinization, so it
may overshoot by fewer than the number of candidates); ``budget.seconds``
caps time; with neither, 0.2 s.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.bots.base import Budget
from cardtable.core.game import Game, Move
from cardtable.games.myrummy_111.bots.heuristic import placement_qualities
from cardtable.games.myrummy_111.bots.lookahead import (
    best_after,
    hidden_pool,
    lookahead_value,
    stratified,
)
from cardtable.games.myrummy_111.bots.playout import evaluate, placement_moves, policy_move
from cardtable.games.myrummy_111.determinize import Skeleton
from cardtable.games.myrummy_111.exchange import distinct_places, hand_after_place
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.moves import Take
from cardtable.games.myrummy_111.scoring import declaration_score, is_sorted
from cardtable.games.myrummy_111.view import MyRummyView

DEFAULT_SECONDS = 0.2  # per decision when the budget sets no limit


@dataclass(slots=True)
class Candidate:
    """One root choice: a group of equivalent legal moves."""

    moves: tuple[Move, ...]
    prior: float  # heuristic preference in [0, 1], breaks early noise
    visits: int = 0
    total: float = 0.0
    label: str = field(default="")
    declare: bool = False  # a Place that declares (MR-4.5)

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class PIMCBot:
    """Lookahead-guided determinized search over the root decision (module doc).

    ``horizon``: turns (all seats together, after the bot's own turn) a
    playout runs before it is evaluated (default: two rounds of turns);
    ``keep``: placements judged by lookahead; ``pool_size``: unseen cards the
    lookahead averages over (evenly spread); ``simulate``: search at all;
    ``take_width``: take candidates searched; ``place_width``: placements
    searched (one: the lookahead's best is played unless declaring is open);
    ``prior_weight``: how much the (normalised) prior adds to a searched mean.
    """

    def __init__(
        self,
        seat: int,
        game: Game,
        rng: random.Random,
        budget: Budget | None = None,
        horizon: int | None = None,
        keep: int = 6,
        pool_size: int = 24,
        simulate: bool = True,
        take_width: int = 3,
        prior_weight: float = 0.02,
        place_width: int = 1,
    ) -> None:
        if not isinstance(game, MyRummy111):
            raise TypeError(f"PIMCBot plays myrummy-111, not {getattr(game, 'name', game)!r}")
        self.seat = seat
        self.game = game
        self.rng = rng
        self.budget = budget or Budget()
        self.horizon = horizon if horizon is not None else 2 * game.num_players
        self.keep = keep
        self.pool_size = pool_size
        self.simulate = simulate
        self.take_width = take_width
        self.prior_weight = prior_weight
        self.place_width = place_width
        self.sym = game.symbol_lookup
        self.last_simulations = 0  # of the latest decision, for benchmarks and tests

    # ------------------------------------------------------------ candidates
    def candidates(self, view: MyRummyView, legal: Sequence[Move]) -> list[Candidate]:
        """Root choices with priors (the lookahead values), best first."""
        pool = stratified(hidden_pool(view), self.pool_size)
        if view.phase == "place":
            cands = self._place_candidates(view, legal, pool)
        else:
            cands = self._take_candidates(view, legal, pool)
        cands.sort(key=lambda c: -c.prior)
        return cands

    def _take_candidates(
        self, view: MyRummyView, legal: Sequence[Move], pool: Sequence[int]
    ) -> list[Candidate]:
        """MR-4.1/4.2: each face-up card is judged by the best hand it makes; a
        blind take (and a refresh: three fresh face-down cards) by the mean of
        that over the unseen cards. Equivalent face-down takes form one group."""
        hand = view.hand
        assert hand is not None
        out: list[Candidate] = []
        down: list[Move] = []
        refresh: list[Move] = []
        for move in legal:
            assert isinstance(move, Take)
            card = view.middle[move.slot]
            if move.refresh:
                refresh.append(move)
            elif card is None:
                down.append(move)
            else:
                out.append(Candidate((move,), best_after(hand, card), label=f"take {card}"))
        blind = lookahead_value(hand, pool) if (down or refresh) else 0.0
        if down:
            out.append(Candidate(tuple(down), blind, label="take face down"))
        if refresh:
            # A refresh also clears the face-up cards the next seat could use;
            # a hair of preference breaks its tie with a plain blind take.
            out.append(Candidate(tuple(refresh), blind + 1e-6, label="refresh"))
        return out

    def _place_candidates(
        self, view: MyRummyView, legal: Sequence[Move], pool: Sequence[int]
    ) -> list[Candidate]:
        """MR-4.3–4.5: the distinct hands the placements leave; the best
        ``keep`` by quality are judged by their one-card lookahead value. A
        hand that would be sorted also gets its declaring twin (MR-6.2)."""
        hand, card = view.hand, view.taken_card
        assert hand is not None and card is not None
        by_key = placement_moves(legal)
        scored = []
        places = distinct_places(len(hand))
        for (p, s), q in zip(places, placement_qualities(hand, card), strict=True):
            scored.append((q, p, s, hand_after_place(hand, card, p, s)))
        scored.sort(key=lambda x: -x[0])
        out: list[Candidate] = []
        for _q, p, s, after in scored[: self.keep]:
            done = is_sorted(after)
            value = lookahead_value(after, pool) if not done else float(len(hand) ** 2)
            out.append(Candidate((by_key[(p, s, False)],), value, label=f"place {p} {s}"))
            if done:  # MR-4.5: declaring is optional; declaring and waiting are searched
                points = declaration_score(self.sym[c] for c in after)  # MR-6.2
                declare = by_key[(p, s, True)]
                out.append(
                    Candidate((declare,), value + points, label=f"declare {p} {s}", declare=True)
                )
        return out

    # ---------------------------------------------------------------- search
    def choose(self, view: Any, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        cands = self.candidates(view, legal)
        self.last_simulations = 0
        if not self.simulate or len(cands) == 1:
            return self._pick(cands[0])
        if view.phase == "place":
            declares = [c for c in cands if c.declare]
            waits = [c for c in cands if not c.declare][: self.place_width]
            if not declares and len(waits) == 1:
                return self._pick(cands[0])  # no declaration possible: lookahead decides
            # MR-4.5 / MR-7: declare now, or wait for a better hand? Searched.
            cands = declares[:1] + waits
        else:
            cands = cands[: self.take_width]
        _normalise(cands)
        self.search(view, cands)
        best = max(cands, key=lambda c: (c.mean + self.prior_weight * c.prior, c.visits))
        return self._pick(best)

    def _pick(self, cand: Candidate) -> Move:
        return cand.moves[self.rng.randrange(len(cand.moves))]

    def search(self, view: MyRummyView, cands: list[Candidate]) -> int:
        """Simulate until the budget is spent; returns the number of simulations."""
        seconds = self.budget.seconds
        iterations = self.budget.iterations
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        deadline = math.inf if seconds is None else time.perf_counter() + seconds
        limit = math.inf if iterations is None else iterations
        skeleton = Skeleton(self.game, view)
        rng = self.rng
        seat = self.seat
        round_number = view.round_number
        horizon = self.horizon
        sym = self.sym
        done = 0
        # Common random numbers: every candidate is played on the same
        # determinization with the same playout generator seed, so their
        # values differ by the move, not by the luck of the sample.
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            base = skeleton.sample_fast(rng)
            seed = rng.getrandbits(32)
            for cand in cands:
                state = base.clone()
                sim_rng = random.Random(seed)
                state.apply(cand.moves[sim_rng.randrange(len(cand.moves))])
                # Play on: finish the bot's own turn, then `horizon` turns.
                turns = state.turns_in_round + horizon + (state.phase == "place")
                while (
                    not state.finished
                    and state.round_number == round_number
                    and state.turns_in_round < turns
                ):
                    state.apply(policy_move(state, sim_rng))
                cand.visits += 1
                cand.total += evaluate(state, seat, round_number, sym)
                done += 1
        self.last_simulations = done
        return done


def _normalise(cands: list[Candidate]) -> list[Candidate]:
    """Priors to [0, 1] (best = 1)."""
    if not cands:
        return cands
    lo = min(x.prior for x in cands)
    hi = max(x.prior for x in cands)
    for x in cands:
        x.prior = (x.prior - lo) / (hi - lo) if hi > lo else 1.0
    return cands


DEEP_ROUNDS_AHEAD = 4  # rounds of turns a pimc-deep playout runs before it is judged


class DeepPIMCBot(PIMCBot):
    """``pimc-deep``: :class:`PIMCBot` that searches more of the turn and
    plays further ahead.

    It searches the placements too (MR-4.3/4.4: the three best by the
    one-card lookahead, where ``pimc`` takes the best as it is), so the card a
    placement hands to the next seat face up, and the points a hand keeps if
    an opponent declares first (MR-6.3), weigh on it; every take (four
    choices at most) instead of the three best; and playouts of four rounds
    of turns instead of two, where the race to declare is decided more often
    than estimated. ``pimc``'s search has all but stopped gaining from more
    simulations (the same move in 94% of positions at five times the time),
    so these spend a larger budget on choices it never looked at
    (``docs/strength.md``).
    """

    def __init__(
        self, seat: int, game: Game, rng: random.Random, budget: Budget | None = None
    ) -> None:
        super().__init__(
            seat,
            game,
            rng,
            budget,
            horizon=DEEP_ROUNDS_AHEAD * game.num_players,
            take_width=4,
            place_width=3,
        )
