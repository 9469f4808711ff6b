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
3. repeats while the budget lasts. Where the game has a playout policy (its
   evaluator's, or its heuristic), the policy's own move at the root is the
   default, and the bot leaves it only for a candidate whose mean is clearly
   better: paired with the default on the same samples, the mean difference
   more than ``MARGIN_SE`` standard errors above zero over at least
   ``MIN_PAIRS`` samples (the best such mean, if several). Without a policy
   (random playouts) it plays the best mean. The value is the score margin
   at the end of the round (or the evaluator's cutoff).

Why the default: with dozens of candidates and a short budget each move gets
one or two playouts, and the best of 28 noisy means is mostly the luckiest,
not the best (MyRummy 111, 50 ms a move: 0% against the heuristic it played
out with). The policy's move is as good as the policy; a search that cannot
tell moves apart should play no worse than it.

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
from cardtable.bots.playout import has_policy, play_out, playouts_for
from cardtable.core.game import Game, Move, State, View
from cardtable.core.registry import manifest

__all__ = ["DEFAULT_SECONDS", "MARGIN_SE", "MIN_PAIRS", "SearchBot", "pick"]

DEFAULT_SECONDS = 0.1  # per decision when the budget sets no limit
# Leaving the policy's move takes a paired mean difference this many standard
# errors above zero, over at least this many samples: with fewer, the
# standard error itself is too noisy to trust (and with one, undefined).
MARGIN_SE = 2.0
MIN_PAIRS = 4

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
        outcomes, default = self.search(view, legal, groups)
        return legal[groups[pick(outcomes, default)][0]]

    def search(
        self, view: View, legal: Sequence[Move], groups: Sequence[Sequence[int]]
    ) -> tuple[list[list[float]], int | None]:
        """Each group's playout values, sample by sample (the same samples
        in the same order for every group), and the group of the policy's
        own move (``None`` where the playouts follow no policy)."""
        candidates = [legal[group[0]] for group in groups]
        iterations = self.budget.iterations
        deadline = self.budget.deadline(DEFAULT_SECONDS)
        outcomes: list[list[float]] = [[] for _ in candidates]
        default: int | None = None
        played = 0
        while True:
            sample = self.determinize(self.game, view, random.Random(self.rng.getrandbits(64)))
            deals, choices = self.rng.getrandbits(64), self.rng.getrandbits(64)
            if played == 0 and has_policy(self.playouts):
                default = self._policy_group(sample, legal, groups, choices)
            for i, move in enumerate(candidates):
                # The sample keeps no generator: each playout brings its own,
                # the same for every candidate (later deals, the policy's draws).
                state = sample.clone(random.Random(deals))
                outcome = play_out(state, self.seat, move, self.playouts, random.Random(choices))
                outcomes[i].append(outcome)
                played += 1
                # Out of time, but never before every candidate has been tried once.
                tried_all = played >= len(candidates)
                if deadline is not None and tried_all and time.perf_counter() >= deadline:
                    return outcomes, default
            if iterations is not None and played >= iterations:
                return outcomes, default

    def _policy_group(
        self, sample: State, legal: Sequence[Move], groups: Sequence[Sequence[int]], seed: int
    ) -> int:
        """The group of the move the policy plays at the root. The policy
        decides from the seat's view, so the sample shows it nothing more."""
        move = self.playouts.policy(random.Random(seed))(sample.clone(random.Random(seed)))
        index = legal.index(move)
        return next(g for g, group in enumerate(groups) if index in group)


def pick(outcomes: Sequence[Sequence[float]], default: int | None) -> int:
    """The candidate to play (module doc): the best mean without a default,
    else the default unless a paired difference clearly beats it."""
    if default is None:
        means = [sum(values) / len(values) for values in outcomes]
        return max(range(len(outcomes)), key=means.__getitem__)  # the first of equals
    best, best_mean = default, 0.0
    for i, values in enumerate(outcomes):
        # Timed out mid-round, a later candidate has one sample fewer: pair
        # only the samples both had (the same ones, in the same order).
        diffs = [x - y for x, y in zip(values, outcomes[default], strict=False)]
        n = len(diffs)
        if i == default or n < MIN_PAIRS:
            continue
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > MARGIN_SE * (variance / n) ** 0.5 and mean > best_mean:
            best, best_mean = i, mean
    return best
