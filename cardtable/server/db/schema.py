"""The database tables, on one ``metadata``: what the code queries.

Games: a game table is its record (events) plus seats and settings.
``ct_events`` is append-only: one row per deal and per move, in order, each
the JSON a ``cardtable-record/1`` writes for it (a move with its ``seat`` and
any chance outcome). Replaying the events rebuilds the game exactly.
``ct_chat`` holds what was said at a table, in order, stored with it and
shown beside its replay. ``ct_analyses`` holds the analysis of a finished game, one row per seat
(requested, then done with its JSON, or failed).

Accounts: people, their sessions, their seats, their login limits (and the
addresses they signed in from). A seat of ``ct_seats`` belongs to an account
when ``ct_account_seats`` links it, so a guest's seat needs no account and the
game tables keep their shape.

Ratings: each account's rating per game and player count, and what each rated
table changed. ``ct_rating_changes`` has one row per account of each rated
table, written in the transaction that stores the table's last move: a table is
rated exactly once, and a restart neither rates it again nor skips it.

Friends: ``ct_follows`` (who follows whom), ``ct_blocks`` (who blocked whom)
and ``ct_invites`` (an invitation to a table, from one account to another),
each row going with either account (``accounts.py``, ``delete``).

Notifications (accounts/notices.py): ``ct_notice_addresses`` holds one
account's e-mail address, its verification, its unsubscribe key and its
choices; ``ct_notices`` the notices waiting for its next digest, one per
account, kind, table and turn (two processes enqueueing one notice make one row).
``ct_push_subscriptions`` holds the browsers an account receives Web Push in
(accounts/push.py), one row per push endpoint.

Tournaments (cardtable/server/tournaments/): ``ct_tournaments`` holds each
tournament's settings and how far it is (the deal being played);
``ct_tournament_entrants`` its entrants (people when they enter, numbered
with the bots that fill the tables when it starts), ``ct_tournament_invites``
whom its creator invited, ``ct_tournament_tables`` every table of every
deal: who sat where, and, once the deal is over at every table, each seat's
points and percentage; ``ct_tournament_chat`` what its people said (never
while a deal is being played).

Puzzle training: ``ct_puzzle_players`` holds one Glicko-2 state per account
and game; ``ct_puzzle_attempts`` one row per puzzle an account tried, its first
try (the only one that is rated: a puzzle counts once, so its answer, once
seen, cannot be cashed in again).

The migrations in ``migrations/versions`` create these tables.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    true,
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
    # Turn-based (v0016): hours a person has for each move (null: real time),
    # what the table does when they run out, and when the current turn began.
    Column("move_hours", Integer, nullable=True),
    Column("on_timeout", String(16), nullable=True),
    Column("turn_started_ms", BigInteger, nullable=True),
    # A tournament's table (v0020): it plays one deal of that tournament.
    Column("tournament_id", String(32), nullable=True, index=True),
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
    # When the person was dropped for running out of time (a bot plays on: v0016).
    Column("dropped_ms", BigInteger, nullable=True),
)

events = Table(
    "ct_events",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # 0, 1, 2… in game order
    Column("kind", String(8), nullable=False),  # "deal", "move" or "takeback" (journal.py)
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
    # Several processes (cardtable/server/db/analysis_queue.py): the process
    # working on a pending seat until ``claimed_until_ms`` (the database's
    # clock, renewed while it works), and how many decisions it has judged.
    Column("claimed_by", String(128), nullable=True),
    Column("claimed_until_ms", BigInteger, nullable=True),
    Column("progress", Integer, nullable=True),
)

# Which server process owns a table when several share one PostgreSQL
# (cardtable/server/db/leases.py): ``owner`` until ``expires_ms`` (the database's
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

# A turn-based game at rest (v0018, cardtable/server/live/parking.py): nobody
# had it open, so no process holds it in memory. ``due_ms``: when a process must
# bring it back (an hour before the deadline of the move it waits for);
# ``line``: its lobby line as it was parked (public facts only), which "My
# games" and "Your turn" show while it rests. A row and a live lease never go
# together for long: the process that brings the table back deletes the row
# first.
parked = Table(
    "ct_parked",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("due_ms", BigInteger, nullable=False, index=True),
    Column("line", Text, nullable=False),  # JSON
    Column("parked_ms", BigInteger, nullable=False),
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

# Accounts.

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
    # Failures per budget (accounts/signin_delays.py): "pair:<case-folded name>|<address>",
    # "addr:<address>" or "name:<case-folded name>"; and "known:<account id>|<address>"
    # (failures 0), an address that signed the account in at last_ms.
    Column("key", String(128), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("last_ms", BigInteger, nullable=False),
)

# Ratings.

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

# Puzzle training.

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

# Friends (accounts/friends.py).

follows = Table(
    "ct_follows",
    metadata,
    Column("follower_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("followed_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_ct_follows_followed_id", "followed_id"),
)

blocks = Table(
    "ct_blocks",
    metadata,
    Column("blocker_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("blocked_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_ct_blocks_blocked_id", "blocked_id"),
)

invites = Table(
    "ct_invites",
    metadata,
    # One invitation per invited person, inviter and table: asking again changes nothing.
    Column("invitee_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("inviter_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_ct_invites_inviter_id", "inviter_id"),
)

# Notifications (accounts/notices.py).

notice_addresses = Table(
    "ct_notice_addresses",
    metadata,
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), primary_key=True),
    Column("email", String(254), nullable=True),
    Column("set_ms", BigInteger, nullable=False),  # when the address was set
    Column("verified_ms", BigInteger, nullable=True),
    # SHA-256 of the link's token: the token itself is only in the mail.
    Column("verify_key", String(64), nullable=True, unique=True),
    # SHA-256 of the unsubscribe token (an HMAC of the account under the
    # server's secret), to find the account by the token of a link.
    Column("unsubscribe_key", String(64), nullable=False, unique=True),
    Column("lang", String(8), nullable=False),  # the page's language when it was set
    Column("base_url", String(256), nullable=False),  # the site the links point to
    Column("your_turn", Boolean, nullable=False),
    Column("deadline_soon", Boolean, nullable=False),
    Column("finished", Boolean, nullable=False),
    Column("invite", Boolean, nullable=False),
    # When the last digest was sent: the next one waits an hour from it.
    Column("last_digest_ms", BigInteger, nullable=False),
    # The same four kinds for Web Push (v0019): each channel chosen per kind.
    Column("push_your_turn", Boolean, nullable=False, server_default=true()),
    Column("push_deadline_soon", Boolean, nullable=False, server_default=true()),
    Column("push_finished", Boolean, nullable=False, server_default=true()),
    Column("push_invite", Boolean, nullable=False, server_default=true()),
)

notices = Table(
    "ct_notices",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("table_id", String(32), nullable=False),
    # The turn it is about (ct_tables.turn_started_ms), 0 for a notice once per table.
    Column("turn_ms", BigInteger, nullable=False),
    Column("detail", String(64), nullable=True),  # the inviter's name
    Column("created_ms", BigInteger, nullable=False),
    Column("sent_ms", BigInteger, nullable=True),
    UniqueConstraint("account_id", "kind", "table_id", "turn_ms", name="uq_ct_notices_once"),
    Index("ix_ct_notices_pending", "account_id", "sent_ms"),
)

# Web Push (accounts/push.py): one row per browser, keyed by its push service's
# endpoint (a browser that signs in to another account moves with it).
push_subscriptions = Table(
    "ct_push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", String(32), ForeignKey("ct_accounts.id"), nullable=False),
    Column("endpoint", String(1024), nullable=False, unique=True),
    Column("p256dh", String(100), nullable=False),  # the browser's P-256 key, base64url
    Column("auth", String(32), nullable=False),  # its 16-byte auth secret, base64url
    Column("lang", String(8), nullable=False),  # the page's language when it subscribed
    Column("base_url", String(256), nullable=False),  # the site a notice's link points to
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_ct_push_subscriptions_account_id", "account_id"),
)

tournaments = Table(
    "ct_tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),  # the game options as JSON, players included
    Column("form", String(16), nullable=False),  # "duplicate" or "swiss"
    Column("deals", Integer, nullable=False),
    Column("start_ms", BigInteger, nullable=False, index=True),
    Column("move_hours", Integer, nullable=True),  # null: real time
    Column("access", String(16), nullable=False),  # "open" or "invite"
    Column("rated", Boolean, nullable=False),
    Column("bot", String(16), nullable=False),  # the level of the bots that fill seats
    Column("creator_id", String(32), ForeignKey("ct_accounts.id"), nullable=True),
    Column("creator_name", String(64), nullable=False),
    # "upcoming", "running", "finished" or "cancelled".
    Column("status", String(16), nullable=False, index=True),
    Column("seed", BigInteger, nullable=False),
    Column("deal", Integer, nullable=True),  # the deal being played (from 0) while running
    Column("created_ms", BigInteger, nullable=False),
    Column("finished_ms", BigInteger, nullable=True),
)

tournament_entrants = Table(
    "ct_tournament_entrants",
    metadata,
    Column("tournament_id", String(32), ForeignKey("ct_tournaments.id"), primary_key=True),
    Column("id", Integer, primary_key=True),  # drawn at entry (bots: after the largest)
    Column("account_id", String(32), nullable=True, index=True),  # null: a bot
    Column("name", String(64), nullable=False),
    Column("bot", String(16), nullable=True),
    Column("entered_ms", BigInteger, nullable=False),
    # A rated tournament's rating change for the account (display ratings).
    Column("rating_before", Float, nullable=True),
    Column("rating_after", Float, nullable=True),
    UniqueConstraint("tournament_id", "account_id"),
)

tournament_invites = Table(
    "ct_tournament_invites",
    metadata,
    Column("tournament_id", String(32), ForeignKey("ct_tournaments.id"), primary_key=True),
    Column("account_id", String(32), primary_key=True),
)

tournament_tables = Table(
    "ct_tournament_tables",
    metadata,
    Column("tournament_id", String(32), ForeignKey("ct_tournaments.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),  # the table's number on its deal, from 0
    Column("table_id", String(32), nullable=False, unique=True),
    Column("seats", Text, nullable=False),  # JSON: the entrant id at each seat
    Column("points", Text, nullable=True),  # JSON: each seat's points on the deal
    Column("percentages", Text, nullable=True),  # JSON: each seat's percentage
)

tournament_chat = Table(
    "ct_tournament_chat",
    metadata,
    Column("tournament_id", String(32), ForeignKey("ct_tournaments.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # 0, 1, 2… in the order they were said
    Column("account_id", String(32), nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at_ms", BigInteger, nullable=False),
)
