"""The address an account took each of its seats from: two accounts that sat
at one table from one address may be one person playing both, so such a
table is not rated (cardtable/server/tables/outcomes.py). Seats held before
this revision have no address (NULL) and count as before.

Revision ID: v0013
Revises: v0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0013"
down_revision = "v0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN, nullable: no batch copy of a table with foreign keys.
    op.add_column("ct_account_seats", sa.Column("address", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("ct_account_seats") as batch:
        batch.drop_column("address")
