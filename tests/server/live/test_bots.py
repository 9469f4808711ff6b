"""Bots at server tables: search bots think in worker processes, and other
tables keep moving meanwhile."""

from __future__ import annotations

import os
import random

import pytest

import cardtable
from cardtable.bots import LEVELS, RANDOM, Budget, bot_entries, bot_names, level_for, make_bot
from cardtable.core.registry import manifest
from cardtable.server.live.bots import BotJob, BotPool, runs_inline, think
from tests.server.helpers import play_moves, play_out, run_coroutine, running

pytestmark = pytest.mark.timeout(600, method="thread")


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_only_quick_bots_run_on_the_event_loop(game: str) -> None:
    assert runs_inline(game, "random") and runs_inline(game, "easy")
    assert runs_inline(game, "heuristic")
    search = manifest(game).search_bot
    assert search is not None
    for slow in ("medium", "hard", search, "so-ismcts", "openspiel-ismcts"):
        assert not runs_inline(game, slow)


def _attributes(thing: object) -> list[object]:
    """What an object holds: its ``__dict__``, or where a compiled class has
    none (docs/architecture.md, "Compiled engines") the data attributes its
    type declares."""
    if hasattr(thing, "__dict__"):
        return list(vars(thing).values())
    names = (n for n in dir(thing) if not n.startswith("__"))
    return [v for v in (getattr(thing, n) for n in names) if not callable(v)]


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_a_bot_on_the_event_loop_has_no_budget_to_think_for(game: str) -> None:
    """Every bot the game offers (levels and research bots, which the lobby
    offers under Advanced) either runs in the worker pool or keeps no budget,
    not even through a search it delegates to: only a bot that ignores its
    budget answers at once."""
    players = manifest(game).default_players
    table = cardtable.load(game, players=players)
    inline = []
    for name in bot_names(game):
        if bot_entries(game).get(name, RANDOM).extra is not None:
            continue  # its extra may be absent; runs_inline never keeps it inline
        bot = make_bot(name, table, 0, random.Random(0), Budget(seconds=0.3))
        parts = [bot, *(v for v in _attributes(bot) if hasattr(v, "__dict__"))]
        budgeted = any(isinstance(v, Budget) for part in parts for v in _attributes(part))
        if runs_inline(game, name):
            inline.append(name)
            assert not budgeted, f"{name} thinks for a budget but would run on the event loop"
    assert "random" in inline and "easy" in inline and "heuristic" in inline


def test_a_plugin_games_levels_all_search_so_none_runs_on_the_event_loop() -> None:
    """The resampling fixture's levels seat the generic search, even easy
    (no heuristic there); its own instant bots still run inline."""
    from tests.bots.plugin import NAME, registered

    with registered():
        for level in LEVELS:
            seated = level_for(level, NAME)
            assert seated is not None and seated[0] == "search", level
        for slow in (*LEVELS, "search", "so-ismcts"):
            assert not runs_inline(NAME, slow), slow
        assert runs_inline(NAME, "lowest") and runs_inline(NAME, "random")


def test_a_bot_job_holds_a_view_and_answers_a_legal_move() -> None:
    import cardtable

    game = cardtable.load("myrummy-111", players=2)
    state = game.new_game(random.Random(1))
    legal = tuple(m.index for m in state.legal_moves())
    job = BotJob(game.name, '{"players": 2}', "easy", 0, state.view(0).to_json(), legal, 7)
    assert think(job) in legal


def test_a_medium_bot_plays_a_whole_game_from_the_pool(db_url: str) -> None:
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "medium"])
        token = server.join(table, 0, "Ann")
        with server.connect(table, token) as ann:
            final = play_out(ann, {0: ann}, random.Random(2))
        assert final["finished"]


def test_other_tables_keep_moving_while_a_hard_bot_thinks(db_url: str) -> None:
    with running(db_url, bot_workers=1) as server:
        thinking = server.create("marshmallow-test", ["hard", "hard"])
        quick = server.create("marshmallow-test", ["human", "easy"])
        token = server.join(quick, 0, "Ann")
        with server.connect(thinking) as watcher, server.connect(quick, token) as ann:
            watcher.until_state(lambda m: m["seq"] >= 1)  # the pool is up and busy
            busy = 0
            rng = random.Random(3)
            for _ in range(10):
                play_moves(ann, 1, rng)
                auto = server.table(thinking).auto
                busy += auto is not None and not auto[1].done()
        # Ann's moves were acknowledged while a hard bot's search was running.
        assert busy >= 5


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_search_workers_take_the_cpu_last() -> None:
    # The pool's processes run in Linux's idle class: the event loop, at the
    # normal class, takes a core back from a search the moment it wakes.
    async def policy() -> int:
        pool = BotPool(1)
        try:
            return await pool.run(os.sched_getscheduler, 0)
        finally:
            await pool.close()

    assert run_coroutine(policy()) == os.SCHED_IDLE
