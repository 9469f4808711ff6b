"""A piece of a server process's upkeep that runs every few seconds."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Periodic:
    """Runs ``work`` every ``seconds`` in a task of its own until stopped. A
    failed run (the database away) is logged and the next one tries again."""

    def __init__(self, seconds: float, work: Callable[[], Awaitable[object]], name: str) -> None:
        self.seconds = seconds
        self.work = work
        self.name = name
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                await self.work()
            except Exception:
                log.exception("%s failed; it runs again in %g s", self.name, self.seconds)
