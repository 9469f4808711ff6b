"""The chance of winning the game from the standings at the end of a round.

Playing every sample on to the end of the game would make each value a coin
flip over several more rounds: far too noisy to tell one card from another.
Instead a playout stops when its round ends and reads the seat's chance to
win from this model, which is measured, not guessed: ``WIN_MODEL_GAMES``
games of the evaluator's own policy in every seat (fixed seed), and at each
round's end, for each seat, its score, the best score among the others, the
round, and whether it went on to win (a shared win counts ``1/k``).

A query is the kernel-weighted share of wins among those rows, near in both
scores (a Gaussian kernel, Silverman's bandwidth on the scores) and in the
round (bandwidth half a round). Where fewer than ``MIN_SUPPORT`` rows' worth
of weight stand behind it (standings the policy's games never reached, say
a hand declared unsorted on purpose), the model gives no answer and the
playout plays on to the next round's end, or to the end of the game
(:func:`~cardtable.analysis.playout.play_out`).

Against 300 games played on from given standings (MyRummy 111, 2 players,
after round 1): at 25 to 5 the model says 77%, the games 82%; at 5 to 25,
23% and 19%; at 0 to 40 it gives no answer (the games: 0.3%).

It sees the standings only through (own score, best other score, round), so
it is a summary: what the others' scores are beyond the leader's, and who
deals next, are averaged over as they came in those games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from cardtable.analysis.evaluator import Evaluator
from cardtable.analysis.playout import MAX_MOVES
from cardtable.analysis.seeds import derive_seed
from cardtable.core.game import Game

__all__ = ["WIN_MODEL_GAMES", "WinModel", "fit_win_model", "win_shares"]

WIN_MODEL_GAMES = 600
ROUND_BANDWIDTH = 0.5
MIN_SUPPORT = 5.0


def win_shares(winners: Sequence[int], players: int) -> list[float]:
    """Each seat's share of the win: ``1/k`` for each of ``k`` winners."""
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]


@dataclass
class WinModel:
    """The rows, grouped by (round ended, own score, best other score) into
    ``bins`` of (round, own, other, rows, wins), and the estimate over them
    (module doc). Pure Python with ``math.fsum``, so a query gives the same
    bits in every process."""

    bins: tuple[tuple[int, int, int, int, float], ...]
    bandwidth: float
    _memo: dict[tuple[int, int, int], float | None] = field(default_factory=dict, repr=False)

    @staticmethod
    def from_rows(rows: Sequence[tuple[int, int, int, float]]) -> WinModel:
        grouped: dict[tuple[int, int, int], list[float]] = {}
        for r, own, other, won in rows:
            grouped.setdefault((r, own, other), []).append(won)
        bins = tuple((*key, len(v), math.fsum(v)) for key, v in sorted(grouped.items()))
        return WinModel(bins, _silverman([own for _, own, _, _ in rows]))

    def chance(self, scores: Sequence[int], seat: int, round_ended: int) -> float | None:
        """The seat's estimated chance to win after round ``round_ended``
        ended with totals ``scores`` and the game goes on; ``None`` where the
        model's games never stood (module doc)."""
        own = scores[seat]
        other = max(s for i, s in enumerate(scores) if i != seat)
        key = (round_ended, own, other)
        if key in self._memo:
            return self._memo[key]
        a = 1 / (2 * self.bandwidth**2)
        b = 1 / (2 * ROUND_BANDWIDTH**2)
        weights: list[float] = []
        wins: list[float] = []
        for r, o, x, rows, won in self.bins:
            w = math.exp(-a * ((o - own) ** 2 + (x - other) ** 2) - b * (r - round_ended) ** 2)
            weights.append(w * rows)
            wins.append(w * won)
        support = math.fsum(weights)
        value = math.fsum(wins) / support if support >= MIN_SUPPORT else None
        self._memo[key] = value
        return value


def _spread(values: Sequence[int]) -> float:
    n = len(values)
    if n < 2:
        return 1.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / n)


def _silverman(values: Sequence[int]) -> float:
    """Silverman's rule-of-thumb bandwidth; at least half a point."""
    n = len(values)
    if n < 2:
        return 1.0
    return max(0.5, 1.06 * _spread(values) * math.pow(n, -0.2))


def fit_win_model(
    game: Game, evaluator: Evaluator, *, games: int | None = None, seed: int = 0
) -> WinModel:
    """Play ``games`` (default ``WIN_MODEL_GAMES``) games with ``evaluator``'s
    policy and collect the rows."""
    games = WIN_MODEL_GAMES if games is None else games
    n = game.num_players
    rows: list[tuple[int, int, int, float]] = []
    for g in range(games):
        state = game.new_game(random.Random(derive_seed(seed, "win-model", g, "deal")))
        policy = evaluator.policy(random.Random(derive_seed(seed, "win-model", g, "policy")))
        ended: list[tuple[int, tuple[int, ...]]] = []
        round_number = state.round_number
        for _ in range(MAX_MOVES * 10):
            if state.finished:
                break
            state.apply(policy(state))
            if state.round_number != round_number and not state.finished:
                ended.append((round_number, tuple(state.scores)))
                round_number = state.round_number
        if not state.finished:
            continue  # a game the policy never finished teaches nothing
        shares = win_shares(state.winners, n)
        for r, scores in ended:
            for s in range(n):
                other = max(x for i, x in enumerate(scores) if i != s)
                rows.append((r, scores[s], other, shares[s]))
    return WinModel.from_rows(rows)
