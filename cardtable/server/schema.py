"""The database tables: a game table is its record (events) plus seats and settings.

``ct_events`` is append-only: one row per deal and per move, in order, each
the JSON a ``cardtable-record/1`` writes for it (a move with its ``seat`` and
any chance outcome). Replaying the events rebuilds the game exactly.
``ct_chat`` holds what was said at a table, in order, stored with it and
shown beside its replay. ``ct_analyses`` holds the analysis of a finished game, one row per seat
(requested, then done with its JSON, or failed).
Migrations in ``migrations/versions`` create these tables; this module is
what the code queries.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

tables = Table(
    "ct_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),  # the options as JSON
    Column("private", Boolean, nullable=False),
    Column("turn_seconds", Integer, nullable=True),
    Column("bot_delay_ms", Integer, nullable=False),
    Column("stand_in", String(16), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("created_ms", BigInteger, nullable=False, index=True),
    # A finished table's rematch: at most one per table, across processes (v0012).
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    # The address of the client that made the table (its limits count it), if known.
    Column("creator", String(64), nullable=True),
    # When stand-ins were sent to finish the game, its people all gone too long.
    Column("abandoned_ms", BigInteger, nullable=True),
    # Rated or friendly, chosen when it is made: a friendly table never changes a
    # rating. Tables from before the choice (v0009) are friendly.
    Column("rated", Boolean, nullable=False, server_default=false()),
)

seats = Table(
    "ct_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "human" or "bot"
    Column("bot", String(64), nullable=True),
    Column("name", String(64), nullable=True),
    # The SHA-256 of the seat's token, in hex: the token itself is never stored.
    Column("token_hash", String(64), nullable=True),
)

events = Table(
    "ct_events",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # 0, 1, 2… in game order
    Column("kind", String(8), nullable=False),  # "deal" or "move"
    Column("data", Text, nullable=False),
    # The lease epoch of the process that wrote it (null: one process alone).
    Column("epoch", Integer, nullable=True),
)

analyses = Table(
    "ct_analyses",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("status", String(16), nullable=False),  # "pending", "done" or "failed"
    Column("budget", Float, nullable=False),  # nominal seconds per decision
    Column("seed", Integer, nullable=False),
    Column("requested_ms", BigInteger, nullable=False),
    Column("result", Text, nullable=True),  # the seat's analysis as JSON, once done
    Column("error", Text, nullable=True),  # why it failed, one sentence
    # Several processes (cardtable/server/analysis_queue.py): the process
    # working on a pending seat until ``claimed_until_ms`` (the database's
    # clock, renewed while it works), and how many decisions it has judged.
    Column("claimed_by", String(128), nullable=True),
    Column("claimed_until_ms", BigInteger, nullable=True),
    Column("progress", Integer, nullable=True),
)

# Which server process owns a table when several share one PostgreSQL
# (cardtable/server/leases.py): ``owner`` until ``expires_ms`` (the database's
# clock), renewed by heartbeat; ``epoch`` grows at every claim, and a write
# carrying an older epoch is refused. Null owner: free to claim.
leases = Table(
    "ct_leases",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("owner", String(96), nullable=True),
    Column("epoch", Integer, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
)

chat = Table(
    "ct_chat",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # 0, 1, 2… in the order the table stored them
    Column("channel", String(16), nullable=False),  # "players" or "spectators"
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("name", String(64), nullable=True),  # the speaker's name (None: a guest spectator)
    Column("text", Text, nullable=True),  # free text, or None for a quick phrase
    Column("phrase", String(32), nullable=True),  # a quick phrase's catalog key
    Column("move", Integer, nullable=False),  # moves played when it was said
    Column("at_ms", BigInteger, nullable=False),
    Column("removed_ms", BigInteger, nullable=True),  # when an operator removed it; None: shown
)

# Lines people reported, one row per line and reporter (a seat's or account's
# name, or "address:…" for a guest spectator): what `cardtable admin chat list` shows.
chat_reports = Table(
    "ct_chat_reports",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("reporter", String(96), primary_key=True),
    Column("address", String(64), nullable=False),
    Column("at_ms", BigInteger, nullable=False),
)
