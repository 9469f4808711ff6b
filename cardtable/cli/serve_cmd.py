"""``cardtable serve``: browser play on this machine (extra ``[web]``)."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from typing import Annotated

import typer

from cardtable.cli.common import fail
from cardtable.core.errors import CardtableError
from cardtable.core.extras import install_command

DB_URL_HELP = (
    "database URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST:PORT/DB"
    " (default: a SQLite file in your user data directory)"
)
# A game's analysis ties up a worker for about this many seconds per decision.
MAX_ANALYSIS_BUDGET = 10.0
PROXY_HELP = (
    "address of a reverse proxy in front of this server (repeat for several): its"
    " X-Forwarded-For names the client that the limits count"
)
REDIS_HELP = (
    "redis://HOST:PORT/N: run as one of several processes on the same PostgreSQL --db"
    " (each table served by one process at a time; see docs/deployment.md)"
)
LEASE_HELP = "seconds a table stays with a process that stopped answering (with --redis)"
LOG_JSON_HELP = "log as JSON lines (time, level, process, table, logger, message), not text"
CONNECTIONS_HELP = "connections open at once, sockets included; past it new requests get 503"
PUBLIC_URL_HELP = (
    "the address people open, e.g. https://cards.example.org, when a reverse proxy"
    " serves this server: requests and WebSockets must come from its pages"
)


def default_db_url() -> str:
    """A SQLite file in the platform's user data directory, created if need be."""
    from platformdirs import user_data_path

    folder: Path = user_data_path("cardtable", appauthor=False)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'tables.sqlite3'}"


