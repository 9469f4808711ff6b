"""``cardtable serve``: browser play on this machine (extra ``[web]``)."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from typing import Annotated, Any

import typer

from cardtable.cli.common import fail
from cardtable.core.errors import CardtableError
from cardtable.core.extras import install_command
from cardtable.server.settings import Limits, Settings, bounds_of

DB_URL_HELP = (
    "database URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST:PORT/DB"
    " (default: a SQLite file in your user data directory)"
)
PROXY_HELP = (
    "address of a reverse proxy in front of this server (repeat for several): its"
    " X-Forwarded-For names the client that the limits count"
)
REDIS_HELP = (
    "redis://HOST:PORT/N: run as one of several processes on the same PostgreSQL --db"
    " (each table served by one process at a time; see docs/deployment.md)"
)
SMTP_HELP = (
    "smtp://USER:PASSWORD@HOST:PORT (?starttls=1 for STARTTLS) or smtps://… (TLS): send"
    " e-mail notices of turn-based games through this server (needs --mail-from)"
)
MAIL_FROM_HELP = "the From address of the notices, e.g. cards@example.org (with --smtp)"
LOG_JSON_HELP = "log as JSON lines (time, level, process, table, logger, message), not text"
CONNECTIONS_HELP = "connections open at once, sockets included; past it new requests get 503"
PUBLIC_URL_HELP = (
    "the address people open, e.g. https://cards.example.org, when a reverse proxy"
    " serves this server: requests and WebSockets must come from its pages"
)


def flag(owner: type, name: str, note: str = "") -> Any:
    """The ``typer.Option`` of a setting (cardtable/server/settings.py): its help,
    and its range checked as the flag is read, in the flag's own units."""
    _, bounds = bounds_of(owner, name)
    spelled = "--" + (bounds.flag or name.replace("_", "-"))

    def check(value: float | None) -> float | None:
        if value is not None and bounds.problem(value * bounds.scale) is not None:
            raise fail(f"{spelled} {value:g}: {bounds.wanted(bounds.scale)}")
        return value

    return typer.Option(spelled, help=bounds.help + note, callback=check)


def default(owner: type, name: str) -> Any:
    """A setting's default, in its flag's units."""
    value, bounds = bounds_of(owner, name)
    return value / bounds.scale if bounds.scale != 1 else value


def in_field_units(owner: type, name: str, value: float) -> float:
    """A flag's value in its setting's units (``--waiting-minutes`` sets seconds)."""
    return value * bounds_of(owner, name)[1].scale


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


def _port(value: int) -> int:
    if not 0 < value < 65536:
        raise fail(f"--port {value}: choose a port from 1 to 65535")
    return value


