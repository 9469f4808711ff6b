"""Turning arena games into numbers: win rates with confidence, head-to-head, ratings.

Bots are counted per *entry* (their position in ``--bots``), not per name, so
two copies of the same bot are measured apart — which is also how a run checks
itself: identical entries should come out level.

The finishing order of a game is the game's own: its winners first (a shared
win counts ``1/k`` for each of ``k`` winners), then everyone else by total
score. "Ahead" in the head-to-head and the ranks given to the ratings both use
that order, so a tie broken by the rules (MR-7.1) counts as broken.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.arena.runner import GameResult, GameTask
from cardtable.bots.ratings import finishing_ranks, rating_model

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``successes`` may be fractional).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 and
    ``trials`` successes, which is where strong or weak bots end up.

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


def entry_labels(bots: Sequence[str]) -> list[str]:
    """Names for the entries: as given, numbered ``#k`` where a name repeats.

    >>> entry_labels(["ismcts", "heuristic", "random", "heuristic"])
    ['ismcts', 'heuristic#1', 'random', 'heuristic#2']
    """
    counts = {name: bots.count(name) for name in bots}
    seen: dict[str, int] = {}
    labels = []
    for name in bots:
        if counts[name] == 1:
            labels.append(name)
        else:
            seen[name] = seen.get(name, 0) + 1
            labels.append(f"{name}#{seen[name]}")
    return labels


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class EntryStats:
    """One entry's totals over the run."""

    entry: int
    bot: str  # the name as given in --bots
    label: str  # unique: the name, numbered where it repeats
    games: int
    wins: float
    points: int
    rounds: int
    rating: Rating | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def points_per_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class ArenaStats:
    """Everything the report shows. ``ahead[i][j]``: games entry i finished ahead
    of entry j; ``together[i][j]``: games both played."""

    entries: list[EntryStats]
    ahead: list[list[int]]
    together: list[list[int]]

    def ahead_rate(self, i: int, j: int) -> float | None:
        """How often entry i finished ahead of entry j (``None`` if never met)."""
        if i == j or not self.together[i][j]:
            return None
        return self.ahead[i][j] / self.together[i][j]


def aggregate(
    bots: Sequence[str],
    played: Sequence[tuple[GameTask, GameResult]],
    *,
    rate: bool = True,
    lowest_wins: bool = False,
) -> ArenaStats:
    """The run's statistics from its games, which must be in game order
    (the ratings are sequential, so order matters for them); ``lowest_wins``:
    the game's totals are penalties (its manifest says)."""
    n = len(bots)
    games = [0] * n
    wins = [0.0] * n
    points = [0] * n
    rounds = [0] * n
    ahead = [[0] * n for _ in range(n)]
    together = [[0] * n for _ in range(n)]
    for task, result in played:
        seats = {entry: seat for seat, entry in enumerate(task.seating)}
        ranks = finishing_ranks(result.scores, result.winners, lowest_wins)
        for entry, seat in seats.items():
            games[entry] += 1
            points[entry] += result.scores[seat]
            rounds[entry] += len(result.round_scores)
            if seat in result.winners:
                wins[entry] += 1 / len(result.winners)
            for other, other_seat in seats.items():
                if other != entry:
                    together[entry][other] += 1
                    ahead[entry][other] += ranks[seat] < ranks[other_seat]
    ratings = rate_entries(n, played, lowest_wins) if rate else [None] * n
    labels = entry_labels(bots)
    entries = [
        EntryStats(i, bots[i], labels[i], games[i], wins[i], points[i], rounds[i], ratings[i])
        for i in range(n)
    ]
    return ArenaStats(entries, ahead, together)


def rate_entries(
    entries: int, played: Sequence[tuple[GameTask, GameResult]], lowest_wins: bool = False
) -> list[Rating | None]:
    """OpenSkill ratings (the server's model, :func:`rating_model`), each game
    rated by its finishing ranks."""
    model = rating_model()
    current = [model.rating() for _ in range(entries)]
    for task, result in played:
        ranks = [
            float(rank) for rank in finishing_ranks(result.scores, result.winners, lowest_wins)
        ]
        teams = [[current[entry]] for entry in task.seating]
        rated = model.rate(teams, ranks=ranks)
        for seat, entry in enumerate(task.seating):
            current[entry] = rated[seat][0]
    return [Rating(r.mu, r.sigma, r.ordinal()) for r in current]
