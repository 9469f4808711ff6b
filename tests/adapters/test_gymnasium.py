"""The Gymnasium adapter passes Gymnasium's env checker and keeps its promises."""

from __future__ import annotations

import runpy
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from cardtable.adapters.gymnasium import CardtableGymEnv, make
from cardtable.bots import UnknownBotError

GAMES = [(name, n) for name in ("marshmallow-test", "myrummy-111") for n in range(2, 6)]
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_check_env(name: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(make(name, seat=players - 1, players=players), skip_render_check=True)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes")  # needs a spec
        check_env(make(name, opponents="random", render_mode="ansi", players=players))


def _episode(e: CardtableGymEnv, seed: int) -> tuple[float, list[Any]]:
    obs, info = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, trace = 0.0, []
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert np.array_equal(obs["action_mask"], e.action_masks())
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        trace.append((action, reward, obs["observation"].tobytes()))
        if terminated or truncated:
            return total, trace


@pytest.mark.parametrize("name", ["marshmallow-test", "myrummy-111"])
def test_points_add_up_to_the_learners_score(name: str) -> None:
    e = make(name, seat=1, opponents=["heuristic", "random"], players=3)
    total, _ = _episode(e, seed=3)
    assert e.state.finished
    assert total == float(e.state.scores[1])
    assert not e.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


@pytest.mark.parametrize("name", ["marshmallow-test", "myrummy-111"])
def test_win_reward_and_round_episodes(name: str) -> None:
    e = make(name, players=3, reward="win")
    total, _ = _episode(e, seed=4)
    winners = e.state.winners
    assert total == pytest.approx(1.0 / len(winners) if 0 in winners else -0.5)
    e = make(name, players=3, episode="round")
    total, _ = _episode(e, seed=4)
    assert total == float(e.state.round_scores[0][0])


def test_same_seed_same_episode() -> None:
    first = _episode(make("marshmallow-test", players=4), seed=8)
    again = _episode(make("marshmallow-test", players=4), seed=8)
    assert first == again


def test_illegal_action_ends_the_episode() -> None:
    e = make("myrummy-111", players=2)
    obs, _ = e.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)


def test_max_steps_truncates() -> None:
    e = make("marshmallow-test", players=2, max_steps=3)
    obs, _ = e.reset(seed=0)
    for step in range(3):
        obs, _, terminated, truncated, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not terminated and truncated == (step == 2)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(UnknownBotError):
        make("marshmallow-test", opponents="genius", players=2)
    with pytest.raises(ValueError, match="opponents"):
        make("marshmallow-test", opponents=["random"], players=3)
    with pytest.raises(ValueError, match="seat"):
        make("marshmallow-test", seat=4, players=4)


def test_example_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(ROOT / "docs" / "examples" / "gymnasium_random.py"), run_name="__main__")
    assert "reward" in capsys.readouterr().out
