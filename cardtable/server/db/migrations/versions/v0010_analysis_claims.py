"""Analysis jobs claimed by one server process at a time (several processes).

Revision ID: v0010
Revises: v0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0010"
down_revision = "v0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable, no default to fill: every existing row is unclaimed.
    with op.batch_alter_table("ct_analyses") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(128), nullable=True))
        batch.add_column(sa.Column("claimed_until_ms", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("progress", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ct_analyses") as batch:
        batch.drop_column("progress")
        batch.drop_column("claimed_until_ms")
        batch.drop_column("claimed_by")
