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
) -> None:
    """Play in the browser: start the server and print the address to open."""
    try:
        import uvicorn

        from cardtable.server.app import create_app
        from cardtable.server.hub import Settings
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
    url = normalize_db_url(db) if db else default_db_url()
    settings = Settings(
        db_url=url,
        grace_seconds=grace_seconds,
        bot_workers=workers,
        analysis_budget=analysis_budget,
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


def _safe(url: str) -> str:
    """The URL without a password."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        auth, _, where = rest.rpartition("@")
        rest = f"{auth.split(':')[0]}@{where}"
    return f"{scheme}{sep}{rest}"
