"""The database tables of puzzle training: a signed-in person's puzzle rating per game
and the puzzles they tried.

Beside :mod:`cardtable.server.account_schema`, on the same ``metadata``.
``ct_puzzle_players`` holds one Glicko-2 state per account and game;
``ct_puzzle_attempts`` one row per puzzle an account tried, its first try
(the only one that is rated: a puzzle counts once, so its answer, once
seen, cannot be cashed in again). Migration ``v0007`` creates these tables.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, Float, ForeignKey, Integer, String, Table

from cardtable.server.schema import metadata

puzzle_players = Table(
    "ct_puzzle_players",
    metadata,
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
)

puzzle_attempts = Table(
    "ct_puzzle_attempts",
    metadata,
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("puzzle_id", String(32), primary_key=True),
    Column("seq", Integer, nullable=False),  # the account's tries of the game before this one
    Column("played", Integer, nullable=False),  # index into the puzzle's legal moves
    Column("solved", Boolean, nullable=False),
    Column("rating_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("puzzle_rating", Float, nullable=False),  # the puzzle's rating it was rated against
    Column("created_ms", BigInteger, nullable=False),
)
