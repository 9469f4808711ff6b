"""The database tables of ratings: each account's rating per game and player
count, and what each rated table changed.

Beside :mod:`cardtable.server.account_schema`, on the same ``metadata``.
``ct_rating_changes`` has one row per account of each rated table, written in
the transaction that stores the table's last move: a table is rated exactly
once, and a restart neither rates it again nor skips it. Migration ``v0005``
creates these tables.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Float, ForeignKey, Index, Integer, String, Table

from cardtable.server.schema import metadata

ratings = Table(
    "ct_ratings",
    metadata,
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("players", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games so far
    # mu − 3σ: what the leaderboard sorts by, stored so that it can be indexed.
    Column("ordinal", Float, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Index("ix_ct_ratings_board", "game", "players", "ordinal"),
)

rating_changes = Table(
    "ct_rating_changes",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rank", Integer, nullable=False),  # 1 best; a player who left is last
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("games_after", Integer, nullable=False),  # rated games including this one
    Column("rated_ms", BigInteger, nullable=False),
    Index("ix_ct_rating_changes_account_id", "account_id"),
)
