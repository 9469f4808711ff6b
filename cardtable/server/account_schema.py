"""The database tables of accounts: people, their sessions, their seats, their login limits
(and the addresses they signed in from).

Beside :mod:`cardtable.server.schema` (the game tables), on the same
``metadata``: a seat of ``ct_seats`` belongs to an account when
``ct_account_seats`` links it, so a guest's seat needs no account and the game
tables keep their shape. Migration ``v0003`` creates these tables.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, String, Table, Text

from cardtable.server.schema import metadata

accounts = Table(
    "ct_accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    # The name case-folded: unique, so "Ann" and "ANN" cannot both sign up.
    Column("name_key", String(64), nullable=False, unique=True),
    # How the name looks (cardtable/server/names.py): unique, so "Dave" and
    # "Dаve" (a Cyrillic a) cannot both sign up. Null for an account older
    # than the column whose name looked like an older account's.
    Column("name_skeleton", String(256), nullable=True, unique=True),
    Column("password_hash", Text, nullable=False),  # argon2id, with its own salt
    Column("created_ms", BigInteger, nullable=False),
)

sessions = Table(
    "ct_sessions",
    metadata,
    # HMAC-SHA-256 of the cookie's token under the server's secret: the token
    # itself is never stored, and a copied database signs nobody in.
    Column("id", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), nullable=False, index=True),
    Column("created_ms", BigInteger, nullable=False),
)

account_seats = Table(
    "ct_account_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), nullable=False, index=True),
    # The client address the seat was taken from (None: before v0013): two
    # accounts seated from one address make a table that is not rated.
    Column("address", String(64), nullable=True),
)

login_limits = Table(
    "ct_login_limits",
    metadata,
    # Failures per budget of login_limits: "pair:<case-folded name>|<address>",
    # "addr:<address>" or "name:<case-folded name>"; and "known:<account id>|<address>"
    # (failures 0), an address that signed the account in at last_ms.
    Column("key", String(128), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("last_ms", BigInteger, nullable=False),
)
