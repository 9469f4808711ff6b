"""Arena runs on the real engines: fairness, reproducibility, duplicate deals, records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardtable
from cardtable.arena import play_one, run_arena, schedule
from cardtable.arena.report import results_json
from cardtable.core import records


def test_identical_bots_come_out_level() -> None:
    run = run_arena(
        "marshmallow-test", ["random", "random"], games=400, seed=11, options={"players": 2}
    )
    first, second = run.stats.entries
    assert first.games == second.games == 400
    assert first.win_rate + second.win_rate == pytest.approx(1)
    for entry in (first, second):
        low, high = entry.win_rate_ci95
        assert low < 0.5 < high, (entry.label, entry.win_rate)


def test_a_seed_fixes_the_results_whatever_the_jobs() -> None:
    def results(jobs: int, seed: int) -> str:
        run = run_arena(
            "myrummy-111",
            ["heuristic", "random", "random"],
            games=24,
            seed=seed,
            options={"players": 3},
            jobs=jobs,
        )
        return json.dumps(results_json(run.info, run.stats))

    assert results(1, 5) == results(2, 5)
    assert results(1, 5) != results(1, 6)


def test_play_one_is_a_pure_function() -> None:
    args = ("marshmallow-test", {"players": 3}, ["heuristic", "random", "random"], 99, None)
    assert play_one(*args, keep_record=True) == play_one(*args, keep_record=True)


def test_every_bot_sits_in_every_seat_of_each_deal() -> None:
    tasks = schedule(seed=3, games=8, seats=4)
    for deal in (0, 1):
        of_deal = [t for t in tasks if t.deal == deal]
        assert len({t.deal_seed for t in of_deal}) == 1
        for entry in range(4):
            assert sorted(t.seating.index(entry) for t in of_deal) == [0, 1, 2, 3]
    assert tasks[0].deal_seed != tasks[4].deal_seed


@pytest.mark.parametrize(
    ("game_name", "bots"),
    [
        ("marshmallow-test", ["heuristic", "random", "random", "random"]),
        ("myrummy-111", ["heuristic", "random", "random"]),
    ],
)
def test_saved_records_replay_duplicate_deals_with_rotated_players(
    tmp_path: Path, game_name: str, bots: list[str]
) -> None:
    n = len(bots)
    run_arena(game_name, bots, games=2 * n, seed=8, options={"players": n}, save_dir=tmp_path)
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-{i:05d}.json" for i in range(1, 2 * n + 1)]
    saved = [records.loads(f.read_text(encoding="utf-8")) for f in files]
    for deal in range(2):
        group = saved[deal * n : (deal + 1) * n]
        # The same first deal each time, the lineup one seat further round.
        assert all(r["rounds"][0]["deal"] == group[0]["rounds"][0]["deal"] for r in group)
        for rotation, record in enumerate(group):
            assert record["players"] == bots[-rotation:] + bots[:-rotation]
    assert saved[0]["rounds"][0]["deal"] != saved[n]["rounds"][0]["deal"]
    for record in saved:
        outcome = cardtable.replay(record)
        assert outcome.exit_code == 0, outcome.error
        assert outcome.state is not None and outcome.state.finished
