"""The policy trainer's bookkeeping that decides what ships (issue 26, item 2).

``benchmarks/train_policy_marshmallow.py`` joins self-play caches made side by
side (``--data A B``) and, with ``--update``, replaces only the player counts
it trained in an existing weights file. A slip in either would hold out the
wrong games or ship a player count nobody retrained, so both are pinned here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def trainer() -> ModuleType:
    path = ROOT / "benchmarks" / "train_policy_marshmallow.py"
    spec = importlib.util.spec_from_file_location("train_policy_marshmallow", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def examples(trainer: ModuleType, games: list[int], marker: float) -> object:
    rows = len(games)
    return trainer.Examples(
        np.full((rows, 3), marker, np.float32),
        np.ones((rows, 65), bool),
        np.zeros((rows, 65), np.float32),
        np.zeros(rows, np.int64),
        np.array(games, np.int64),
    )


def test_joined_caches_number_each_runs_games_after_the_last(trainer: ModuleType) -> None:
    first = {4: examples(trainer, [0, 0, 1], 1.0)}
    second = {4: examples(trainer, [0, 2], 2.0), 2: examples(trainer, [5], 3.0)}
    joined = trainer.join_examples([first, second])
    # The second run's games 0 and 2 become 2 and 4: no game id is shared
    # across runs, so a held-out game is held out whole.
    assert joined[4].game.tolist() == [0, 0, 1, 2, 4]
    assert joined[4].obs[:, 0].tolist() == [1.0, 1.0, 1.0, 2.0, 2.0]
    assert joined[2].game.tolist() == [5]


def test_update_keeps_the_counts_not_trained_and_replaces_the_rest(
    trainer: ModuleType, tmp_path: Path
) -> None:
    out = tmp_path / "policy.npz"
    old = {"format": np.array(1), "2p/w1": np.zeros(2), "4p/w1": np.zeros(2)}
    trainer.write_weights(out, old)
    trainer.write_weights(out, {"format": np.array(1), "4p/w1": np.ones(3)}, update=True)
    with np.load(out) as f:
        assert sorted(f.files) == ["2p/w1", "4p/w1", "format"]
        assert f["2p/w1"].tolist() == [0.0, 0.0]
        assert f["4p/w1"].tolist() == [1.0, 1.0, 1.0]
    trainer.write_weights(out, {"format": np.array(1), "4p/w1": np.ones(1)})
    with np.load(out) as f:  # without --update the file is this run's alone
        assert sorted(f.files) == ["4p/w1", "format"]


def test_update_files_each_runs_labels_under_the_counts_it_trained(
    trainer: ModuleType, tmp_path: Path
) -> None:
    out = tmp_path / "policy.npz"
    # A file of the older layout: one teacher label at the top for every count.
    old = {"format": np.array(1), "teacher": np.array("pimc"), "2p/w1": np.zeros(2)}
    np.savez_compressed(out, **old)  # type: ignore[arg-type]
    new = {"format": np.array(1), "teacher": np.array("pimc-lp"), "4p/w1": np.ones(3)}
    trainer.write_weights(out, new, update=True)
    with np.load(out) as f:
        assert sorted(f.files) == ["2p/teacher", "2p/w1", "4p/teacher", "4p/w1", "format"]
        assert str(f["2p/teacher"]) == "pimc"  # the kept count keeps its own teacher
        assert str(f["4p/teacher"]) == "pimc-lp"
