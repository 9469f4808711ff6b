"""The quick-match queue of several processes (``cardtable serve --redis``),
in Redis: any process answers any ``/api/quick`` request and matches any
queue, with the rules of :mod:`cardtable.server.quick.match`.

Keys, all under ``cardtable:quick:``:

- ``e:<ticket>``: one entry, a hash: ``data`` (what it asked for, as JSON),
  ``queue``, ``client``, ``account``, ``joined``; ``taken`` (the take seating
  it) while its table is made; ``seated`` (its seat, token and table, as
  JSON) once it is;
- ``waiting:<players>:<game>``: the entries free to be seated, a sorted set
  by the time they joined; ``queues``: the names of those sets;
- ``seen`` (unseated entries, by the time their person last asked),
  ``taken`` (by the time they were taken) and ``seated`` (by the time they
  were seated), sorted sets that find what to prune without a walk;
- ``client:<address>``: the address's entries not yet seated (its limit);
  ``account:<id>``: the account's entry;
- ``version``: a counter moved by every arrival, departure and take;
- the channel ``changed`` carries the ticket of every entry seated or dropped.

Each change is one Lua script, so it is atomic across processes: a join
checks the limits and adds; a take removes a whole group from the waiting
sets, or nothing if another process took one of them first; a seat is
stored only under the take that seated it. A process that dies between a
take and its seat leaves its take to run out (:data:`TAKE_SECONDS`): the
people wait again. Each process listens to ``changed`` and wakes its long
polls of those tickets; a poll looks again every second whatever it heard.

Redis holds nothing durable: after a Redis restart every ticket is unknown
(404) and its page asks its person to press Play now again; while Redis is
away the queue answers 503. A long poll in flight keeps its entry fresh by
asking every second (the memory store counts its polls instead: a dead
process's count would keep its entries forever here).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from cardtable.server.accounts.accounts import Account
from cardtable.server.quick.store import Entry, QueueStore, Refusal, Seated
from cardtable.server.redis_channel import listen
from cardtable.server.wire import BadInput

log = logging.getLogger(__name__)

PREFIX = "cardtable:quick:"
CHANNEL = PREFIX + "changed"
TAKE_SECONDS = 10.0  # a take not seated by then (its process died) puts its people back

# Shared by the scripts below (each is sent with it): drop one entry and
# every trace of it; put a taken entry back among the waiting.
_LIB = f"""
local P = '{PREFIX}'
local function drop(t)
  local e = P .. 'e:' .. t
  local f = redis.call('HMGET', e, 'queue', 'client', 'account')
  if not f[1] then return end
  redis.call('ZREM', P .. 'waiting:' .. f[1], t)
  redis.call('ZREM', P .. 'seen', t)
  redis.call('ZREM', P .. 'taken', t)
  redis.call('ZREM', P .. 'seated', t)
  redis.call('SREM', P .. 'client:' .. f[2], t)
  if f[3] ~= '' and redis.call('GET', P .. 'account:' .. f[3]) == t then
    redis.call('DEL', P .. 'account:' .. f[3])
  end
  redis.call('DEL', e)
  redis.call('INCR', P .. 'version')
  redis.call('PUBLISH', P .. 'changed', t)
end
local function put_back(t)
  local e = P .. 'e:' .. t
  local f = redis.call('HMGET', e, 'queue', 'joined')
  redis.call('HDEL', e, 'taken')
  redis.call('ZREM', P .. 'taken', t)
  redis.call('ZADD', P .. 'waiting:' .. f[1], f[2], t)
  redis.call('SADD', P .. 'queues', f[1])
  redis.call('INCR', P .. 'version')
end
"""

# ARGV: ticket, queue, client, account ('' for a guest), data, joined, now,
# the limit per client, the most entries. Answers nothing when added, else
# {'client', its count} or {'full', the count}.
_ADD = """
local t, q, c, a = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if a ~= '' then
  local old = redis.call('GET', P .. 'account:' .. a)
  if old then drop(old) end
end
local mine = redis.call('SCARD', P .. 'client:' .. c)
if mine >= tonumber(ARGV[8]) then return {'client', mine} end
local all = redis.call('ZCARD', P .. 'seen') + redis.call('ZCARD', P .. 'seated')
if all >= tonumber(ARGV[9]) then return {'full', all} end
redis.call('HSET', P .. 'e:' .. t, 'data', ARGV[5], 'queue', q, 'client', c,
           'account', a, 'joined', ARGV[6])
