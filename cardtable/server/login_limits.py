"""How long a name or an address must wait after failed sign-ins: a delay that grows.

The first :data:`FREE_FAILURES` failures cost nothing (typing mistakes);
after that each one doubles the wait, up to :data:`MAX_DELAY_MS`. A success
clears the name's count, and so does a quiet spell of :data:`FORGET_MS` (an
address many people share is not blocked for ever). The counts live in
``ct_login_limits``, so they hold across a restart.
"""

from __future__ import annotations

FREE_FAILURES = 5
FIRST_DELAY_MS = 1_000
MAX_DELAY_MS = 15 * 60 * 1000
FORGET_MS = 24 * 60 * 60 * 1000


def failures_so_far(failures: int, last_ms: int, now_ms: int) -> int:
    """The count a new failure adds to: none after a quiet spell."""
    return 0 if now_ms - last_ms >= FORGET_MS else failures


def delay_ms(failures: int) -> int:
    """The wait after ``failures`` failed attempts in a row."""
    if failures < FREE_FAILURES:
        return 0
    return min(MAX_DELAY_MS, FIRST_DELAY_MS << min(failures - FREE_FAILURES, 30))


def wait_ms(failures: int, last_ms: int, now_ms: int) -> int:
    """How much longer one must wait before the next attempt (0: it may go ahead)."""
    return max(0, last_ms + delay_ms(failures) - now_ms)
