"""OpenSpiel's own IS-MCTS playing our games through the OpenSpiel adapter.

The bot ``openspiel-ismcts`` of every game that has an OpenSpiel layout (its
manifest names it); it lives with the adapter, above the bots' machinery
(:mod:`cardtable.bots` never imports an adapter).

A reference opponent for the arena: the search is OpenSpiel's Python
``ISMCTSBot`` (Cowling, Powley & Whitehouse 2012) unchanged; all cardtable
supplies is the game (:mod:`cardtable.adapters.openspiel`), the resampler
(determinizations of the seat's view) and a leaf evaluator.

Each decision: determinize the view into a full engine state, wrap it as a
pyspiel state, and run ``max_simulations`` IS-MCTS simulations; every
simulation redraws the hidden cards with the resampler, so the search never
uses the determinization's guesses as facts. The move is the most visited.

Leaf evaluation is one random rollout run on the engine directly (not through
pyspiel, ~50 times faster), to the end of the current round: the value is each
seat's score then. Rolling out the whole game would mostly add noise from
rounds far away; OpenSpiel's ``RandomRolloutEvaluator`` can be passed instead.
UCT's constant is scaled to the game's utility range (returns are points).

Budget: ``budget.iterations`` simulations, or as many as fit in
``budget.seconds`` (calibrated on the measured cost per simulation, updated
every decision); the default is 200 simulations.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.algorithms import ismcts

from cardtable.adapters import openspiel as adapter
from cardtable.adapters.openspiel_determinize import determinize
from cardtable.bots.base import Budget
from cardtable.core.game import Game, Move, View

DEFAULT_SIMULATIONS = 200
_CALIBRATION_SIMULATIONS = 8
# OpenSpiel's ISMCTS fails an assertion with a single simulation (that one only
# creates the root), so however small the budget, it gets two.
MIN_SIMULATIONS = 2


class EngineRolloutEvaluator:
    """OpenSpiel's evaluator contract (``evaluate``, ``prior``): a uniformly
    random playout of the engine to the end of the round, valued by the scores."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: adapter.CardtableState) -> npt.NDArray[np.float64]:
        s = state.engine.clone(random.Random(self.rng.getrandbits(64)))
        start = s.round_number
        randrange = self.rng.randrange
        while not s.finished and s.round_number == start and not s.awaiting_deal:
            legal = s.legal_moves()
            s.apply(legal[randrange(len(legal))])
        return np.array(s.scores, dtype=np.float64)

    def prior(self, state: adapter.CardtableState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class OpenSpielISMCTSBot:
    """Arena name ``openspiel-ismcts``. ``uct_c`` is relative to the utility
    range; ``evaluator`` overrides the engine rollout (any OpenSpiel evaluator)."""

    def __init__(
        self,
        seat: int,
        game: Game,
        rng: random.Random,
        budget: Budget | None = None,
        uct_c: float = 0.5,
        evaluator: Any = None,
    ) -> None:
        self.seat = seat
        self.game = game
        self.rng = rng
        self.budget = budget
        self.ps_game: pyspiel.Game = adapter.load(game)
        span = self.ps_game.max_utility() - self.ps_game.min_utility()
        # Rollout values move by a few points, not by the whole range: a tenth
        # of it is the scale on which values differ.
        self.uct_c = uct_c * span / 10
        self.evaluator = evaluator if evaluator is not None else EngineRolloutEvaluator(rng)
        self.resampler = adapter.make_resampler(rng)
        self._seconds_per_sim: float | None = None

    def _simulations(self) -> int:
        budget = self.budget
        if budget is None or (budget.iterations is None and budget.seconds is None):
            return DEFAULT_SIMULATIONS
        sims = budget.iterations if budget.iterations is not None else 10**9
        if budget.seconds is not None:
            per = self._seconds_per_sim
            fit = _CALIBRATION_SIMULATIONS if per is None else int(budget.seconds / per)
            sims = min(sims, fit)
        return max(MIN_SIMULATIONS, sims)

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        engine = determinize(self.game, view, self.rng)
        state = adapter.state_from_engine(self.ps_game, engine)
        sims = self._simulations()
        bot = ismcts.ISMCTSBot(
            self.ps_game,
            self.evaluator,
            self.uct_c,
            max_simulations=sims,
            random_state=np.random.RandomState(self.rng.getrandbits(32)),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.set_resampler(self.resampler)
        started = time.perf_counter()
        action = int(bot.step(state))
        per = (time.perf_counter() - started) / sims
        old = self._seconds_per_sim
        self._seconds_per_sim = per if old is None else 0.7 * old + 0.3 * per
        for move in legal:
            if move.index == action:
                return move
        raise RuntimeError(f"ISMCTS chose action {action}, not among the legal moves")
