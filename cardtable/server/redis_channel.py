"""Listening to one Redis channel for as long as a process runs: the
messages are handed over one at a time, and the channel is subscribed to
again whenever Redis goes away (what was published meanwhile is lost: every
listener here has another way to learn it, only later)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5  # between two attempts to subscribe while Redis is away


async def listen(
    redis: aioredis.Redis, channel: str, handle: Callable[[bytes], Awaitable[None]]
) -> None:
    """Hand each message of ``channel`` to ``handle``, until cancelled."""
    while True:
        pubsub = redis.pubsub()
        try:
            await pubsub.subscribe(channel)
            async for message in pubsub.listen():
                if message["type"] == "message":
                    await handle(message["data"])
        except (RedisError, OSError) as exc:
            log.warning("Redis (%s): %s; subscribing again", channel, exc)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
        await asyncio.sleep(RETRY_SECONDS)
