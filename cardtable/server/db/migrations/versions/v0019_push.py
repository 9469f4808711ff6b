"""Web Push: ``ct_push_subscriptions`` lists the browsers each account is
sent notices in (accounts/push.py). A new table only: a downgrade drops it,
and the release before sends e-mail notices as it did.

Revision ID: v0019
Revises: v0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0019"
down_revision = "v0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ct_push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ct_accounts.id"), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(32), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("base_url", sa.String(256), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ct_push_subscriptions_account_id", "ct_push_subscriptions", ["account_id"])


def downgrade() -> None:
    op.drop_table("ct_push_subscriptions")  # its indexes go with it
