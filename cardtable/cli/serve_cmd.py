"""``cardtable serve``: browser play on this machine (extra ``[web]``)."""

from __future__ import annotations

import contextlib
import os
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
    chat_per_minute: Annotated[
        int, typer.Option(help="chat lines one client may send at one table per minute")
    ] = 12,
    public_url: Annotated[str | None, typer.Option(help=PUBLIC_URL_HELP)] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(help=PROXY_HELP)] = None,
) -> None:
    """Play in the browser: start the server and print the address to open."""
    try:
        import uvicorn

        from cardtable.server.app import create_app
        from cardtable.server.hub import Settings
        from cardtable.server.limits import Limits
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
        ("--chat-per-minute", chat_per_minute),
    ):
        if count < 1:
            raise fail(f"{flag} {count}: at least 1")
    for flag, amount in (
        ("--waiting-minutes", waiting_minutes),
        ("--abandoned-hours", abandoned_hours),
    ):
        if not amount > 0:
            raise fail(f"{flag} {amount:g}: give a time above 0")
    url = normalize_db_url(db) if db else default_db_url()
    limits = Limits(
        creates_per_minute=creates_per_minute,
        waiting_per_client=waiting_per_client,
        joins_per_minute=joins_per_minute,
        token_attempts_per_minute=token_attempts_per_minute,
        chat_per_minute=chat_per_minute,
        waiting_seconds=waiting_minutes * 60,
        abandoned_seconds=abandoned_hours * 3600,
        public_url=_public_url(public_url) if public_url else None,
        trusted_proxies=frozenset(trusted_proxy or ()),
    )
    settings = Settings(
        db_url=url,
        grace_seconds=grace_seconds,
        bot_workers=workers,
        max_tables=max_tables,
        analysis_budget=analysis_budget,
        limits=limits,
    )
    shown = "127.0.0.1" if host == "0.0.0.0" else host
    typer.echo(f"cardtable: open http://{shown}:{port}/  (database: {_safe(url)}; Ctrl-C stops)")
    try:
        app = create_app(settings)
    except CardtableError as exc:  # e.g. a damaged session secret in the data folder
        raise fail(str(exc)) from None
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        # Messages over 4 KiB get an error from the table; this is the hard cap.
        ws_max_size=64 * 1024,
    )
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run()


def _public_url(url: str) -> str:
    """``--public-url`` checked: an http(s) address with a host."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise fail(f"--public-url {url!r}: give the site's address, e.g. https://cards.example.org")
    return url


def _safe(url: str) -> str:
    """The URL without a password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        auth, _, where = rest.rpartition("@")
        rest = f"{auth.split(':')[0]}@{where}"
    return f"{scheme}{sep}{rest}"
