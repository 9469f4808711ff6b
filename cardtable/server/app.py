"""The ASGI application: ``create_app(settings)`` for uvicorn or a test client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy.exc import DBAPIError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute

from cardtable.server.accounts.accounts import Accounts
from cardtable.server.accounts.mailer import Mailer
from cardtable.server.accounts.notices import Notices
from cardtable.server.accounts.passwords import Passwords
from cardtable.server.accounts.push import Pusher, load_or_create_vapid
from cardtable.server.accounts.puzzle_training import PuzzleRatings
from cardtable.server.accounts.secret import data_folder, load_or_create_secret
from cardtable.server.db.analysis_queue import AnalysisQueue
from cardtable.server.db.leases import process_name
from cardtable.server.db.ratings import Ratings
from cardtable.server.db.storage import Storage
from cardtable.server.guard.limits import WINDOW, Gate
from cardtable.server.guard.origin import SameOrigin
from cardtable.server.live.analyses import Analyses
from cardtable.server.live.bots import BotPool
from cardtable.server.live.collector import settle_heap
from cardtable.server.live.hub import Hub
from cardtable.server.live.lifecycle import Lifecycle
from cardtable.server.live.moderation import RemovalWatch
from cardtable.server.live.play import Play
from cardtable.server.logs import TableContext
from cardtable.server.quick.match import QuickMatch
from cardtable.server.quick.turn_based import TurnBasedMatch
from cardtable.server.settings import Settings
from cardtable.server.tables.table import Table
from cardtable.server.tournaments.director import Director
from cardtable.server.tournaments.ledger import TournamentStore
from cardtable.server.web import (
    account_api,
    friends_api,
    leaderboard_api,
    learn_api,
    notices_api,
    pages,
    quick_api,
    tables_api,
    tournaments_api,
    ws,
)
from cardtable.server.wire import BadInput

STATIC = Path(__file__).parent / "web" / "static"


def create_app(settings: Settings) -> Starlette:
    """The server: migrations run and unfinished tables come back at start."""
    # With --redis this process is one of several on one PostgreSQL: its
    # storage writes under leases, and its cluster claims and hands over tables.
    owner = process_name() if settings.redis_url else None
    storage = Storage(settings.db_url, owner, settings.lease_seconds)
    pool = BotPool(settings.bot_workers)
    hub = Hub(storage, settings, pool)
    play = Play(hub)
    hub.on_wake = play.review  # a parked table opened again (live/parking.py)
    cluster = None
    if settings.redis_url is not None:
        from cardtable.server.cluster.cluster import Cluster  # redis-py: only when asked for
        from cardtable.server.guard.redis_limits import SharedWindows

        cluster = Cluster(hub, play, settings.redis_url)
        # The limits counted per client: one count for every process.
        hub.gate = Gate(settings.limits, SharedWindows(cluster.redis, WINDOW))
    shared_analyses = None
    if owner is not None:
        # Several processes: any of them takes the next pending seat (a claim
        # lasting a lease, renewed while it works).
        shared_analyses = AnalysisQueue(storage.engine, owner, settings.lease_seconds)
    analyses = Analyses(hub, settings.analysis_budget, shared_analyses)
    folder = data_folder(settings.db_url, settings.data_dir)
    secret = load_or_create_secret(folder)
    accounts = Accounts(storage.engine, secret, Passwords(fast=settings.fast_passwords))
    lifecycle = Lifecycle(hub, play)
    # E-mail notices: only with --smtp (and its From address) is any mail sent or queued.
    mailer = None
    if settings.smtp_url is not None and settings.mail_from is not None:
        mailer = Mailer(settings.smtp_url, settings.mail_from)
    # Web Push: always offered (browsers allow it on HTTPS sites and localhost).
    contact = f"mailto:{settings.mail_from}" if settings.mail_from else settings.limits.public_url
    pusher = Pusher(storage.engine, load_or_create_vapid(folder), settings.limits.clock, contact)
    notices = Notices(
        storage.engine, secret, mailer, settings.limits.clock, settings.limits.public_url, pusher
    )

    removals = RemovalWatch(hub)
    ratings = Ratings(storage.engine)
    # Several processes share one queue in Redis: any of them answers any ticket.
    store = cluster.quick if cluster is not None else None
    quick = QuickMatch(hub, play, accounts, rating=ratings.shown_rating, store=store)
    paced = TurnBasedMatch(hub, play, accounts, rating=ratings.shown_rating)
    puzzle_ratings = PuzzleRatings(storage.engine, secret)
    director = Director(hub, play, TournamentStore(storage.engine), secret)

    def watch(table: Table) -> None:
        notices.watch(table)  # what a turn-based table's people are told
        director.watch(table)  # a tournament's deal scored as its last table ends

    play.watch = watch

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await storage.open()
        if settings.settle_heap:
            # Everything imported and the database open, no table loaded yet:
            # what is frozen now lives as long as the process.
            settle_heap()
        play.start(await (hub.load_live() if cluster is None else cluster.start()))
        await analyses.start()
        await lifecycle.start()
        removals.start()
        notices.start()
        director.start()
        try:
            yield
        finally:
            await director.stop()
            await notices.stop()
            await removals.stop()
            await lifecycle.stop()
            await analyses.stop()
            await play.stop()
            if cluster is not None:
                await storage.flush()  # the last writes are in: the leases can go
                await cluster.stop()
            await pool.close()
            await storage.close()

    app = Starlette(
        routes=[
            *pages.routes(hub, STATIC),
            *tables_api.routes(hub, play, analyses, STATIC),
            *learn_api.routes(STATIC, accounts, puzzle_ratings),
            *account_api.routes(hub, accounts, ratings, STATIC),
            *friends_api.routes(hub, accounts, STATIC, notices),
            *notices_api.routes(accounts, notices, STATIC),
            *quick_api.routes(quick, paced, accounts),
            *leaderboard_api.routes(ratings, STATIC),
            *tournaments_api.routes(hub, director, accounts, STATIC),
            WebSocketRoute("/ws/{table_id}", ws.endpoint(hub, play)),
        ],
        lifespan=lifespan,
        exception_handlers={
            BadInput: tables_api.error_response,
            HTTPException: tables_api.error_response,
            # The database away (stopped, restarting): asyncpg refuses with a
            # bare OSError, a broken connection is a DBAPIError.
            OSError: tables_api.store_unavailable_response,
            DBAPIError: tables_api.store_unavailable_response,
        },
        middleware=[
            Middleware(TableContext),  # outermost: the log names the table of a refusal too
            Middleware(SameOrigin, public_url=settings.limits.public_url),
        ],
    )
    app.state.hub = hub
    app.state.play = play
    app.state.analyses = analyses
    app.state.accounts = accounts
    app.state.puzzle_ratings = puzzle_ratings
    app.state.lifecycle = lifecycle
    app.state.notices = notices
    app.state.removals = removals
    app.state.quick = quick
    app.state.paced = paced  # turn-based quick match
    app.state.ratings = ratings  # rating_for(account_id, game, players), for matching
    app.state.tournaments = director
    return app
