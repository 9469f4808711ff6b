"""The server's periodic upkeep: a failed run is logged and tried again, and
an outage of the database is one line, not a traceback every second."""

from __future__ import annotations

import asyncio
import logging

import pytest

from cardtable.server.db.storage import unreachable
from cardtable.server.periodic import Periodic
from tests.server.helpers import run_coroutine


async def _run_failing(exc: BaseException, runs: int) -> list[int]:
    calls: list[int] = []

    async def work() -> None:
        calls.append(1)
        raise exc

    periodic = Periodic(0.001, work, "the test sweep", outage=unreachable)
    periodic.start()
    while len(calls) < runs:
        await asyncio.sleep(0.001)
    await periodic.stop()
    return calls


def test_an_unreachable_database_is_one_warning_per_run(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="cardtable.server.periodic"):
        refused = ConnectionRefusedError(111, "Connection refused")
        calls = run_coroutine(_run_failing(refused, runs=3))
    records = [r for r in caplog.records if r.name == "cardtable.server.periodic"]
    assert len(calls) >= 3 and len(records) >= 2  # it kept running after failing
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in records)
    assert "the test sweep failed (" in records[0].getMessage()
    assert "Connection refused" in records[0].getMessage()


def test_any_other_failure_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="cardtable.server.periodic"):
        run_coroutine(_run_failing(ValueError("a bug"), runs=2))
    records = [r for r in caplog.records if r.name == "cardtable.server.periodic"]
    assert records and all(r.levelno == logging.ERROR and r.exc_info is not None for r in records)
