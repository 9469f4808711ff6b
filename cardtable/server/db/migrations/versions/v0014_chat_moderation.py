"""Chat moderation: people report a line, an operator removes it.

``ct_chat.removed_ms`` is when an operator removed a line (NULL: shown).
The text stays in the database for the operator to review; nobody is sent
it again. ``ct_chat_reports`` holds one row per line and reporter: who
reported it (a seat's or account's name, or ``address:…`` for a guest
spectator), from which address, and when.

Revision ID: v0014
Revises: v0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0014"
down_revision = "v0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN, nullable: no batch copy of a table with foreign keys.
    op.add_column("ct_chat", sa.Column("removed_ms", sa.BigInteger, nullable=True))
    op.create_table(
        "ct_chat_reports",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ct_tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("reporter", sa.String(96), primary_key=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ct_chat_reports")
    with op.batch_alter_table("ct_chat") as batch:
        batch.drop_column("removed_ms")
