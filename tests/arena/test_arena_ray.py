"""Fan-out over Ray: a local two-CPU cluster gives what local processes give."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

import cardtable
from cardtable.arena import run_arena
from cardtable.arena.report import results_json
from cardtable.cli.main import app

ray = pytest.importorskip("ray", reason='ray is not installed (python3 -m pip install -e ".[ray]")')

BOTS = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    # Ship the package under test: the workers need not find it installed.
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"py_modules": [cardtable]},
    )
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_matches_local_processes(cluster: None) -> None:
    def results(jobs: int = 1, ray_address: str | None = None) -> str:
        run = run_arena(
            "marshmallow-test",
            BOTS,
            games=30,
            seed=21,
            options={"players": 3},
            jobs=jobs,
            ray_address=ray_address,
        )
        return json.dumps(results_json(run.info, run.stats))

    assert results(ray_address="local") == results(jobs=2)


def test_cli_uses_the_running_cluster(cluster: None) -> None:
    args = [
        "arena",
        "myrummy-111",
        "--bots",
        ",".join(BOTS),
        "--games",
        "6",
        "--seed",
        "2",
        "--json",
        "-q",
    ]
    on_ray = CliRunner().invoke(app, [*args, "--ray", "auto"])
    local = CliRunner().invoke(app, args)
    assert on_ray.exit_code == 0, on_ray.stderr
    assert json.loads(on_ray.stdout) == json.loads(local.stdout)
    assert ray.is_initialized()  # a cluster it did not start is left running
