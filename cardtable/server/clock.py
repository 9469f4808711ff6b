"""The server's clock: wall-clock milliseconds, as the database stores times."""

from __future__ import annotations

import time


def now_ms() -> int:
    return int(time.time() * 1000)
