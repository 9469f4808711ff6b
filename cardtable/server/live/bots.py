"""Bots at server tables: quick ones inline, search bots in worker processes.

A bot decision is a :class:`BotJob`: plain, picklable data (game name and
options, the bot's name, the seat, ``view(seat)`` as JSON, the legal moves by
index, a seed). :func:`think` rebuilds the game and the view from it and asks
``make_bot(...).choose`` — so a bot sees only its seat's view, in a worker as
inline. Bots the manifest marks ``search`` (levels ``medium``/``hard``) and bots
that need an extra run in a :class:`~concurrent.futures.ProcessPoolExecutor`;
the event loop never waits on them. The same processes analyze finished
games (:mod:`cardtable.server.live.analyses`), one decision per job, so a bot's
decision waits at most for one decision's analysis.
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import multiprocessing
import os
import random
import signal
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from cardtable.bots import LEVELS, bot_entries, level_for, make_bot
from cardtable.core.game import Game
from cardtable.core.registry import load

J = TypeVar("J")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class BotJob:
    game: str
    options: str  # the options as canonical JSON text: hashable, one cached game per table kind
    bot: str
    seat: int
    view: dict[str, Any]
    legal: tuple[int, ...]
    seed: int


@cache
def _game(name: str, options: str) -> Game:
    return load(name, **json.loads(options))


def think(job: BotJob) -> int:
    """The index of the move the bot chooses (runs in a worker or inline)."""
    game = _game(job.game, job.options)
    view = game.view_from_json(job.view)
    legal = [game.move_from_index(i) for i in job.legal]
    bot = make_bot(job.bot, game, job.seat, random.Random(job.seed))
    return bot.choose(view, legal).index


PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent dies


def _start_worker(parent: int) -> None:
    """A worker's first act: die with the server, and think at a lower priority."""
    # A server killed with SIGKILL runs no shutdown, and a spawned worker
    # blocks on its job queue forever: without this it lives on as an
    # orphan holding memory (and a core, mid-search). Linux kills it with
    # its parent; if the parent died before prctl took effect, leave now.
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)
    # A search spends its time budget however fast it runs, so it can take
    # the CPU last: as an idle-class task (Linux's SCHED_IDLE) it runs only on
    # a core nothing else wants, and the event loop takes the core back the
    # moment it wakes (acks stay fast); it searches less when the machine is
    # busy. A lower nice value alone still took a tenth of a shared core and
    # stretched the acks' tail (docs/server.md, "Where the tail came from").
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    else:
        os.nice(10)


def runs_inline(game: str, bot: str) -> bool:
    """Whether ``bot`` answers fast enough for the event loop: not a search
    bot (nor a level seating one), not one that thinks for its budget or that
    a level claims, and needing no extra."""
    if bot in LEVELS:
        seated = level_for(bot, game)
        if seated is None:
            return False
        bot = seated[0]
    entry = bot_entries(game).get(bot)
    return entry is not None and entry.instant


class BotPool:
    """Where bots think: the pool's processes start with ``spawn`` (safe
    beside an event loop's threads) on first use, at a lower priority."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def choose(self, job: BotJob) -> int:
        if runs_inline(job.game, job.bot):
            return think(job)
        return await self.run(think, job)

    async def run(self, work: Callable[[J], R], job: J) -> R:
        """``work(job)`` in a worker process (``work`` a module-level function,
        ``job`` picklable)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, job)
        except BrokenProcessPool:
            self._pool = (
                None  # a worker died (killed, out of memory): the next job starts a new pool
            )
            raise

    async def close(self) -> None:
        """Drop queued jobs and wait (in a thread: the loop keeps serving)
        until every worker has exited, so none outlives the server."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