def normalize_db_url(url: str) -> str:
    """Accept plain ``sqlite:///`` and ``postgresql://`` URLs; pick the async drivers."""
    for plain, driver in (
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    if url.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
        return url
    raise fail(f"--db {url!r}: use a sqlite:/// or postgresql:// URL")


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None,
    bot_workers: Annotated[
        int | None, typer.Option(help="processes for search bots (default: cores - 1)")
    ] = None,
    grace_seconds: Annotated[
        float, typer.Option(help="seconds before a bot plays for a player who left")
    ] = 30.0,
    analysis_budget: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="nominal seconds per decision when a finished game is analyzed",
        ),
    ] = 0.25,
    max_tables: Annotated[
        int, typer.Option(help="tables waiting or playing at once; past it creates get 503")
    ] = 5000,
    waiting_minutes: Annotated[
        float, typer.Option(help="a waiting table nobody joins expires after this")
    ] = 30.0,
    abandoned_hours: Annotated[
        float,
        typer.Option(help="a game all its people left is finished by stand-ins after this"),
    ] = 24.0,
    creates_per_minute: Annotated[
        int, typer.Option(help="tables one client may create per minute")
    ] = 10,
    waiting_per_client: Annotated[
        int, typer.Option(help="tables of one client that may wait for players at once")
    ] = 5,
    joins_per_minute: Annotated[
        int, typer.Option(help="seat requests one address may make per minute")
    ] = 30,
    token_attempts_per_minute: Annotated[
        int, typer.Option(help="wrong seat tokens one address may send per minute")
    ] = 20,
    signups_per_minute: Annotated[
        int, typer.Option(help="accounts one address may make per minute")
    ] = 5,
    quick_per_client: Annotated[
        int, typer.Option(help="people of one address waiting for a quick match at once")
    ] = 4,
    chat_per_minute: Annotated[
        int, typer.Option(help="chat lines one client may send at one table per minute")
    ] = 12,
    chat_per_address_per_minute: Annotated[
        int, typer.Option(help="chat lines from one address at all tables together per minute")
    ] = 60,
    public_url: Annotated[str | None, typer.Option(help=PUBLIC_URL_HELP)] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(help=PROXY_HELP)] = None,
    redis: Annotated[str | None, typer.Option(metavar="URL", help=REDIS_HELP)] = None,
    lease_seconds: Annotated[float, typer.Option(metavar="SECONDS", help=LEASE_HELP)] = 5.0,
    max_connections: Annotated[int, typer.Option(help=CONNECTIONS_HELP)] = 10_000,
    log_json: Annotated[bool, typer.Option("--log-json", help=LOG_JSON_HELP)] = False,
) -> None:
    """Play in the browser: start the server and print the address to open."""
    try:
        import uvicorn

        from cardtable.server.app import create_app
        from cardtable.server.guard.limits import Limits
        from cardtable.server.guard.origin import MAX_HEADERS
        from cardtable.server.live.hub import Settings
        from cardtable.server.logs import log_config
    except ModuleNotFoundError as exc:
        raise fail(
            f"cardtable serve needs the web extra ({exc.name} is missing): "
            + install_command("web")
        ) from None
    if not 0 < port < 65536:
        raise fail(f"--port {port}: choose a port from 1 to 65535")
    workers = bot_workers if bot_workers is not None else max(1, (os.cpu_count() or 2) - 1)
    if workers < 1:
        raise fail(f"--bot-workers {workers}: at least 1")
    if not 0 < analysis_budget <= MAX_ANALYSIS_BUDGET:
        raise fail(
            f"--analysis-budget {analysis_budget}: give seconds above 0, at most"
            f" {MAX_ANALYSIS_BUDGET:g}"
        )
    for flag, count in (
        ("--max-tables", max_tables),
        ("--creates-per-minute", creates_per_minute),
        ("--waiting-per-client", waiting_per_client),
        ("--joins-per-minute", joins_per_minute),
        ("--token-attempts-per-minute", token_attempts_per_minute),
        ("--signups-per-minute", signups_per_minute),
        ("--quick-per-client", quick_per_client),
        ("--chat-per-minute", chat_per_minute),
        ("--chat-per-address-per-minute", chat_per_address_per_minute),
        ("--max-connections", max_connections),
    ):
        if count < 1:
            raise fail(f"{flag} {count}: at least 1")
    for flag, amount in (
        ("--waiting-minutes", waiting_minutes),
        ("--abandoned-hours", abandoned_hours),
    ):
        if not amount > 0:
            raise fail(f"{flag} {amount:g}: give a time above 0")
    if redis is not None:  # before the default SQLite file is made, which it cannot use
        _check_cluster(redis, normalize_db_url(db) if db else "", lease_seconds)
    url = normalize_db_url(db) if db else default_db_url()
    limits = Limits(
        creates_per_minute=creates_per_minute,
        waiting_per_client=waiting_per_client,
        joins_per_minute=joins_per_minute,
        token_attempts_per_minute=token_attempts_per_minute,
        signups_per_minute=signups_per_minute,
        quick_per_client=quick_per_client,
        chat_per_minute=chat_per_minute,
        chat_per_address_per_minute=chat_per_address_per_minute,
        waiting_seconds=waiting_minutes * 60,
        abandoned_seconds=abandoned_hours * 3600,
        public_url=_public_url(public_url) if public_url else None,
        trusted_proxies=frozenset(trusted_proxy or ()),
    )
    settings = Settings(
        redis_url=redis,
        lease_seconds=lease_seconds,
        db_url=url,
        grace_seconds=grace_seconds,
        bot_workers=workers,
        max_tables=max_tables,
        analysis_budget=analysis_budget,
        limits=limits,
        settle_heap=True,
    )
    shown = "127.0.0.1" if host == "0.0.0.0" else host
    typer.echo(
        f"cardtable: open http://{shown}:{port}/  (database: {without_password(url)}; Ctrl-C stops)"
    )
    try:
        app = create_app(settings)
    except CardtableError as exc:  # e.g. a damaged session secret in the data folder
        raise fail(str(exc)) from None
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        # The client's address is the peer's unless the peer is a --trusted-proxy
        # (cardtable/server/guard/limits.py): uvicorn must not believe X-Forwarded-For
        # (and -Proto) from 127.0.0.1 of its own accord.
        proxy_headers=False,
        log_config=log_config(json_lines=log_json),
        # Messages over 4 KiB get an error from the table; this is the hard cap.
        ws_max_size=64 * 1024,
        # h11 rather than httptools, which reads headers of any size: h11
        # answers 400 once the unfinished head of a request is over this, so
        # none larger is read whole (a smaller one over it gets the app's 431).
        http="h11",
        h11_max_incomplete_event_size=MAX_HEADERS + 8 * 1024,  # and the request line
        limit_concurrency=max_connections,
    )
    # uvicorn stops gracefully on SIGTERM as on Ctrl-C (no new sockets, open
    # ones closed with 1012 "service restart", which the browser reconnects
    # after; the app's shutdown stores what is queued and stops the bot
    # workers), then restores the handler found here and raises the signal
    # again. This handler turns that into a normal exit (status 0) instead of
    # death by signal, and stops a SIGTERM that comes before uvicorn listens.
    signal.signal(signal.SIGTERM, _stop)
    with contextlib.suppress(KeyboardInterrupt, Stopped):
        uvicorn.Server(config).run()


class Stopped(Exception):
    """SIGTERM: the service manager asks the server to stop."""


def _stop(signum: int, frame: object) -> None:
    raise Stopped


def _check_cluster(redis: str, db_url: str, lease_seconds: float) -> None:
    """``--redis`` and ``--lease-seconds`` checked: several processes share PostgreSQL."""
    if not redis.startswith(("redis://", "rediss://", "unix://")):
        raise fail(f"--redis {redis!r}: give a redis://HOST:PORT/N address")
    if not db_url.startswith("postgresql"):
        raise fail("--redis: several processes share one PostgreSQL; give --db postgresql://…")
    if not 0.5 <= lease_seconds <= 300:
        raise fail(f"--lease-seconds {lease_seconds:g}: give 0.5 to 300 seconds")


def _public_url(url: str) -> str:
    """``--public-url`` checked: an http(s) address with a host."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise fail(f"--public-url {url!r}: give the site's address, e.g. https://cards.example.org")
    return url


def without_password(url: str) -> str:
    """The URL without a password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        auth, _, where = rest.rpartition("@")
        rest = f"{auth.split(':')[0]}@{where}"
    return f"{scheme}{sep}{rest}"
