"""The arena's numbers on inputs whose answers are known by hand."""

from __future__ import annotations

import pytest

from cardtable.arena.runner import GameResult, GameTask
from cardtable.arena.stats import aggregate, entry_labels, wilson_interval
from cardtable.bots.ratings import finishing_ranks


def game(
    index: int,
    seating: tuple[int, ...],
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    rounds: int = 1,
) -> tuple[GameTask, GameResult]:
    task = GameTask(index, index, 0, seating, deal_seed=0, bot_seed=0)
    per_round = tuple(tuple(0 for _ in scores) for _ in range(rounds))
    result = GameResult(("x",) * len(scores), scores, per_round, winners, decisions=1)
    return task, result


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (5, 10, 0.236593, 0.763407),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (50, 100, 0.403832, 0.596168),
        (1, 20, 0.008881, 0.236131),
    ],
)
def test_wilson_interval_matches_known_values(
    successes: int, trials: int, low: float, high: float
) -> None:
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=1e-6)


def test_wilson_interval_takes_fractional_wins() -> None:
    low, high = wilson_interval(2.5, 5)
    assert low < 0.5 < high
    assert low == pytest.approx(1 - high)


def test_labels_number_only_repeated_names() -> None:
    assert entry_labels(["ismcts", "heuristic", "heuristic", "heuristic"]) == [
        "ismcts",
        "heuristic#1",
        "heuristic#2",
        "heuristic#3",
    ]


def test_winners_rank_first_even_on_equal_scores() -> None:
    # MR-7.1: equal totals, the tie broken by the last round: seat 1 won.
    assert finishing_ranks([60, 60, 10], [1]) == [2, 1, 3]
    assert finishing_ranks([60, 60, 10], [0, 1]) == [1, 1, 3]


def test_head_to_head_and_wins_by_hand() -> None:
    # Entries A, B, C. Seating maps seat -> entry.
    played = [
        game(0, (0, 1, 2), (20, 5, 5), (0,)),  # A ahead of B and C; B, C level
        game(1, (1, 2, 0), (20, 9, 3), (0,)),  # B > C > A
        game(2, (2, 0, 1), (7, 7, 2), (0, 1)),  # C and A share the win; both ahead of B
    ]
    stats = aggregate(["A", "B", "C"], played, rate=False)
    assert stats.ahead == [
        [0, 2, 1],  # A ahead of B in games 0, 2; of C in game 0
        [1, 0, 1],  # B ahead of A in 1; of C in 1
        [1, 1, 0],  # C ahead of A in 1 (9 > 3); of B in 2
    ]
    assert stats.together == [[0, 3, 3], [3, 0, 3], [3, 3, 0]]
    assert stats.ahead_rate(0, 1) == pytest.approx(2 / 3)
    assert stats.ahead_rate(1, 1) is None
    assert [e.wins for e in stats.entries] == [1.5, 1.0, 0.5]
    assert sum(e.wins for e in stats.entries) == 3
    assert [e.points for e in stats.entries] == [20 + 3 + 7, 5 + 20 + 2, 5 + 9 + 7]


def test_points_per_round_counts_each_games_rounds() -> None:
    played = [game(0, (0, 1), (10, 4), (0,), rounds=2), game(1, (1, 0), (6, 6), (1,), rounds=4)]
    a, b = aggregate(["A", "B"], played, rate=False).entries
    assert a.points_per_round == pytest.approx(16 / 6)
    assert a.points_per_game == pytest.approx(8)
    assert b.points_per_round == pytest.approx(10 / 6)


def test_ratings_put_the_steady_winner_on_top() -> None:
    played = [
        game(
            i, (i % 2, 1 - i % 2), (20, 3) if i % 2 == 0 else (3, 20), (0,) if i % 2 == 0 else (1,)
        )
        for i in range(20)
    ]
    a, b = aggregate(["A", "B"], played).entries
    assert a.rating is not None and b.rating is not None
    assert a.rating.mu > 25 > b.rating.mu
    assert a.rating.ordinal == pytest.approx(a.rating.mu - 3 * a.rating.sigma)
