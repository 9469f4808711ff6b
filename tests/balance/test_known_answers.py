"""Known answers on Rigged Table (its docstring gives the rules RT-1…RT-6)."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.balance import plan_run, run_balance
from cardtable.balance.figures import decisiveness
from cardtable.balance.measure import FINISHED, GameMeasure
from cardtable.balance.plan import tasks_of

GAME = "rigged-table"


def figures(games: int, seed: int = 1, **kwargs: Any) -> dict[str, Any]:
    spec = plan_run(GAME, games=games, **kwargs)
    results = run_balance(spec, games=games, seed=seed).results
    (config,) = results["configs"]
    assert isinstance(config, dict)
    return config


def test_rt_1_seat_0_always_wins_gives_full_advantage_with_a_tight_interval() -> None:
    config = figures(200, options={"mode": "seat0"})
    seat0, seat1 = config["seats"]["rows"]
    assert seat0["share"] == 1.0 and seat1["share"] == 0.0
    assert seat0["ci95"][0] > 0.98  # Wilson on 200 games
    assert seat0["p_fair"] < 1e-50
    assert config["seats"]["chi_square"]["p"] < 1e-40


def test_rt_1_position_counts_from_the_seat_that_moved_first() -> None:
    config = figures(40, players=[3], options={"mode": "seat0", "first": 1})
    assert config["first_movers"] == [1]
    # Seat 0 sits two places after seat 1 of three.
    assert [row["share"] for row in config["positions"]["rows"]] == [0.0, 0.0, 1.0]


def test_rt_2_a_coin_flip_gives_the_fair_share_within_every_interval() -> None:
    config = figures(400, players=[4], options={"mode": "coin"})
    for row in config["seats"]["rows"]:
        low, high = row["ci95"]
        assert low < 0.25 < high
        assert row["p_fair"] > 0.05
    assert config["seats"]["chi_square"]["df"] == 3
    assert config["seats"]["chi_square"]["p"] > 0.05
    assert sum(row["count"] for row in config["seats"]["rows"]) == pytest.approx(400)


def test_rt_3_skill_gradient_in_a_mixed_table() -> None:
    config = figures(400, bots=["first", "random"], options={"mode": "skill"})
    levels = {row["bot"]: row for row in config["skill"]["levels"]}
    low, high = levels["first"]["ci95"]
    assert low < 0.75 < high  # 1/2 + 1/2 · 1/2
    assert levels["random"]["share"] == pytest.approx(1 - levels["first"]["share"])
    ahead = {(a["bot"], a["against"]): a["share"] for a in config["skill"]["ahead"]}
    assert ahead["first", "random"] == pytest.approx(levels["first"]["share"])
    # Duplicate deals: each bot held each seat in half of the games.
    assert config["games"] == 400 and config["skill"]["fair_share"] == 0.5


def test_one_bot_at_every_seat_plays_one_deal_per_game() -> None:
    # Rotating identical bots would replay each deal; the coins of RT-2 would repeat.
    spec = plan_run(GAME, games=6, options={"mode": "coin"})

    assert [t.game.deal for t in tasks_of(spec, 1, 6)] == [0, 1, 2, 3, 4, 5]
    mixed = plan_run(GAME, games=6, bots=["first", "random"])
    assert [t.game.deal for t in tasks_of(mixed, 1, 6)] == [0, 0, 1, 1, 2, 2]


def test_fixed_seats_keep_each_bot_at_its_seat() -> None:
    spec = plan_run(GAME, games=4, bots=["first", "random"], fixed_seats=True)

    tasks = tasks_of(spec, 1, 4)
    assert [t.game.seating for t in tasks] == [(0, 1)] * 4
    assert [t.game.deal for t in tasks] == [0, 1, 2, 3]
    # RT-1 with the skilled bot always at seat 0: it wins them all.
    config = run_balance(
        plan_run(
            GAME, games=30, bots=["random", "first"], fixed_seats=True, options={"mode": "seat0"}
        ),
        games=30,
        seed=2,
    ).results["configs"][0]
    assert {r["bot"]: r["share"] for r in config["skill"]["levels"]} == {
        "random": 1.0,
        "first": 0.0,
    }


def test_length_and_choice_of_a_game_of_fixed_length() -> None:
    config = figures(30, players=[3], options={"mode": "coin", "rounds": 4})
    rounds, decisions = config["length"]["rounds"], config["length"]["decisions"]
    assert rounds["mean"] == 4 and rounds["ci95"] == [4, 4] and rounds["percentiles"]["95"] == 4
    assert decisions["mean"] == 12 and decisions["histogram"]["counts"] == [30]
    assert config["length"]["turn_limit"]["share"] == 0
    choice = config["choice"]
    assert choice["overall"]["branching"] == 2.0 and choice["overall"]["forced_share"] == 0.0
    # Three decisions a round: one in each third.
    assert [choice["phases"][p]["decisions"] for p in ("opening", "middle", "ending")] == [120] * 3
    scores = config["scores"]["overall"]
    assert scores["mean"] == pytest.approx(1 / 3)  # one point a round among three seats


def test_decisiveness_of_a_rigged_winner() -> None:
    config = figures(20, options={"mode": "seat0", "rounds": 3})
    decisive = config["decisiveness"]
    assert decisive["ties"]["share"] == 0 and decisive["margin"]["mean"] == 3
    assert decisive["winner_trailed"]["share"] == 0 and decisive["lead_changes"]["mean"] == 0


@pytest.mark.parametrize(
    ("mode", "end", "words"),
    [
        ("endless", "turn_limit", "no end after 10 decisions"),
        ("stuck", "no_legal_move", "seat 1 has no legal move"),
        ("crash", "error", "RuntimeError: RT-6"),
    ],
)
def test_rt_4_to_6_rule_holes_are_counted(mode: str, end: str, words: str) -> None:
    config = figures(8, options={"mode": mode, "rounds": 2}, max_decisions=10)
    holes = config["holes"]
    assert holes[end] == 8 and sum(holes[k] for k in ("turn_limit", "no_legal_move", "error")) == 8
    assert config["finished"] == 0
    assert all(words in game["detail"] for game in holes["games"])
    assert config["length"]["turn_limit"]["share"] == (1.0 if end == "turn_limit" else 0.0)


def test_decisiveness_where_the_lowest_total_wins() -> None:
    """A game of penalty points (``lowest_wins``): seat 1 wins with 4 against 9,
    having trailed after round 1 (5 against 3), one lead change."""
    game = GameMeasure(
        config=0,
        index=0,
        deal=0,
        seating=(0, 1),
        end=FINISHED,
        detail="",
        first=0,
        decisions=10,
        scores=(9, 4),
        round_scores=((3, 5), (6, -1)),
        winners=(1,),
        phase_decisions=(0, 0, 0),
        phase_legal=(0, 0, 0),
        phase_forced=(0, 0, 0),
    )
    penalties = decisiveness([game], lowest_wins=True)
    assert penalties["margin"]["mean"] == 5  # ahead by 5 penalty points
    assert penalties["winner_trailed"]["share"] == 1.0
    read_the_other_way = decisiveness([game])
    assert read_the_other_way["margin"]["mean"] == -5
    assert read_the_other_way["winner_trailed"]["share"] == 0.0
