"""Accounts, their sessions, the seats they hold and their login limits.

Revision ID: v0003
Revises: v0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0003"
down_revision = "v0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ct_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "ct_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ct_accounts.id"), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ct_sessions_account_id", "ct_sessions", ["account_id"])
    op.create_table(
        "ct_account_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ct_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ct_accounts.id"), nullable=False),
    )
    op.create_index("ix_ct_account_seats_account_id", "ct_account_seats", ["account_id"])
    op.create_table(
        "ct_login_limits",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ct_login_limits")
    op.drop_index("ix_ct_account_seats_account_id", "ct_account_seats")
    op.drop_table("ct_account_seats")
    op.drop_index("ix_ct_sessions_account_id", "ct_sessions")
    op.drop_table("ct_sessions")
    op.drop_table("ct_accounts")
