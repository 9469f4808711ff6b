"""The server's log: one line per record, with its time, level, process and table.

``cardtable serve`` hands :func:`log_config` to uvicorn, which applies it
with :func:`logging.config.dictConfig`: every logger (uvicorn's and the
server's) writes to standard error, warnings and worse, as text

    2026-12-04T20:51:07.123Z ERROR pid=4242 table=Tk3x cardtable.server.live.play: …

or, with ``--log-json``, as one JSON object a line (``time``, ``level``,
``process``, ``table``, ``logger``, ``message`` and, for an error with a
traceback, ``exception``). The table is the one the request or socket being
served is about (:class:`TableContext` reads it from the path), and tasks
started while serving it (bots, timers) inherit it; ``-`` (``null`` in JSON)
where there is none.
"""

from __future__ import annotations

import json
import logging
import re
import time
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

TABLE: ContextVar[str | None] = ContextVar("cardtable_table", default=None)
# The paths that name a table: its page, its API and its socket.
_TABLE_PATH = re.compile(r"/(?:t|ws|api/tables)/(?P<id>[A-Za-z0-9_-]{1,40})(?:/|$)")


class TableContext:
    """The middleware that makes the table a request names :data:`TABLE`
    while it is served."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _TABLE_PATH.match(scope.get("path", ""))
        if found is None:
            await self.app(scope, receive, send)
            return
        token = TABLE.set(found["id"])
        try:
            await self.app(scope, receive, send)
        finally:
            TABLE.reset(token)


class TableField(logging.Filter):
    """Puts the table being served on each record, as ``table``."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.table = TABLE.get()
        return True


def utc_time(record: logging.LogRecord) -> str:
    """The record's time: ISO 8601 in UTC, to the millisecond."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{stamp}.{int(record.msecs):03d}Z"


class TextLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        table = getattr(record, "table", None) or "-"
        line = (
            f"{utc_time(record)} {record.levelname} pid={record.process} table={table}"
            f" {record.name}: {record.getMessage()}"
        )
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        return line


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": utc_time(record),
            "level": record.levelname,
            "process": record.process,
            "table": getattr(record, "table", None),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def log_config(json_lines: bool = False, level: str = "WARNING") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` dictionary: every logger to
    standard error at ``level`` and above, as text or JSON lines."""
    formatter = JsonLines if json_lines else TextLines
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"table": {"()": TableField}},
        "formatters": {"line": {"()": formatter}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "line",
                "filters": ["table"],
            }
        },
        # uvicorn's loggers lose the handlers of its own configuration and
        # reach the root's, like the server's.
        "loggers": {
            name: {"handlers": [], "level": level, "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
        "root": {"handlers": ["stderr"], "level": level},
    }
