"""Turn-based tables: a time per move counted in hours, what happens when it
runs out, when the current turn began, and the seats dropped for it.

``move_hours`` is null on a real-time table (every table before this one);
``on_timeout`` says what the table does when a person's move time runs out
(``stand-in``: a bot plays that one move; ``drop``: a bot takes the seat for
the rest of the game). ``turn_started_ms`` is written with each move, so the
deadline (it plus the move time) survives restarts and moves with the
table to another process. ``ct_seats.dropped_ms``: when a person was dropped.
New nullable columns only: nothing of the release before changes.

Revision ID: v0016
Revises: v0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0016"
down_revision = "v0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ct_tables") as batch:
        batch.add_column(sa.Column("move_hours", sa.Integer, nullable=True))
        batch.add_column(sa.Column("on_timeout", sa.String(16), nullable=True))
        batch.add_column(sa.Column("turn_started_ms", sa.BigInteger, nullable=True))
    with op.batch_alter_table("ct_seats") as batch:
        batch.add_column(sa.Column("dropped_ms", sa.BigInteger, nullable=True))


def downgrade() -> None:
    # Dropped in place (SQLite 3.35 and later can): a batch would copy
    # ct_tables, which the other tables' foreign keys keep from being dropped.
    with op.batch_alter_table("ct_seats", recreate="never") as batch:
        batch.drop_column("dropped_ms")
    with op.batch_alter_table("ct_tables", recreate="never") as batch:
        batch.drop_column("turn_started_ms")
        batch.drop_column("on_timeout")
        batch.drop_column("move_hours")
