"""The analyses of finished games, one row per seat.

Revision ID: v0002
Revises: v0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0002"
down_revision = "v0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ct_analyses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ct_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("budget", sa.Float, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("requested_ms", sa.BigInteger, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("ct_analyses")
