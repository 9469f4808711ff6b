"""Where arena games run: this process, local worker processes, or a Ray cluster.

Games are sent out in chunks (one job per chunk keeps the per-job overhead
small) and come back in any order; the results are put back in game order
before anyone reads them, so a run's outcome does not depend on ``jobs`` or
on the backend. Ray is imported only when asked for (the ``ray`` extra).

:func:`run_chunks` is the machinery for any picklable work function over
chunks of tasks (the balance lab measures games with its own);
:func:`run_games` is the arena's use of it.
"""

from __future__ import annotations

import importlib
import logging
import math
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import replace
from typing import Any, TypeVar

import cardtable
from cardtable.arena.runner import ArenaSpec, GameResult, GameTask, play_chunk
from cardtable.core.extras import install_command

OnResult = Callable[[GameTask, GameResult], None]

SpecT = TypeVar("SpecT")
TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")
# A worker's job: the run's spec and one chunk of tasks -> one result per task.
Work = Callable[[SpecT, Sequence[TaskT]], list[ResultT]]

# Chunks per worker: enough for a live progress bar and for balancing the load
# across workers, few enough that each job's overhead stays small.
CHUNKS_PER_WORKER = 8
MAX_CHUNK = 64


class RayError(RuntimeError):
    """``--ray`` was asked for but ray cannot be imported or reached."""


def chunked(tasks: Sequence[TaskT], workers: int) -> list[list[TaskT]]:
    """Consecutive chunks, about ``CHUNKS_PER_WORKER`` per worker.

    >>> [len(c) for c in chunked(list(range(10)), workers=1)]
    [2, 2, 2, 2, 2]
    """
    size = max(1, min(MAX_CHUNK, math.ceil(len(tasks) / (max(1, workers) * CHUNKS_PER_WORKER))))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def run_games(
    spec: ArenaSpec,
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    ray_address: str | None = None,
    on_result: OnResult | None = None,
    keep_records: bool = True,
) -> list[GameResult]:
    """Play ``tasks``; results in the order of ``tasks``.

    ``on_result`` is called once per game as results arrive (in any order),
    in this process: the place for a progress bar or for writing records.
    Without ``keep_records`` each record is dropped once ``on_result`` has
    seen it, so a long saved run does not hold every record in memory.
    """
    by_index = {task.index: task for task in tasks}
    results: dict[int, GameResult] = {}

    def collect(pairs: Sequence[tuple[int, GameResult]]) -> None:
        for index, result in pairs:
            if on_result is not None:
                on_result(by_index[index], result)
            if not keep_records and result.record is not None:
                result = replace(result, record=None)
            results[index] = result

    run_chunks(play_chunk, spec, tasks, jobs=jobs, ray_address=ray_address, collect=collect)
    return [results[task.index] for task in tasks]


def run_chunks(
    work: Work[SpecT, TaskT, ResultT],
    spec: SpecT,
    tasks: Sequence[TaskT],
    *,
    jobs: int = 1,
    ray_address: str | None = None,
    collect: Callable[[Sequence[ResultT]], None],
) -> None:
    """Run ``work(spec, chunk)`` over chunks of ``tasks`` here, in ``jobs``
    processes or on Ray; ``collect`` gets each chunk's results in this process,
    in whatever order chunks finish. ``work`` must be a module-level function
    (workers import it by name)."""
    if ray_address is not None:
        _run_ray(work, spec, tasks, ray_address, jobs, collect)
    elif jobs <= 1:
        for task in tasks:
            collect(work(spec, [task]))
    else:
        _run_processes(work, spec, tasks, jobs, collect)


def _run_processes(
    work: Work[SpecT, TaskT, ResultT],
    spec: SpecT,
    tasks: Sequence[TaskT],
    jobs: int,
    collect: Callable[[Sequence[ResultT]], None],
) -> None:
    # "spawn", not "fork": the caller may run threads (a progress bar), and
    # forking a threaded process can deadlock.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: set[Future[list[ResultT]]] = {
            pool.submit(work, spec, chunk) for chunk in chunked(tasks, jobs)
        }
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    collect(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _run_ray(
    work: Work[SpecT, TaskT, ResultT],
    spec: SpecT,
    tasks: Sequence[TaskT],
    address: str,
    jobs: int,
    collect: Callable[[Sequence[ResultT]], None],
) -> None:
    """Fan the chunks out over Ray; ``address`` ``"local"`` starts a local cluster.

    A Ray session that is already initialised (e.g. by a caller or a test) is
    used as it is and left running; its workers must be able to import
    cardtable (installed, or ``runtime_env={"py_modules": [cardtable]}``).
    """
    try:
        # Typed as Any on purpose: ray's own annotations vary between releases.
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise RayError(f"--ray needs ray: {install_command('ray')}") from None
    started = False
    if not ray.is_initialized():
        # Ship this very cardtable with the job, so the cluster's workers need
        # no installed copy of it (nor one of the same version).
        init_args: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.WARNING,
            "runtime_env": {"py_modules": [cardtable]},
        }
        if address == "local":
            if jobs > 1:
                init_args["num_cpus"] = jobs
        else:
            init_args["address"] = address
        try:
            ray.init(**init_args)
        except Exception as exc:  # ray raises several kinds; all mean "no cluster"
            raise RayError(f"--ray {address}: cannot start or join a cluster: {exc}") from None
        started = True
    try:
        workers = int(ray.cluster_resources().get("CPU", 1))
        remote_chunk = ray.remote(work)
        spec_ref = ray.put(spec)
        pending = [remote_chunk.remote(spec_ref, chunk) for chunk in chunked(tasks, workers)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                collect(ray.get(ref))
    finally:
        if started:
            ray.shutdown()
