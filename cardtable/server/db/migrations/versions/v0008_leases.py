"""Leases: which server process owns a table when several share one database.

``ct_leases`` holds one row per table (its owner, a fencing epoch and when the
lease runs out); every table already stored gets a free row (no owner, epoch
0), so the first process to need it claims it. ``ct_events.epoch`` records
the epoch each event was written under.

Revision ID: v0008
Revises: v0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0008"
down_revision = "v0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ct_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ct_tables.id"), primary_key=True),
        sa.Column("owner", sa.String(96), nullable=True),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.execute(
        "INSERT INTO ct_leases (table_id, owner, epoch, expires_ms)"
        " SELECT id, NULL, 0, 0 FROM ct_tables"
    )
    with op.batch_alter_table("ct_events") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ct_events") as batch:
        batch.drop_column("epoch")
    op.drop_table("ct_leases")
