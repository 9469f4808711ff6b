"""Who made each table (its client's address) and when its people were given up
on: what keeps the lobby clean across a restart.

``creator`` counts a client's waiting tables and recent creates after a
restart; ``abandoned_ms`` is set when stand-ins were sent to finish a game
whose people all stayed away, so that the table says it was finished so.

Revision ID: v0004
Revises: v0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0004"
down_revision = "v0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ct_tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("abandoned_ms", sa.BigInteger, nullable=True))
    op.create_index("ix_ct_tables_created_ms", "ct_tables", ["created_ms"])


def downgrade() -> None:
    op.drop_index("ix_ct_tables_created_ms", "ct_tables")
    with op.batch_alter_table("ct_tables") as batch:
        batch.drop_column("abandoned_ms")
        batch.drop_column("creator")
