"""The limits of :mod:`cardtable.server.guard.limits` counted in Redis, so that
several processes (``cardtable serve --redis``) share one count per client.

Each window of a client is a sorted set ``cardtable:limit:<window>:<client>``
of its events scored by their time in milliseconds, expiring a minute after
the last one: a sliding one-minute window like the in-memory one. Checking
and counting is one Lua script, so two processes counting the same client at
once cannot both slip under the limit. Times come from each process's clock
(the machines of a deployment keep theirs in step, as every server does).

While Redis cannot be reached, each process counts in its own memory again
(the limits then hold per process, as with one process) rather than refusing
everybody or letting everybody through.
"""

from __future__ import annotations

import logging
import secrets

import redis.asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["SharedWindows"]

log = logging.getLogger(__name__)

PREFIX = "cardtable:limit:"

# KEYS[1] the window; ARGV: now (ms), the window's length (ms), the limit,
# a member naming this event, counted when under the limit.
# Answers the time of the oldest event in the window when the client is at
# its limit (it may act again a window after it), else nothing.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return false
"""


class SharedWindows:
    """Sliding one-minute windows of every process, in one Redis."""

    def __init__(self, redis: aioredis.Redis, window_seconds: float) -> None:
        self.redis = redis
        self.window_ms = int(window_seconds * 1000)
        self._take = redis.register_script(_TAKE)

    async def wait(self, window: str, client: str, limit: int, now: float) -> float | None:
        """Seconds until ``client`` may act again in ``window`` (0: it may now,
        and then the act is counted); ``None`` when Redis cannot be reached
        (the caller counts in memory)."""
        now_ms = int(now * 1000)
        try:
            oldest = await self._take(
                keys=[PREFIX + window + ":" + client],
                args=[now_ms, self.window_ms, limit, _member(now_ms)],
            )
        except RedisError as exc:
            _unreachable(exc)
            return None
        if oldest is None:
            return 0.0
        return max((float(oldest) + self.window_ms - now_ms) / 1000, 0.001)

    async def drop_last(self, window: str, client: str) -> bool:
        """Take back the latest act of ``client`` in ``window``; whether Redis
        could be reached."""
        try:
            await self.redis.zpopmax(PREFIX + window + ":" + client)
        except RedisError as exc:
            _unreachable(exc)
            return False
        return True


def _member(now_ms: int) -> str:
    """A name for one event: events in the same millisecond are still two."""
    return f"{now_ms}:{secrets.token_hex(6)}"


def _unreachable(exc: RedisError) -> None:
    log.warning("counting limits in this process's memory: Redis failed (%s)", exc)
