"""The self-play example (docs/examples/selfplay_reinforce.py): every agent's
return reaches the learner, and the script runs end to end."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from cardtable.adapters.pettingzoo import env

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "selfplay_reinforce.py"


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    return runpy.run_path(str(EXAMPLE))


def _random(rng: np.random.Generator) -> Any:
    return lambda _agent, obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def test_every_agent_gets_its_own_final_reward(example: dict[str, Any]) -> None:
    """reward="win" over one round: the winners' +1/k and the others' share of
    -1 reach each agent, so the returns sum to 0 and name the round's winners."""
    e = env("marshmallow-test", players=3, reward="win", episode="round")
    for seed in range(20):
        steps, returns = example["play"](e, seed, _random(np.random.default_rng(seed)))
        points = e.unwrapped.state.round_scores[0]
        best = max(points)
        winners = [s for s, p in enumerate(points) if p == best]
        assert sum(returns.values()) == pytest.approx(0.0)
        for seat, agent in enumerate(e.possible_agents):
            expected = (
                0.0
                if len(winners) == 3
                else (1 / len(winners) if seat in winners else -1 / (3 - len(winners)))
            )
            assert returns[agent] == pytest.approx(expected)
            assert steps[agent]  # every seat played


def test_the_mover_only_pitfall_loses_rewards(example: dict[str, Any]) -> None:
    e = env("marshmallow-test", players=3, reward="win", episode="round")
    lost = 0
    for seed in range(20):
        _, full = example["play"](e, seed, _random(np.random.default_rng(seed)))
        _, mover = example["mover_only"](e, seed, _random(np.random.default_rng(seed)))
        assert sum(v != 0 for v in mover.values()) <= 1  # only the last mover's reward
        lost += mover != full
    assert lost >= 10


def test_the_example_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--episodes", "20", "--eval", "10"])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert out.count("of 10 rounds against 2 random players") == 2
    assert "trained on 20 self-play rounds" in out
