"""Runs: the same figures over any number of jobs, and after an interrupted run resumes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.balance import BalanceError, parse_sweep, plan_run, run_balance
from cardtable.balance.plan import CHUNK, BalanceSpec

GAME = "rigged-table"


def spec(games: int) -> BalanceSpec:
    return plan_run(
        GAME,
        players=[2, 3],
        options={"mode": "skill"},
        sweeps=[parse_sweep("rounds=1,3")],
        bots=None,
        games=games,
    )


def test_the_same_figures_over_any_number_of_jobs() -> None:
    mixed = plan_run(
        GAME, options={"mode": "skill", "rounds": 2}, bots=["first", "random"], games=40
    )
    one = run_balance(mixed, games=40, seed=7, jobs=1).results
    two = run_balance(mixed, games=40, seed=7, jobs=2).results
    assert json.dumps(one) == json.dumps(two)
    assert one["configs"][0]["skill"] is not None


def test_a_sweep_is_every_player_count_times_every_value() -> None:
    results = run_balance(spec(4), games=4, seed=3).results
    labels = [c["label"] for c in results["configs"]]
    assert labels == [
        "players=2 rounds=1",
        "players=2 rounds=3",
        "players=3 rounds=1",
        "players=3 rounds=3",
    ]
    assert results["varied"] == ["players", "rounds"]
    assert [c["length"]["rounds"]["mean"] for c in results["configs"]] == [1, 3, 1, 3]


def test_an_interrupted_run_resumes_to_the_figures_of_an_uninterrupted_one(tmp_path: Path) -> None:
    games = 2 * CHUNK + 10
    whole = run_balance(spec(games), games=games, seed=5).results
    counted = 0

    def stop_midway(count: int) -> None:
        nonlocal counted
        counted += count
        if counted > CHUNK + 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_balance(spec(games), games=games, seed=5, save_dir=tmp_path, on_progress=stop_midway)
    assert len(list((tmp_path / "chunks").glob("*.json"))) == 1  # only the finished chunk
    resumed = run_balance(spec(games), games=games, seed=5, save_dir=tmp_path)
    assert resumed.resumed == CHUNK
    assert json.dumps(resumed.results) == json.dumps(whole)
    again = run_balance(spec(games), games=games, seed=5, save_dir=tmp_path, jobs=2)
    assert again.resumed == 4 * games  # everything was saved: nothing is played again
    assert json.dumps(again.results) == json.dumps(whole)


def test_a_save_dir_of_another_run_is_refused(tmp_path: Path) -> None:
    run_balance(spec(4), games=4, seed=5, save_dir=tmp_path)
    with pytest.raises(BalanceError, match=r"holds another run \(it differs in games, seed\)"):
        run_balance(spec(6), games=6, seed=6, save_dir=tmp_path)


def test_a_swept_option_that_sets_the_player_count_sets_it_per_configuration() -> None:
    """As ``-o hand_sizes=[12,14]`` alone plays two players (MR-9), each swept list
    plays as many players as it has sizes; ``-p`` and ``players=`` still decide."""
    swept = [parse_sweep("hand_sizes=[12,12],[12,14,13]")]
    planned = plan_run("myrummy-111", sweeps=swept, games=1)
    assert [dict(c.varied) for c in planned.configs] == [
        {"players": 2, "hand_sizes": [12, 12]},
        {"players": 3, "hand_sizes": [12, 14, 13]},
    ]
    with pytest.raises(BalanceError, match=r"--sweep hand_sizes=\[12, 12\]: .*3 integers"):
        plan_run("myrummy-111", options={"players": 3}, sweeps=swept, games=1)
    with pytest.raises(BalanceError, match=r"--sweep hand_sizes=\[12, 14, 13\]: .*2 integers"):
        plan_run("myrummy-111", players=[2], sweeps=swept, games=1)