redis.call('ZADD', P .. 'waiting:' .. q, ARGV[6], t)
redis.call('SADD', P .. 'queues', q)
redis.call('ZADD', P .. 'seen', ARGV[7], t)
redis.call('SADD', P .. 'client:' .. c, t)
if a ~= '' then redis.call('SET', P .. 'account:' .. a, t) end
redis.call('INCR', P .. 'version')
return false
"""

# ARGV: ticket, now. Answers {data, seated or nil} of a known entry (its
# time seen moved to now while it is not seated), else nil.
_SEEN = """
local e = P .. 'e:' .. ARGV[1]
local f = redis.call('HMGET', e, 'data', 'seated')
if not f[1] then return false end
redis.call('ZADD', P .. 'seen', 'XX', ARGV[2], ARGV[1])
return f
"""

_DROP = """
if redis.call('EXISTS', P .. 'e:' .. ARGV[1]) == 0 then return 0 end
drop(ARGV[1])
return 1
"""

# ARGV: now, seconds stale, seconds a seat is kept, seconds a take lasts.
_PRUNE = """
local now = tonumber(ARGV[1])
for _, t in ipairs(redis.call('ZRANGEBYSCORE', P .. 'taken', '-inf', now - tonumber(ARGV[4]))) do
  put_back(t)
end
for _, t in ipairs(redis.call('ZRANGEBYSCORE', P .. 'seen', '-inf', now - tonumber(ARGV[2]))) do
  if not redis.call('ZSCORE', P .. 'taken', t) then drop(t) end
end
for _, t in ipairs(redis.call('ZRANGEBYSCORE', P .. 'seated', '-inf', now - tonumber(ARGV[3]))) do
  drop(t)
