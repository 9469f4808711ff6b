"""Notifications by e-mail: an account's address and choices, and the notices
waiting for its next digest.

``ct_notice_addresses``: one row per account that gave an address (its
verification, its unsubscribe key, its language and one switch per kind);
``ct_notices``: one row per notice, unique per account, kind, table and turn,
so two processes enqueueing the same notice make one row. New tables only:
nothing of the release before changes, and a downgrade drops them.

Revision ID: v0017
Revises: v0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0017"
down_revision = "v0016"
branch_labels = None
depends_on = None


def _account(primary: bool) -> sa.Column[str]:
    return sa.Column(
        "account_id",
        sa.String(32),
        sa.ForeignKey("ct_accounts.id"),
        primary_key=primary,
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "ct_notice_addresses",
        _account(primary=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("set_ms", sa.BigInteger, nullable=False),
        sa.Column("verified_ms", sa.BigInteger, nullable=True),
        sa.Column("verify_key", sa.String(64), nullable=True, unique=True),
        sa.Column("unsubscribe_key", sa.String(64), nullable=False, unique=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("base_url", sa.String(256), nullable=False),
        sa.Column("your_turn", sa.Boolean, nullable=False),
        sa.Column("deadline_soon", sa.Boolean, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("invite", sa.Boolean, nullable=False),
        sa.Column("last_digest_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "ct_notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account(primary=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("turn_ms", sa.BigInteger, nullable=False),
        sa.Column("detail", sa.String(64), nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("sent_ms", sa.BigInteger, nullable=True),
        sa.UniqueConstraint("account_id", "kind", "table_id", "turn_ms", name="uq_ct_notices_once"),
    )
    op.create_index("ix_ct_notices_pending", "ct_notices", ["account_id", "sent_ms"])


def downgrade() -> None:
    for table in ("ct_notices", "ct_notice_addresses"):
        op.drop_table(table)  # its indexes go with it
