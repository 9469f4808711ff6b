"""Puzzle training of signed-in people: their Glicko-2 puzzle rating per game and
the puzzles they tried.

Revision ID: v0007
Revises: v0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v0007"
down_revision = "v0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ct_puzzle_players",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ct_accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "ct_puzzle_attempts",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("ct_accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating_after", sa.Float, nullable=False),
        sa.Column("puzzle_rating", sa.Float, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ct_puzzle_attempts")
    op.drop_table("ct_puzzle_players")
