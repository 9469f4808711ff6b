"""One finished table has at most one rematch, across processes: a unique
index on ``ct_tables.rematch_of``, so that two processes asked for the same
rematch at once cannot both store one (the second insert fails, and that
process answers with the first one's table).

Databases from before it may hold several rematches of one table (two
processes made one each). The one the finished table names in its
``rematch_id`` stays its rematch (else the earliest made); the others keep
their games and lose only the link back (``rematch_of`` NULL). Then every
finished table names the rematch that points at it.

Revision ID: v0012
Revises: v0011
"""

from __future__ import annotations

from alembic import op

revision = "v0012"
down_revision = "v0011"
branch_labels = None
depends_on = None

INDEX = "ux_ct_tables_rematch_of"


def upgrade() -> None:
    op.execute(
        "UPDATE ct_tables SET rematch_of = NULL"
        " WHERE rematch_of IS NOT NULL AND id <> ("
        "  SELECT kept.id FROM ct_tables kept WHERE kept.rematch_of = ct_tables.rematch_of"
        "  ORDER BY CASE WHEN kept.id = (SELECT old.rematch_id FROM ct_tables old"
        "   WHERE old.id = kept.rematch_of) THEN 0 ELSE 1 END, kept.created_ms, kept.id"
        "  LIMIT 1)"
    )
    op.execute(
        "UPDATE ct_tables SET rematch_id ="
        " (SELECT r.id FROM ct_tables r WHERE r.rematch_of = ct_tables.id)"
        " WHERE EXISTS (SELECT 1 FROM ct_tables r WHERE r.rematch_of = ct_tables.id)"
    )
    # NULLs are distinct in a unique index (SQLite and PostgreSQL): only rematches count.
    op.create_index(INDEX, "ct_tables", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="ct_tables")
