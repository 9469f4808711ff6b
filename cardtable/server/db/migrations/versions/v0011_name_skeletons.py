"""Account names compared as they look: each account's name skeleton, unique.

Revision ID: v0011
Revises: v0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardtable.server.names import skeleton

revision = "v0011"
down_revision = "v0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ct_accounts") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(256), nullable=True))
    accounts = sa.table(
        "ct_accounts",
        sa.column("id", sa.String),
        sa.column("name", sa.String),
        sa.column("created_ms", sa.BigInteger),
        sa.column("name_skeleton", sa.String),
    )
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.created_ms, accounts.c.id)
    ).all()
    # The oldest account keeps its look; a later one that looks like it keeps
    # its name, with no skeleton (so it blocks nobody, and nobody it).
    seen: set[str] = set()
    for account_id, name in rows:
        look = skeleton(name)
        if look in seen:
            continue
        seen.add(look)
        conn.execute(
            accounts.update().where(accounts.c.id == account_id).values(name_skeleton=look)
        )
    with op.batch_alter_table("ct_accounts") as batch:
        batch.create_unique_constraint("uq_ct_accounts_name_skeleton", ["name_skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("ct_accounts") as batch:
        batch.drop_constraint("uq_ct_accounts_name_skeleton", type_="unique")
        batch.drop_column("name_skeleton")
