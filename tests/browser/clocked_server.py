"""An in-process server for browser tests whose clock the test drives.

``cardtable serve`` in a subprocess (tests/browser/helpers.py ``Server``)
reads the real clock, so a turn-based table's day-long move times would mean
waiting days. This one runs the same app under uvicorn in a thread of the
test's process, with ``Limits.clock`` an object the test moves, and runs the
lobby sweep and the notice sender when the test says so, on the server's own
event loop. It listens on one fixed port for its whole life: after
:meth:`ClockedServer.restart` (stop, then start on the same database file)
the pages that were open reconnect by themselves, as after a real restart.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any, TypeVar

import uvicorn
from starlette.applications import Starlette

from cardtable.server.app import create_app
from cardtable.server.live.hub import Hub
from cardtable.server.settings import Settings
from tests.server.processes import free_port

START_LIMIT_S = 60.0  # a bound on waiting for the server to listen, not a timing check
CALL_LIMIT_S = 60.0  # a bound on one sweep or send, not a timing check
STOP_GRACE_S = 10  # uvicorn's bound on closing open sockets at a stop

T = TypeVar("T")


class ClockedServer:
    """``create_app(settings)`` served on 127.0.0.1 at a port fixed at creation.

    ``settings`` should carry the test's clock in ``settings.limits.clock``
    and a file database (``sqlite+aiosqlite:///…``), so that a restart finds
    its tables, accounts and session secret again."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._app: Starlette | None = None
        self._server: uvicorn.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None

    @property
    def app(self) -> Starlette:
        assert self._app is not None, "the server is not running"
        return self._app

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def start(self) -> None:
        """A fresh app on the same database (and port); returns once it listens."""
        assert self._thread is None, "already running"
        self._app = create_app(self.settings)
        config = uvicorn.Config(
            self._app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            http="h11",  # as `cardtable serve`
            timeout_graceful_shutdown=STOP_GRACE_S,
        )
        self._server = uvicorn.Server(config)
        self._loop = asyncio.new_event_loop()
        self._failure = None
        # uvicorn installs no signal handlers outside the main thread: a
        # stop is `should_exit`, as its own handler would set.
        self._thread = threading.Thread(target=self._serve, name="clocked-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_LIMIT_S
        while not self._server.started:
            if not self._thread.is_alive():
                self._thread = None
                raise RuntimeError(f"the server did not start: {self._failure!r}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not listen within {START_LIMIT_S} s")
            time.sleep(0.05)

    def _serve(self) -> None:
        assert self._loop is not None and self._server is not None
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._server.serve())
        except BaseException as exc:  # reported by start(), not lost in the thread
            self._failure = exc
        finally:
            self._loop.close()

    def stop(self) -> None:
        """uvicorn's graceful stop (open sockets closed with 1012, the app's
        shutdown stores what is queued), as on SIGTERM."""
        if self._thread is None or self._server is None:
            return
        self._server.should_exit = True
        self._thread.join()
        self._thread = None
        self._server = None
        self._loop = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def call(self, job: Callable[[], Awaitable[T]]) -> T:
        """``await job()`` on the server's loop; its result."""
        assert self._loop is not None, "the server is not running"

        async def run() -> T:
            return await job()

        done: Future[T] = asyncio.run_coroutine_threadsafe(run(), self._loop)
        return done.result(timeout=CALL_LIMIT_S)

    def sweep(self) -> None:
        """One lobby sweep now: expiry, deadlines, parking (live/lifecycle.py)."""
        self.call(self.app.state.lifecycle.sweep)

    def send_due(self) -> int:
        """The notice sender's run now; how many mails went out."""
        sent: int = self.call(self.app.state.notices.send_due)
        return sent

    def holds(self, table_id: str) -> bool:
        """Whether ``table_id`` is in memory (not parked, not unloaded)."""
        return table_id in self.hub.tables

    def __enter__(self) -> ClockedServer:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
