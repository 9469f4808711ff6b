"""Tournaments: ``ct_tournaments``, their entrants, invitations, tables and chat
(cardtable/server/tournaments/), and ``ct_tables.tournament_id`` naming the
tournament a table plays a deal of. A downgrade drops all of it; the release
before knows no tournaments, and a tournament's tables stay as ordinary
finished tables.

Revision ID: v0020
Revises: v0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0020"
down_revision = "v0019"
branch_labels = None
depends_on = None

TOURNAMENT_TABLES = (
    "ct_tournament_chat",
    "ct_tournament_tables",
    "ct_tournament_invites",
    "ct_tournament_entrants",
    "ct_tournaments",
)


def upgrade() -> None:
    op.create_table(
        "ct_tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("form", sa.String(16), nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("start_ms", sa.BigInteger, nullable=False),
        sa.Column("move_hours", sa.Integer, nullable=True),
        sa.Column("access", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bot", sa.String(16), nullable=False),
        sa.Column("creator_id", sa.String(32), sa.ForeignKey("ct_accounts.id"), nullable=True),
        sa.Column("creator_name", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("deal", sa.Integer, nullable=True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("finished_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_ct_tournaments_start_ms", "ct_tournaments", ["start_ms"])
    op.create_index("ix_ct_tournaments_status", "ct_tournaments", ["status"])
    op.create_table(
        "ct_tournament_entrants",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("ct_tournaments.id"), primary_key=True
        ),
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("entered_ms", sa.BigInteger, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=True),
        sa.Column("rating_after", sa.Float, nullable=True),
        sa.UniqueConstraint("tournament_id", "account_id"),
    )
    op.create_index(
        "ix_ct_tournament_entrants_account_id", "ct_tournament_entrants", ["account_id"]
    )
    op.create_table(
        "ct_tournament_invites",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("ct_tournaments.id"), primary_key=True
        ),
        sa.Column("account_id", sa.String(32), primary_key=True),
    )
    op.create_table(
        "ct_tournament_tables",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("ct_tournaments.id"), primary_key=True
        ),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("points", sa.Text, nullable=True),
        sa.Column("percentages", sa.Text, nullable=True),
    )
    op.create_table(
        "ct_tournament_chat",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("ct_tournaments.id"), primary_key=True
        ),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    # In place (never a copy of ct_tables, which other tables' keys point at).
    with op.batch_alter_table("ct_tables", recreate="never") as table:
        table.add_column(sa.Column("tournament_id", sa.String(32), nullable=True))
    op.create_index("ix_ct_tables_tournament_id", "ct_tables", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_ct_tables_tournament_id", "ct_tables")
    with op.batch_alter_table("ct_tables", recreate="never") as table:
        table.drop_column("tournament_id")
    for name in TOURNAMENT_TABLES:
        op.drop_table(name)  # their indexes go with them
