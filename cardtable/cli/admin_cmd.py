"""``cardtable admin``: the operator's tools for a server's database (extra ``[web]``).

``reset-password NAME`` is how a forgotten password is recovered (the server
sends no e-mail): it sets a new random password, prints it for the operator
to hand over, and ends every session of the account. ``migrate`` brings the
database's schema up to this release, as ``cardtable serve`` does at start:
run it alone, after a backup, before starting several processes on a new
release. ``chat list`` shows the chat lines people reported (or any lines,
by table or speaker) and ``chat remove`` takes lines out of every view: a
running server withdraws them from its tables within seconds.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from cardtable.cli.commands import Command, Group
from cardtable.cli.common import fail
from cardtable.cli.serve_cmd import (
    DB_URL_HELP,
    default_db_url,
    normalize_db_url,
    without_password,
)
from cardtable.core.errors import CardtableError
from cardtable.core.extras import install_command

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from cardtable.server.live.moderation import ListedLine

T = TypeVar("T")

admin = typer.Typer(cls=Group, no_args_is_help=True, help="Operator tools for a server's database.")
chat = typer.Typer(
    cls=Group, no_args_is_help=True, help="Read reported chat lines and remove lines."
)
admin.add_typer(chat, name="chat")


def _need_web_extra() -> None:
    try:
        import cardtable.server.db.storage  # noqa: F401  (the web extra is installed)
    except ModuleNotFoundError as exc:
        raise fail(
            f"cardtable admin needs the web extra ({exc.name} is missing): "
            + install_command("web")
        ) from None


async def _on_database(url: str, work: Callable[[AsyncEngine], Awaitable[T]]) -> T:
    """Run ``work`` on the database at ``url``, migrated to this release first
    (as the server would migrate it at start)."""
    from cardtable.server.db.storage import Storage

    storage = Storage(url)
    await storage.open()
    try:
        return await work(storage.engine)
    finally:
        await storage.close()


def _run_on_database(db: str | None, what: str, work: Callable[[AsyncEngine], Awaitable[T]]) -> T:
    """:func:`_on_database` for a command: a database that does not answer (or
    is not ours to change) is one ``error:`` line naming it, password left out."""
    _need_web_extra()
    url = normalize_db_url(db) if db else default_db_url()
    from sqlalchemy.exc import SQLAlchemyError

    try:
        return asyncio.run(_on_database(url, work))
    except (OSError, SQLAlchemyError) as exc:
        raise fail(f"{what} {without_password(url)}: {str(exc).splitlines()[0]}") from None


async def _revision(engine: AsyncEngine) -> str:
    from sqlalchemy import text

    from cardtable.server.db.migrations.env import VERSION_TABLE

    async with engine.connect() as conn:
        return str(await conn.scalar(text(f"SELECT version_num FROM {VERSION_TABLE}")))


@admin.command("migrate", cls=Command)
def migrate(db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None) -> None:
    """Bring the database's schema up to this release (cardtable serve does it at start)."""
    revision = _run_on_database(db, "migrate", _revision)
    typer.echo(f"the database is at revision {revision}, this release's newest")


@admin.command("reset-password", cls=Command)
def reset_password(
    name: Annotated[str, typer.Argument(metavar="NAME", help="the account's display name")],
    db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None,
) -> None:
    """Give the account NAME a new random password (printed) and sign it out everywhere."""
    password = secrets.token_urlsafe(12)

    async def reset(engine: AsyncEngine) -> None:
        from cardtable.server.accounts.accounts import Accounts
        from cardtable.server.accounts.passwords import Passwords

        # Sessions are not touched through their HMAC, so the secret is not needed here.
        await Accounts(engine, b"", Passwords()).reset_password(name, password)

    try:
        _run_on_database(db, "reset-password", reset)
    except CardtableError as exc:
        raise fail(f"reset-password {name!r}: {exc}") from None
    typer.echo(f"the new password of {name!r} is {password}  (every session was signed out)")


def _shown(line: ListedLine) -> str:
    when = datetime.fromtimestamp(line.at_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")
    words = json.dumps(line.text, ensure_ascii=False) if line.text is not None else line.phrase
    state = "removed" if line.removed_ms is not None else "shown"
    return (
        f"{when}  {line.table_id} {line.n:>4}  {line.channel:<10}  {line.name or '(guest)'}"
        f"  reports={line.reports}  {state}  {words}"
    )


@chat.command("list", cls=Command)
def chat_list(
    table: Annotated[str | None, typer.Option(help="only this table's lines")] = None,
    name: Annotated[str | None, typer.Option(help="only lines said under this name")] = None,
    every: Annotated[
        bool, typer.Option("--every", help="every line, not only reported ones still shown")
    ] = False,
    limit: Annotated[int, typer.Option(min=1, max=10_000, help="at most this many lines")] = 50,
    db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None,
) -> None:
    """List chat lines, newest first: when, table, line number, channel, who, reports, words."""
    from cardtable.server.live.moderation import listed

    lines = _run_on_database(
        db,
        "chat list",
        lambda engine: listed(engine, table_id=table, name=name, every=every, limit=limit),
    )
    if not lines:
        typer.echo("no reported line waits for you" if not every else "no chat line matches")
    for line in lines:
        typer.echo(_shown(line))


@chat.command("remove", cls=Command)
def chat_remove(
    table: Annotated[str, typer.Argument(metavar="TABLE", help="the table's id")],
    numbers: Annotated[
        list[int], typer.Argument(metavar="N...", min=0, help="the lines' numbers (chat list)")
    ],
    db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None,
) -> None:
    """Remove lines of one table's chat from every view (their words stay for you to read)."""
    from cardtable.server.live.moderation import NoSuchLines, remove

    try:
        count = _run_on_database(
            db, "chat remove", lambda engine: remove(engine, table, numbers, _now_ms())
        )
    except NoSuchLines as exc:
        raise fail(f"chat remove: {exc}; nothing was removed") from None
    typer.echo(f"removed {count} line(s) of table {table}")


@chat.command("remove-by", cls=Command)
def chat_remove_by(
    name: Annotated[str, typer.Argument(metavar="NAME", help="a seat's or account's name")],
    db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None,
) -> None:
    """Remove every line said under NAME, at every table."""
    from cardtable.server.live.moderation import remove_by

    count = _run_on_database(
        db, "chat remove-by", lambda engine: remove_by(engine, name, _now_ms())
    )
    typer.echo(f"removed {count} line(s) said by {name!r}")


def _now_ms() -> int:
    return int(time.time() * 1000)
