"""The figures of one configuration, from its games' measurements.

Every figure is a plain JSON value (the ``--json`` output and ``balance.json``
hold exactly these), each estimate with its 95% interval, and where the game
has a fair value, the test against it (see :mod:`cardtable.balance.stats`).

Seats and positions: a game's *position* of a seat is its place after the seat
that made the first decision (position 0 moved first). A shared win counts
``1/k`` for each of ``k`` winners, as in the arena, and the fair share of a
seat is ``1/players``. Leading means the highest total, the arena's finishing
order.

Games of one duplicate deal (mixed tables) share their cards; every interval
and test here takes the deals as clusters (:mod:`cardtable.balance.stats`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardtable.balance.measure import HOLES, PHASES, GameMeasure
from cardtable.balance.stats import (
    binomial_test,
    chi_square_test,
    clusters_of,
    design_effect,
    histogram,
    mean_interval,
    percentiles,
    ratio_interval,
    upper_gamma_q,
    wilson_interval,
)
from cardtable.bots.ratings import finishing_ranks
from cardtable.core.game import JSON

QUANTILES = (5, 25, 50, 75, 95)


def spread(values: Sequence[float], deals: Sequence[int], bins: int = 20) -> dict[str, JSON]:
    """Mean with its interval (deals as clusters), spread, percentiles and
    histogram of one quantity, one value per game of deal ``deals[i]``."""
    _, sd, _, _ = mean_interval(values)
    mean, low, high = ratio_interval(*clusters_of(values, deals))
    edges, counts = histogram([round(v) for v in values], bins)
    return {
        "n": len(values),
        "mean": mean,
        "ci95": [low, high],
        "sd": sd,
        "percentiles": dict(zip(map(str, QUANTILES), percentiles(values, QUANTILES), strict=True)),
        "min": min(values, default=0),
        "max": max(values, default=0),
        "histogram": {"edges": edges, "counts": counts},
    }


def share(
    values: Sequence[float], deals: Sequence[int], fair: float | None = None
) -> dict[str, JSON]:
    """The mean of ``values`` (each 0…1, one per game) as a share: Wilson
    interval on the effective number of games, and with ``fair`` the exact
    binomial test against it."""
    n = len(values)
    total = math.fsum(values)
    effective = max(1, round(n / design_effect(values, deals))) if n else 0
    scaled = total * effective / n if n else 0.0
    low, high = wilson_interval(scaled, effective)
    found: dict[str, JSON] = {
        "count": total,
        "of": n,
        "share": total / n if n else 0.0,
        "ci95": [low, high],
        "effective_games": effective,
    }
    if fair is not None:
        found["p_fair"] = binomial_test(scaled, effective, fair)
    return found


def win_table(
    players: int, games: Sequence[GameMeasure], place: Sequence[Sequence[int]]
) -> dict[str, JSON]:
    """Wins and points by place (seat or position), tested against the fair share.

    ``place[g][seat]`` is the place of ``seat`` in game ``g``."""
    wins: list[list[float]] = [[0.0] * len(games) for _ in range(players)]
    points: list[list[float]] = [[0.0] * len(games) for _ in range(players)]
    for g, (game, places) in enumerate(zip(games, place, strict=True)):
        for seat in range(players):
            points[places[seat]][g] = game.scores[seat]
            if seat in game.winners:
                wins[places[seat]][g] = 1 / len(game.winners)
    deals = [g.deal for g in games]
    fair = 1 / players
    rows: list[JSON] = []
    for at in range(players):
        mean, low, high = ratio_interval(*clusters_of(points[at], deals))
        rows.append(
            {**share(wins[at], deals, fair), "points_per_game": mean, "points_ci95": [low, high]}
        )
    n = len(games)
    stat, df, p = chi_square_test([math.fsum(w) for w in wins], [n * fair] * players)
    # Rao-Scott: a chi-square over correlated games, scaled by the mean design effect.
    effect = math.fsum(design_effect(w, deals) for w in wins) / players
    corrected = stat / effect
    p = chi_square_test_p(corrected, df) if effect > 1 else p
    return {
        "fair_share": fair,
        "rows": rows,
        "chi_square": {"statistic": corrected, "df": df, "p": p, "design_effect": effect},
    }


def chi_square_test_p(statistic: float, df: int) -> float:
    """The p-value of a chi-square statistic with ``df`` degrees of freedom."""
    return upper_gamma_q(df / 2, statistic / 2) if df >= 1 else 1.0


def decisiveness(games: Sequence[GameMeasure], lowest_wins: bool = False) -> dict[str, JSON]:
    """Ties, margin of victory, and how often the eventual winner trailed
    (``lowest_wins``: totals are penalties, so ahead means fewer points)."""
    sign = -1 if lowest_wins else 1
    deals = [g.deal for g in games]
    margins, changes, came_back = [], [], []
    longest = max((g.rounds for g in games), default=0)
    # after round r+1 (not the last): 1 if the eventual winner was behind, per game that got there
    trailed: list[tuple[list[float], list[int]]] = [([], []) for _ in range(max(0, longest - 1))]
    for g in games:
        winner = g.winners[0]
        scores = [sign * score for score in g.scores]  # higher is ahead from here on
        others = [s for s in range(len(scores)) if s not in g.winners]
        best_other = max((scores[s] for s in others), default=scores[winner])
        margins.append(scores[winner] - best_other)
        totals = [0] * len(g.scores)
        leader, count, behind = None, 0, False
        for r, round_scores in enumerate(g.round_scores[:-1]):
            totals = [t + sign * s for t, s in zip(totals, round_scores, strict=True)]
            top = max(totals)
            trailed[r][0].append(float(totals[winner] < top))
            trailed[r][1].append(g.deal)
            behind = behind or totals[winner] < top
            sole = [s for s in range(len(totals)) if totals[s] == top]
            if len(sole) == 1:
                count += leader is not None and sole[0] != leader
                leader = sole[0]
        came_back.append(float(behind))
        changes.append(count)
    return {
        "ties": share([float(len(g.winners) > 1) for g in games], deals),
        "margin": spread(margins, deals),
        "winner_trailed": share(came_back, deals),
        "winner_trailed_after_round": [share(values, at) for values, at in trailed],
        "lead_changes": spread(changes, deals),
    }


def round_scores(players: int, games: Sequence[GameMeasure]) -> dict[str, JSON]:
    """Score distributions of single rounds: per seat and over all seats
    (the rounds of one game, and the games of one deal, as clusters)."""
    per_seat: list[list[float]] = [[] for _ in range(players)]
    deals: list[int] = []
    for g in games:
        for scores in g.round_scores:
            deals.append(g.deal)
            for seat, points in enumerate(scores):
                per_seat[seat].append(points)
    overall = [p for seat in per_seat for p in seat]
    return {
        "per_seat": [spread(values, deals) for values in per_seat],
        "overall": spread(overall, deals * players),
    }


def choice(games: Sequence[GameMeasure]) -> dict[str, JSON]:
    """Branching factor and forced share per phase of the round and overall,
    with the deals as clusters for the intervals."""

    def figures(decisions: list[int], legal: list[int], forced: list[int]) -> dict[str, JSON]:
        deals = [g.deal for g in games]
        b, b_low, b_high = ratio_interval(*_by_deal(legal, decisions, deals))
        f, f_low, f_high = ratio_interval(*_by_deal(forced, decisions, deals))
        return {
            "decisions": sum(decisions),
            "branching": b,
            "branching_ci95": [b_low, b_high],
            "forced_share": f,
            "forced_ci95": [max(0.0, f_low), min(1.0, f_high)],
        }

    phases: dict[str, JSON] = {}
    for at, name in enumerate(PHASES):
        phases[name] = figures(
            [g.phase_decisions[at] for g in games],
            [g.phase_legal[at] for g in games],
            [g.phase_forced[at] for g in games],
        )
    overall = figures(
        [sum(g.phase_decisions) for g in games],
        [sum(g.phase_legal) for g in games],
        [sum(g.phase_forced) for g in games],
    )
    return {"phases": phases, "overall": overall}


def _by_deal(
    tops: Sequence[int], bottoms: Sequence[int], deals: Sequence[int]
) -> tuple[list[float], list[float]]:
    """Sums of ``tops`` and of ``bottoms`` per deal."""
    top_sums, _ = clusters_of(tops, deals)
    bottom_sums, _ = clusters_of(bottoms, deals)
    return top_sums, bottom_sums


def skill(
    lineup: Sequence[str], games: Sequence[GameMeasure], lowest_wins: bool = False
) -> dict[str, JSON] | None:
    """Win rate per bot (level) per seat it holds, and level against level
    (``lowest_wins``: totals are penalties); ``None`` when one bot holds every seat."""
    levels = list(dict.fromkeys(lineup))
    if len(levels) < 2:
        return None
    players = len(lineup)
    held = {level: lineup.count(level) for level in levels}
    wins: dict[str, list[float]] = {level: [] for level in levels}
    ahead: dict[tuple[str, str], list[float]] = {(a, b): [] for a in levels for b in levels}
    for g in games:
        ranks = finishing_ranks(g.scores, g.winners, lowest_wins)
        bots = [lineup[entry] for entry in g.seating]
        for level in levels:
            won = sum(1 / len(g.winners) for seat in g.winners if bots[seat] == level)
            wins[level].append(won / held[level])
        for a in levels:
            for b in levels:
                if a == b:
                    continue
                pairs = [
                    ranks[s] < ranks[t]
                    for s in range(players)
                    for t in range(players)
                    if bots[s] == a and bots[t] == b
                ]
                ahead[a, b].append(sum(pairs) / len(pairs))
    deals = [g.deal for g in games]
    rows: list[JSON] = [
        {"bot": level, "seats": held[level], **share(wins[level], deals, 1 / players)}
        for level in levels
    ]
    versus: list[JSON] = [
        {"bot": a, "against": b, **share(ahead[a, b], deals)}
        for a in levels
        for b in levels
        if a != b
    ]
    return {"fair_share": 1 / players, "levels": rows, "ahead": versus}


def config_figures(
    players: int,
    lineup: Sequence[str],
    measures: Sequence[GameMeasure],
    hole_records: dict[int, str],
    lowest_wins: bool = False,
) -> dict[str, JSON]:
    """Every figure of one configuration; ``hole_records`` maps a game's index
    to where its record was saved."""
    done = [m for m in measures if m.finished]
    deals = [m.deal for m in measures]
    by_seat = [list(range(players)) for _ in done]
    by_position = [[(seat - g.first) % players for seat in range(players)] for g in done]
    holes: dict[str, JSON] = {kind: sum(m.end == kind for m in measures) for kind in HOLES}
    holes["games"] = [
        {"game": m.index + 1, "end": m.end, "detail": m.detail, "record": hole_records.get(m.index)}
        for m in measures
        if not m.finished
    ]
    return {
        "games": len(measures),
        "finished": len(done),
        "first_movers": sorted({m.first for m in done}),
        "seats": win_table(players, done, by_seat),
        "positions": win_table(players, done, by_position),
        "length": {
            "rounds": spread([m.rounds for m in measures], deals),
            "decisions": spread([m.decisions for m in measures], deals),
            "turn_limit": share([float(m.end == "turn_limit") for m in measures], deals),
        },
        "decisiveness": decisiveness(done, lowest_wins),
        "scores": round_scores(players, done),
        "choice": choice(measures),
        "skill": skill(lineup, done, lowest_wins),
        "holes": holes,
    }
