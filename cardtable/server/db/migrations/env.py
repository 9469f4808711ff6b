"""Alembic's environment: migrate over the connection the server hands in.

The server runs ``alembic upgrade head`` itself at start
(:func:`cardtable.server.db.storage.migrate`), passing its open connection in
``config.attributes["connection"]``; nothing else needs configuring.
"""

from __future__ import annotations

from alembic import context

from cardtable.server.db.schema import metadata

VERSION_TABLE = "ct_alembic_version"


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, version_table=VERSION_TABLE)
    with context.begin_transaction():
        context.run_migrations()


# Alembic executes this file; importing it elsewhere (doctest collection) does nothing.
if hasattr(context, "config"):
    run_migrations()
