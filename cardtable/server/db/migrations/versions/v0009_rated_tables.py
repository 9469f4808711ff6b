"""Whether a table is rated or friendly, chosen when it is made (Board Game Arena's choice).

A friendly table never changes a rating; a rated one is rated at its end
when the rules of cardtable/server/tables/outcomes.py hold. Tables made before
this revision never said they were rated, so they become friendly (one still
playing at the upgrade ends unrated); the server writes ``rated`` for every
table it makes, so the column's default is friendly too.

Revision ID: v0009
Revises: v0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0009"
down_revision = "v0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (with its default, so old rows read friendly) on SQLite and
    # PostgreSQL alike: no batch copy of ct_tables, which other tables refer to.
    op.add_column(
        "ct_tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    with op.batch_alter_table("ct_tables") as batch:
        batch.drop_column("rated")
