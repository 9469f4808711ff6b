"""Ratings of people per game and player count, and each rated table's changes.

``ct_ratings`` holds an account's OpenSkill rating (``mu``, ``sigma``, its
rated games, and ``ordinal`` = mu − 3σ for the leaderboard's index);
``ct_rating_changes`` one row per account of each rated table, before and
after, so that a finished game can show "+12" (cardtable/server/db/ratings.py).

Revision ID: v0005
Revises: v0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0005"
down_revision = "v0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ct_ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ct_accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ct_ratings_board", "ct_ratings", ["game", "players", "ordinal"])
    op.create_table(
        "ct_rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("ct_tables.id"), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ct_accounts.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("games_after", sa.Integer, nullable=False),
        sa.Column("rated_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ct_rating_changes_account_id", "ct_rating_changes", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_ct_rating_changes_account_id", "ct_rating_changes")
    op.drop_table("ct_rating_changes")
    op.drop_index("ix_ct_ratings_board", "ct_ratings")
    op.drop_table("ct_ratings")
