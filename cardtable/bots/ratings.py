"""The one rating model: how the arena measures bots and the server rates people.

Both use OpenSkill's Plackett-Luce model with its default configuration
(a newcomer at ``mu`` 25, ``sigma`` 25/3) and give it the same finishing
order (:func:`finishing_ranks`), so a person's rating and a bot's measured
one are numbers on one scale. A bot's **published rating** is what the arena
measured for it (``benchmarks/measure_bot_ratings.py``), shipped inside the
game's package as ``bot_ratings.json``; the server seats bots at that fixed
rating and never changes it.

People see :func:`display_rating`: ``1000 + 10 × ordinal``, where ordinal is
``mu − 3σ`` (the arena report's ``ordinal`` column). A newcomer shows 1000,
and the number only rises as the model becomes surer of a player.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from cardtable.core.registry import manifest

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

BOT_RATINGS_FILE = "bot_ratings.json"  # inside a game's package; see the module
SCHEMA = "cardtable-bot-ratings/1"


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating as the model holds it: the estimate and how unsure it is."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu − 3σ``: a cautious figure, which the arena report prints too."""
        return self.mu - 3 * self.sigma


@cache
def rating_model() -> PlackettLuce:
    """The model every rating goes through (openskill is imported only when asked)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def newcomer() -> Skill:
    """Where everyone starts: the model's default rating."""
    fresh = rating_model().rating()
    return Skill(fresh.mu, fresh.sigma)


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Everyone's rating after one game (each their own team), ``ranks`` 1 best, ties shared.

    The caller keeps whichever of them it updates: the server keeps
    people's and throws away bots' and guests'.
    """
    model = rating_model()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = model.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def display_rating(skill: Skill) -> int:
    """The number a person reads: ``1000 + 10 × (mu − 3σ)``, rounded.

    >>> display_rating(Skill(25.0, 25 / 3))
    1000
    """
    return round(1000 + 10 * skill.ordinal)


def finishing_ranks(
    scores: Sequence[int], winners: Sequence[int], lowest_wins: bool = False
) -> list[int]:
    """Rank per seat, 1 best: winners share rank 1, then by total score (ties
    share), the highest first, or the lowest where totals are penalties.

    A tie the rules break (MR-7.1) is broken here too, since the rules'
    winners come first.

    >>> finishing_ranks([20, 7, 7, 11], [0])
    [1, 3, 3, 2]
    >>> finishing_ranks([60, 60, 10], [1])
    [2, 1, 3]
    >>> finishing_ranks([31, 34, 40], [0], lowest_wins=True)
    [1, 2, 3]
    """
    keys = [
        (seat in winners, -score if lowest_wins else score) for seat, score in enumerate(scores)
    ]
    return [1 + sum(other > key for other in keys) for key in keys]


@cache
def _published(game: str) -> dict[str, Any]:
    package = manifest(game).package
    if package is None:
        return {}
    found = resources.files(package).joinpath(BOT_RATINGS_FILE)
    if not found.is_file():
        return {}
    document: dict[str, Any] = json.loads(found.read_text(encoding="utf-8"))
    return document


def published(game: str, players: int, bot: str) -> tuple[Skill, bool] | None:
    """A bot's published rating for this many players, else for two, and
    whether it was measured (``False``: a level left off the measuring
    ladder, carrying the strongest level below it, a lower bound); ``None``
    where none is published."""
    by_players = _published(game).get("ratings", {})
    for count in (str(players), "2"):
        found = by_players.get(count, {}).get(bot)
        if found is not None:
            return Skill(float(found["mu"]), float(found["sigma"])), bool(
                found.get("measured", True)
            )
    return None


def bot_skill(game: str, players: int, bot: str) -> Skill:
    """The fixed rating a bot plays at: the published one (:func:`published`),
    else (a bot or game never measured) the newcomer's rating."""
    found = published(game, players, bot)
    return newcomer() if found is None else found[0]
