"""The generic search bot: Perfect-Information Monte Carlo for any game that resamples.

Any game whose manifest offers ``determinize`` (``func(game, view, rng) ->
State``, the unseen cards drawn consistently with the view) gets this bot as
``search``, and the levels ``medium``/``hard`` seat it where the game marks
no search bot of its own (:mod:`cardtable.bots`). Each decision it

1. draws a determinization: a full state the seat cannot tell from the real
   one, made by the game's ``determinize`` from the view alone, so the bot
   never sees a hidden card;
2. plays every candidate move out from that same state with the same
   generator (common random numbers: the moves are compared on equal luck),
   the playout policy and the value of the end being the game's
   (:mod:`cardtable.bots.playout`);
3. repeats while the budget lasts and plays the move with the best mean:
   the highest chance to win where the game's evaluator estimates it, else
   the best score margin at the end of the round.

Moves the game's evaluator calls the same decision (``groups``) are played
out once. This is flat Monte Carlo over the root's information set, not a
tree search: the built-in games' tuned ``pimc`` bots do the same with their
own batched playouts, much faster.

``budget.iterations`` counts playouts (one candidate move played out once);
the bot finishes the round of candidates it is in, so every move has as many
playouts. With an iteration budget alone a seeded bot's choices repeat
exactly; ``budget.seconds`` stops at the first playout past the time, once
every candidate has had one. With neither it thinks ``DEFAULT_SECONDS``.

>>> import random, cardtable
>>> from cardtable.bots.base import Budget
>>> game = cardtable.load("marshmallow-test", players=3, target=5)
>>> state = game.new_game(random.Random(1))
>>> bot = SearchBot(0, game, random.Random(2), Budget(iterations=12))
>>> bot.choose(state.view(0), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from cardtable.bots.base import Budget
from cardtable.bots.playout import play_out, playouts_for
from cardtable.core.game import Game, Move, State, View
from cardtable.core.registry import manifest

__all__ = ["DEFAULT_SECONDS", "SearchBot"]

DEFAULT_SECONDS = 0.1  # per decision when the budget sets no limit

Determinize = Callable[[Game, View, random.Random], State]


class SearchBot:
    """Determinized flat Monte Carlo over the seat's view (module doc).

    :class:`~cardtable.core.manifest.MissingPartError` if the game offers no
    ``determinize``.
    """

    def __init__(
        self, seat: int, game: Game, rng: random.Random, budget: Budget | None = None
    ) -> None:
        self.seat = seat
        self.game = game
        self.rng = rng
        self.budget = budget if budget is not None else Budget()
        self.determinize: Determinize = manifest(game.name).part("determinize")
        self.playouts = playouts_for(game)

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        groups = self.playouts.groups(view, legal)
        if len(groups) == 1:
            return legal[groups[0][0]]
        means = self.search(view, [legal[group[0]] for group in groups])
        best = max(range(len(groups)), key=means.__getitem__)  # the first of equals
        return legal[groups[best][0]]

    def search(self, view: View, candidates: Sequence[Move]) -> list[float]:
        """The mean value of each candidate over the budget's playouts."""
        seconds, iterations = self.budget.seconds, self.budget.iterations
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        deadline = None if seconds is None else time.perf_counter() + seconds
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        played = 0
        while True:
            sample = self.determinize(self.game, view, random.Random(self.rng.getrandbits(64)))
            deals, choices = self.rng.getrandbits(64), self.rng.getrandbits(64)
            for i, move in enumerate(candidates):
                # The sample keeps no generator: each playout brings its own,
                # the same for every candidate (later deals, the policy's draws).
                state = sample.clone(random.Random(deals))
                outcome = play_out(state, self.seat, move, self.playouts, random.Random(choices))
                totals[i] += outcome
                counts[i] += 1
                played += 1
                # Out of time, but never before every candidate has been tried once.
                tried_all = played >= len(candidates)
                if deadline is not None and tried_all and time.perf_counter() >= deadline:
                    return _means(totals, counts)
            if iterations is not None and played >= iterations:
                return _means(totals, counts)


def _means(totals: Sequence[float], counts: Sequence[int]) -> list[float]:
    return [t / c for t, c in zip(totals, counts, strict=True)]
