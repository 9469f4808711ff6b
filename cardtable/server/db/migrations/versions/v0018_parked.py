"""Turn-based games at rest: ``ct_parked`` lists the turn-based tables that no
process holds in memory (nobody has them open), when each must come back
(``due_ms``) and its lobby line meanwhile. A new table only: a downgrade drops
it, and the release before brings every live table back at start as it did.

Revision ID: v0018
Revises: v0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0018"
down_revision = "v0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ct_parked",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ct_tables.id"), primary_key=True),
        sa.Column("due_ms", sa.BigInteger, nullable=False),
        sa.Column("line", sa.Text, nullable=False),
        sa.Column("parked_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ct_parked_due_ms", "ct_parked", ["due_ms"])


def downgrade() -> None:
    op.drop_table("ct_parked")  # its index goes with it
