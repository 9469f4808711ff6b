"""A piece of a server process's upkeep that runs every few seconds."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Periodic:
    """Runs ``work`` every ``seconds`` in a task of its own until stopped. A
    failed run is logged and the next one tries again. A failure that
    ``outage`` recognizes (the database away, say) is one warning line: while
    PostgreSQL restarts, a sweep every second would otherwise fill the log
    with the same traceback."""

    def __init__(
        self,
        seconds: float,
        work: Callable[[], Awaitable[object]],
        name: str,
        *,
        outage: Callable[[BaseException], bool] = lambda exc: False,
    ) -> None:
        self.seconds = seconds
        self.work = work
        self.name = name
        self.outage = outage
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
            except Exception as exc:
                if self.outage(exc):
                    log.warning(
                        "%s failed (%s); it runs again in %g s", self.name, exc, self.seconds
                    )
                else:
                    log.exception("%s failed; it runs again in %g s", self.name, self.seconds)
