"""Web Push: ``ct_push_subscriptions`` lists the browsers each account is
sent notices in (accounts/push.py), and ``ct_notice_addresses`` gains a
switch per kind for them (``push_your_turn``…, all on). A downgrade drops
both, and the release before sends e-mail notices as it did.

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

PUSH_SWITCHES = ("push_your_turn", "push_deadline_soon", "push_finished", "push_invite")


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
    with op.batch_alter_table("ct_notice_addresses") as table:
        for column in PUSH_SWITCHES:
            table.add_column(
                sa.Column(column, sa.Boolean, nullable=False, server_default=sa.true())
            )


def downgrade() -> None:
    with op.batch_alter_table("ct_notice_addresses") as table:
        for column in PUSH_SWITCHES:
            table.drop_column(column)
    op.drop_table("ct_push_subscriptions")  # its indexes go with it