end
return false
"""

# Answers the data and time seen of every waiting entry, each queue's oldest first.
_WAITING = """
local out = {}
for _, q in ipairs(redis.call('SMEMBERS', P .. 'queues')) do
  local tickets = redis.call('ZRANGE', P .. 'waiting:' .. q, 0, -1)
  if #tickets == 0 then redis.call('SREM', P .. 'queues', q) end
  for _, t in ipairs(tickets) do
    out[#out + 1] = redis.call('HGET', P .. 'e:' .. t, 'data')
    out[#out + 1] = redis.call('ZSCORE', P .. 'seen', t)
  end
end
return out
"""

# Answers {queue, count, queue, count, ...}: the people free to be seated
# (those being seated have left their queue already).
_COUNTS = """
local out = {}
for _, q in ipairs(redis.call('SMEMBERS', P .. 'queues')) do
  local n = redis.call('ZCARD', P .. 'waiting:' .. q)
  if n > 0 then out[#out + 1] = q; out[#out + 1] = n end
end
return out
"""

# ARGV: the take's token, now, tickets. Answers 1 when every ticket waited
# and is now taken, 0 (and nothing taken) when one of them does not wait.
_TAKE = """
for i = 3, #ARGV do
  local q = redis.call('HGET', P .. 'e:' .. ARGV[i], 'queue')
  if not q or not redis.call('ZSCORE', P .. 'waiting:' .. q, ARGV[i]) then return 0 end
end
for i = 3, #ARGV do
  local t = ARGV[i]
  redis.call('ZREM', P .. 'waiting:' .. redis.call('HGET', P .. 'e:' .. t, 'queue'), t)
  redis.call('ZADD', P .. 'taken', ARGV[2], t)
  redis.call('HSET', P .. 'e:' .. t, 'taken', ARGV[1])
end
redis.call('INCR', P .. 'version')
return 1
"""

# ARGV: the take's token, now, then ticket and seat (JSON) pairs. Answers
# the tickets whose seat was stored: those still under this take.
_SEAT = """
local stored = {}
for i = 3, #ARGV, 2 do
  local t = ARGV[i]
  local e = P .. 'e:' .. t
  if redis.call('HGET', e, 'taken') == ARGV[1] then
    redis.call('HSET', e, 'seated', ARGV[i + 1])
    redis.call('HDEL', e, 'taken')
    redis.call('ZREM', P .. 'taken', t)
    redis.call('ZREM', P .. 'seen', t)
    redis.call('ZADD', P .. 'seated', ARGV[2], t)
    redis.call('SREM', P .. 'client:' .. redis.call('HGET', e, 'client'), t)
    redis.call('PUBLISH', P .. 'changed', t)
    stored[#stored + 1] = t
  end
end
return stored
"""

# ARGV: the take's token, tickets.
_PUT_BACK = """
for i = 2, #ARGV do
  if redis.call('HGET', P .. 'e:' .. ARGV[i], 'taken') == ARGV[1] then put_back(ARGV[i]) end
end
return false
"""


def queue_name(game: str, players: int) -> str:
    return f"{players}:{game}"


class SharedQueue(QueueStore):
    """Every process's quick-match entries, in one Redis (see the module)."""

    def __init__(self, redis: aioredis.Redis) -> None:
        super().__init__()
        self.redis = redis
        self._scripts = {
            name: redis.register_script(_LIB + source)
            for name, source in [
                ("add", _ADD), ("seen", _SEEN), ("drop", _DROP), ("prune", _PRUNE),
                ("waiting", _WAITING), ("counts", _COUNTS), ("take", _TAKE),
                ("seat", _SEAT), ("put_back", _PUT_BACK),
            ]
        }  # fmt: skip
        self._listening: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Wake this process's long polls when another process seats or drops their entry."""
        self._listening = asyncio.create_task(
            listen(self.redis, CHANNEL, self._on_changed), name="quick-match-changes"
        )

    async def stop(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            await asyncio.gather(self._listening, return_exceptions=True)

    async def _on_changed(self, ticket: bytes) -> None:
        self.wakers.wake(ticket.decode())

    async def _run(self, script: str, *args: str | int | float) -> Any:
        async with _reachable():
            return await self._scripts[script](keys=[], args=list(args))

    async def add(self, entry: Entry, per_client: int, most: int) -> Refusal | None:
        account = entry.account.id if entry.account else ""
        refused = await self._run(
            "add", entry.ticket, queue_name(*entry.queue), entry.client, account,
            json.dumps(_data(entry)), entry.joined, entry.seen, per_client, most,
        )  # fmt: skip
        if refused is None:
            return None
        return Refusal(int(refused[1]) if refused[0] == b"client" else None)

    async def seen(self, ticket: str, now: float, watching: int = 0) -> Entry | None:
        found = await self._run("seen", ticket, now)
        if found is None:
            return None
        data, seated = found
        entry = _entry(data, now)
        if seated is not None:
            entry.seated = Seated(**json.loads(seated))
        return entry

    async def drop(self, ticket: str) -> bool:
        dropped = await self._run("drop", ticket)
        self.wakers.wake(ticket)
        return bool(dropped)

    async def prune(self, now: float, stale: float, keep: float) -> None:
        await self._run("prune", now, stale, keep, TAKE_SECONDS)

    async def version(self) -> int:
        async with _reachable():
            return int(await self.redis.get(PREFIX + "version") or 0)

    async def waiting(self) -> list[Entry]:
        flat = await self._run("waiting")
        return [_entry(data, float(seen)) for data, seen in zip(flat[::2], flat[1::2], strict=True)]

    async def counts(self) -> dict[tuple[str, int], int]:
        flat = await self._run("counts")
        out = {}
        for name, count in zip(flat[::2], flat[1::2], strict=True):
            players, game = name.decode().split(":", 1)
            out[(game, int(players))] = int(count)
        return out

    async def take(self, tickets: list[str], now: float) -> str | None:
        token = secrets.token_urlsafe(12)
        return token if await self._run("take", token, now, *tickets) else None

    async def seat(self, take: str, seats: dict[str, Seated]) -> list[str]:
        pairs = [x for t, s in seats.items() for x in (t, json.dumps(asdict(s)))]
        at = next(iter(seats.values())).at
        stored = [t.decode() for t in await self._run("seat", take, at, *pairs)]
        for ticket in stored:
            self.wakers.wake(ticket)  # at once here; the others hear it on the channel
        return stored

    async def put_back(self, take: str, tickets: list[str]) -> None:
        await self._run("put_back", take, *tickets)


def _data(entry: Entry) -> dict[str, Any]:
    """What an entry asked for, as stored (its times seen and seat apart)."""
    account = entry.account
    return {
        "ticket": entry.ticket, "game": entry.game, "players": entry.players,
        "name": entry.name, "account": [account.id, account.name] if account else None,
        "client": entry.client, "rating": entry.rating, "joined": entry.joined,
        "wait": entry.wait, "bots": entry.bots, "avoid": sorted(entry.avoid),
    }  # fmt: skip


def _entry(raw: bytes, seen: float) -> Entry:
    data = json.loads(raw)
    account = data.pop("account")
    avoid = frozenset(data.pop("avoid", ()))  # an entry stored before blocks avoids nobody
    return Entry(**data, account=Account(*account) if account else None, seen=seen, avoid=avoid)


@asynccontextmanager
async def _reachable() -> AsyncIterator[None]:
    """Redis away: the request is answered 503 in one sentence, not a traceback."""
    try:
        yield
    except (RedisError, OSError) as exc:
        log.warning("quick match: Redis failed: %s", exc)
        raise BadInput("the quick-match queue cannot be reached just now; try again", 503) from exc
