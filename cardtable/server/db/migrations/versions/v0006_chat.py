"""Table chat: each line said at a table, kept with it and shown beside its replay.

Revision ID: v0006
Revises: v0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0006"
down_revision = "v0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ct_chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ct_tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("move", sa.Integer, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ct_chat")
