"""Friends: who follows whom, who blocked whom, and invitations to a table.

``ct_follows`` and ``ct_blocks`` hold one row per pair of accounts (the
second indexed, for "who follows me" and "who blocked me");
``ct_invites`` one row per invited account, inviter and table. New tables
only: nothing of the release before changes, and a downgrade drops them.

Revision ID: v0015
Revises: v0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0015"
down_revision = "v0014"
branch_labels = None
depends_on = None


def _account(name: str) -> sa.Column[str]:
    return sa.Column(name, sa.String(32), sa.ForeignKey("ct_accounts.id"), primary_key=True)


def upgrade() -> None:
    op.create_table(
        "ct_follows",
        _account("follower_id"),
        _account("followed_id"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ct_follows_followed_id", "ct_follows", ["followed_id"])
    op.create_table(
        "ct_blocks",
        _account("blocker_id"),
        _account("blocked_id"),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ct_blocks_blocked_id", "ct_blocks", ["blocked_id"])
    op.create_table(
        "ct_invites",
        _account("invitee_id"),
        _account("inviter_id"),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ct_tables.id"), primary_key=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ct_invites_inviter_id", "ct_invites", ["inviter_id"])


def downgrade() -> None:
    for table in ("ct_invites", "ct_blocks", "ct_follows"):
        op.drop_table(table)  # its indexes go with it
