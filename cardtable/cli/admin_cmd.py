"""``cardtable admin``: the operator's tools for a server's database (extra ``[web]``).

``reset-password NAME`` is how a forgotten password is recovered (the server
sends no e-mail): it sets a new random password, prints it for the operator
to hand over, and ends every session of the account. ``migrate`` brings the
database's schema up to this release, as ``cardtable serve`` does at start:
run it alone, after a backup, before starting several processes on a new
release.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated

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

admin = typer.Typer(cls=Group, no_args_is_help=True, help="Operator tools for a server's database.")


async def _reset(url: str, name: str, password: str) -> None:
    from cardtable.server.accounts import Accounts
    from cardtable.server.passwords import Passwords
    from cardtable.server.storage import Storage

    storage = Storage(url)
    await storage.open()  # migrates, as the server would
    try:
        # Sessions are not touched through their HMAC, so the secret is not needed here.
        await Accounts(storage.engine, b"", Passwords()).reset_password(name, password)
    finally:
        await storage.close()


async def _migrate(url: str) -> str:
    from sqlalchemy import text

    from cardtable.server.migrations.env import VERSION_TABLE
    from cardtable.server.storage import Storage

    storage = Storage(url)
    await storage.open()  # migrates to the newest revision
    try:
        async with storage.engine.connect() as conn:
            revision = await conn.scalar(text(f"SELECT version_num FROM {VERSION_TABLE}"))
    finally:
        await storage.close()
    return str(revision)


def _need_web_extra() -> None:
    try:
        import cardtable.server.storage  # noqa: F401  (the web extra is installed)
    except ModuleNotFoundError as exc:
        raise fail(
            f"cardtable admin needs the web extra ({exc.name} is missing): "
            + install_command("web")
        ) from None


@admin.command("migrate", cls=Command)
def migrate(db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None) -> None:
    """Bring the database's schema up to this release (cardtable serve does it at start)."""
    _need_web_extra()
    url = normalize_db_url(db) if db else default_db_url()
    from sqlalchemy.exc import SQLAlchemyError

    try:
        revision = asyncio.run(_migrate(url))
    except (OSError, SQLAlchemyError) as exc:  # no such server, refused, not ours to change
        raise fail(f"migrate {without_password(url)}: {str(exc).splitlines()[0]}") from None
    typer.echo(f"the database is at revision {revision}, this release's newest")


@admin.command("reset-password", cls=Command)
def reset_password(
    name: Annotated[str, typer.Argument(metavar="NAME", help="the account's display name")],
    db: Annotated[str | None, typer.Option(help=DB_URL_HELP)] = None,
) -> None:
    """Give the account NAME a new random password (printed) and sign it out everywhere."""
    _need_web_extra()
    url = normalize_db_url(db) if db else default_db_url()
    password = secrets.token_urlsafe(12)
    try:
        asyncio.run(_reset(url, name, password))
    except CardtableError as exc:
        raise fail(f"reset-password {name!r}: {exc}") from None
    typer.echo(f"the new password of {name!r} is {password}  (every session was signed out)")