def _at_least_one(spelled: str) -> Any:
    def check(value: int) -> int:
        if value < 1:
            raise fail(f"{spelled} {value}: at least 1")
        return value

    return check


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", callback=_port)] = 8000,
    db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None,
    bot_workers: Annotated[
        int | None, flag(Settings, "bot_workers", " (default: the cores less one)")
    ] = None,
    grace_seconds: Annotated[float, flag(Settings, "grace_seconds")] = default(
        Settings, "grace_seconds"
    ),
    analysis_budget: Annotated[float, flag(Settings, "analysis_budget")] = default(
        Settings, "analysis_budget"
    ),
    max_tables: Annotated[int, flag(Settings, "max_tables")] = default(Settings, "max_tables"),
    waiting_minutes: Annotated[float, flag(Limits, "waiting_seconds")] = default(
        Limits, "waiting_seconds"
    ),
    abandoned_hours: Annotated[float, flag(Limits, "abandoned_seconds")] = default(
        Limits, "abandoned_seconds"
    ),
    park_minutes: Annotated[float, flag(Limits, "park_seconds")] = default(Limits, "park_seconds"),
    sweep_seconds: Annotated[float, flag(Limits, "sweep_seconds")] = default(
        Limits, "sweep_seconds"
    ),
    creates_per_minute: Annotated[int, flag(Limits, "creates_per_minute")] = default(
        Limits, "creates_per_minute"
    ),
    waiting_per_client: Annotated[int, flag(Limits, "waiting_per_client")] = default(
        Limits, "waiting_per_client"
    ),
    joins_per_minute: Annotated[int, flag(Limits, "joins_per_minute")] = default(
        Limits, "joins_per_minute"
    ),
    token_attempts_per_minute: Annotated[int, flag(Limits, "token_attempts_per_minute")] = (
        default(Limits, "token_attempts_per_minute")
    ),
    signups_per_minute: Annotated[int, flag(Limits, "signups_per_minute")] = default(
        Limits, "signups_per_minute"
    ),
    quick_per_client: Annotated[int, flag(Limits, "quick_per_client")] = default(
        Limits, "quick_per_client"
    ),
    chat_per_minute: Annotated[int, flag(Limits, "chat_per_minute")] = default(
        Limits, "chat_per_minute"
    ),
    chat_per_address_per_minute: Annotated[int, flag(Limits, "chat_per_address_per_minute")] = (
        default(Limits, "chat_per_address_per_minute")
    ),
    friends_per_account: Annotated[int, flag(Limits, "friends_per_account")] = default(
        Limits, "friends_per_account"
    ),
    turn_based_per_account: Annotated[int, flag(Limits, "turn_based_per_account")] = default(
        Limits, "turn_based_per_account"
    ),
    public_url: Annotated[str | None, typer.Option(help=PUBLIC_URL_HELP)] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(help=PROXY_HELP)] = None,
    redis: Annotated[str | None, typer.Option(metavar="URL", help=REDIS_HELP)] = None,
    lease_seconds: Annotated[float, flag(Settings, "lease_seconds")] = default(
        Settings, "lease_seconds"
    ),
    max_connections: Annotated[
        int, typer.Option(help=CONNECTIONS_HELP, callback=_at_least_one("--max-connections"))
    ] = 10_000,
    log_json: Annotated[bool, typer.Option("--log-json", help=LOG_JSON_HELP)] = False,
    smtp: Annotated[str | None, typer.Option(metavar="URL", help=SMTP_HELP)] = None,
    mail_from: Annotated[str | None, typer.Option(metavar="ADDRESS", help=MAIL_FROM_HELP)] = None,
) -> None:
    """Play in the browser: start the server and print the address to open."""
    try:
        import uvicorn

        from cardtable.server.app import create_app
        from cardtable.server.guard.origin import MAX_HEADERS
        from cardtable.server.logs import log_config
    except ModuleNotFoundError as exc:
        raise fail(
            f"cardtable serve needs the web extra ({exc.name} is missing): "
            + install_command("web")
        ) from None
    workers = bot_workers if bot_workers is not None else max(1, (os.cpu_count() or 2) - 1)
    if redis is not None:  # before the default SQLite file is made, which it cannot use
        _check_cluster(redis, normalize_db_url(db) if db else "")
    url = normalize_db_url(db) if db else default_db_url()
    _check_mail(smtp, mail_from)
    limits = Limits(
        creates_per_minute=creates_per_minute,
        waiting_per_client=waiting_per_client,
        joins_per_minute=joins_per_minute,
        token_attempts_per_minute=token_attempts_per_minute,
        signups_per_minute=signups_per_minute,
        quick_per_client=quick_per_client,
        chat_per_minute=chat_per_minute,
        chat_per_address_per_minute=chat_per_address_per_minute,
        friends_per_account=friends_per_account,
        turn_based_per_account=turn_based_per_account,
        waiting_seconds=in_field_units(Limits, "waiting_seconds", waiting_minutes),
        abandoned_seconds=in_field_units(Limits, "abandoned_seconds", abandoned_hours),
        park_seconds=in_field_units(Limits, "park_seconds", park_minutes),
        sweep_seconds=sweep_seconds,
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
        smtp_url=smtp,
        mail_from=mail_from,
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


def _check_cluster(redis: str, db_url: str) -> None:
    """``--redis`` checked: several processes share PostgreSQL."""
    if not redis.startswith(("redis://", "rediss://", "unix://")):
        raise fail(f"--redis {redis!r}: give a redis://HOST:PORT/N address")
    if not db_url.startswith("postgresql"):
        raise fail("--redis: several processes share one PostgreSQL; give --db postgresql://…")


def _check_mail(smtp: str | None, mail_from: str | None) -> None:
    """``--smtp`` and ``--mail-from`` checked: both or neither, each well formed."""
    from cardtable.server.accounts.mailer import smtp_server

    if smtp is None:
        if mail_from is not None:
            raise fail("--mail-from: notices are sent only with --smtp URL; give it too")
        return
    try:
        smtp_server(smtp)
    except ValueError as exc:
        raise fail(f"--smtp {exc}") from None
    if mail_from is None or "@" not in mail_from:
        raise fail("--smtp: give --mail-from ADDRESS too (the notices' From: cards@example.org)")


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
