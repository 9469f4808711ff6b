"""What clients may send, as msgspec schemas.

:func:`cardtable.server.wire.convert` checks a parsed body or message
against one of these and words a fault from the schema: a field's
``description`` when it has one, else its type and range. Checks that need
the registry (which games and bots exist, a game's options) stay with the
code that asks it (:mod:`cardtable.server.tables.lobby`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from msgspec import UNSET, Meta, Struct, UnsetType

__all__ = [
    "STAND_INS",
    "UNSET",
    "Analyze",
    "BackMessage",
    "ChatMessage",
    "Claim",
    "ClientMessage",
    "Confirm",
    "CreateTable",
    "Credentials",
    "GuestSeat",
    "Join",
    "MoveMessage",
    "NewPassword",
    "PingMessage",
    "QuickJoin",
    "Rematch",
    "ReportMessage",
    "SeatRequest",
]

StandIn = Literal["easy", "medium", "random"]
STAND_INS: tuple[str, ...] = get_args(StandIn)  # in the order a default is chosen
#: A turn-based table's time per move, in hours (1 h, 12 h, a day, three days).
MoveHours = Literal[1, 12, 24, 72]
MOVE_HOURS: tuple[int, ...] = get_args(MoveHours)
#: What a turn-based table does when a person's move time runs out: its
#: stand-in bot plays that one move, or takes the seat for the rest of the game,
#: or the game ends with that person last.
OnTimeout = Literal["stand-in", "drop", "end"]
ON_TIMEOUT: tuple[str, ...] = get_args(OnTimeout)

SeatNumber = Annotated[int, Meta(ge=0, le=99)]


class Closed(Struct, forbid_unknown_fields=True):
    """A JSON object with exactly the fields named (an unknown one is refused)."""


class SeatRequest(Closed):
    """One seat of a new table: a person, or a bot by name (default ``medium``)."""

    kind: Annotated[Literal["human", "bot"], Meta(description="must be one of human, bot")] = (
        "human"
    )
    bot: str | UnsetType = UNSET


class CreateTable(Closed):
    """``POST /api/tables``."""

    game: str
    seats: Annotated[
        list[SeatRequest], Meta(min_length=1, description="must be a list with one entry per seat")
    ]
    options: dict[str, Any] = {}
    private: bool = False
    rated: bool = True  # False: a friendly table, never rated
    turn_seconds: Annotated[int, Meta(ge=1, le=3600)] | None = None
    bot_delay_ms: Annotated[int, Meta(ge=0, le=10_000)] = 800
    stand_in: StandIn | UnsetType = UNSET
    # Turn-based: hours per move (null: real time) and what their end does.
    move_hours: MoveHours | None = None
    on_timeout: OnTimeout | UnsetType = UNSET


class Join(Closed):
    """``POST /api/tables/{id}/join``."""

    seat: SeatNumber
    name: str


class QuickJoin(Closed):
    """``POST /api/quick``: play now, seated with people as they arrive."""

    game: str
    players: Annotated[int, Meta(ge=1, le=99)]
    name: str = ""  # a guest's name (an account plays under its own)
    wait_seconds: Annotated[int, Meta(ge=5, le=600)] = 30
    bots: Annotated[
        str | None, Meta(description="must be a bot level, or null to wait for people only")
    ] = None


class QuickTurnBased(Closed):
    """``POST /api/quick/turn-based``: a seat at a turn-based table, at once."""

    game: str
    players: Annotated[int, Meta(ge=1, le=99)]
    move_hours: MoveHours = 24


class Analyze(Closed):
    """``POST /api/tables/{id}/analysis``: one seat, or (``null``, absent) every seat."""

    seat: SeatNumber | None = None


class Rematch(Closed):
    """``POST /api/tables/{id}/rematch``."""

    token: Annotated[str, Meta(description="must be your seat's token")]


class MoveMessage(Closed, tag_field="type", tag="move"):
    seq: Annotated[int, Meta(description="must be the number of moves played so far")]
    move: Annotated[
        dict[str, Any],
        Meta(description="must be a JSON object, e.g. a move as the record writes it"),
    ]


class BackMessage(Closed, tag_field="type", tag="back"):
    """Take my seat back from the bot standing in."""


class PingMessage(Closed, tag_field="type", tag="ping"):
    """Keep the connection alive (answered with ``pong``)."""


class ChatMessage(Closed, tag_field="type", tag="chat"):
    """A line for the table's chat: free ``text`` or a quick ``phrase`` (its catalog key)."""

    text: Annotated[str, Meta(description="must be the line's text")] | UnsetType = UNSET
    phrase: Annotated[str, Meta(description="must be a quick phrase's key")] | UnsetType = UNSET


class ReportMessage(Closed, tag_field="type", tag="report"):
    """Report chat line ``n`` to the operator."""

    n: Annotated[int, Meta(ge=0, le=2**31 - 1, description="must be a chat line's number")]


class TakebackMessage(Closed, tag_field="type", tag="takeback"):
    """Ask the others to let me take my last move back (a friendly table)."""


class TakebackAnswerMessage(Closed, tag_field="type", tag="takeback-answer"):
    """Accept or decline the take-back another player asked for."""

    accept: Annotated[bool, Meta(description="must be true (accept) or false (decline)")]


ClientMessage = (
    MoveMessage
    | BackMessage
    | PingMessage
    | ChatMessage
    | ReportMessage
    | TakebackMessage
    | TakebackAnswerMessage
)


# The account routes (:mod:`cardtable.server.web.account_api`).

# Bounded here so that no request makes argon2 hash megabytes.
Password = Annotated[str, Meta(max_length=200)]


class Credentials(Closed):
    """``POST /api/account/signup`` and ``/signin``."""

    name: Annotated[str, Meta(max_length=200)]
    password: Password


class NewPassword(Closed):
    """``POST /api/account/password``."""

    old: Password
    new: Password


class Confirm(Closed):
    """``POST /api/account/delete``: the password again."""

    password: Password


class GuestSeat(Closed):
    """A seat this browser holds as a guest: its table and its token."""

    table: Annotated[str, Meta(max_length=32)]
    token: Annotated[str, Meta(max_length=100, description="must be your seat's token")]


#: Seats one claim may hand in: every token in it is checked (and a wrong one
#: counted against the address's wrong-token limit); the browser sends more in
#: several claims.
MAX_CLAIMED_SEATS = 50


class Claim(Closed):
    """``POST /api/account/claim``: the guest seats to make the account's."""

    seats: Annotated[
        list[GuestSeat],
        Meta(
            max_length=MAX_CLAIMED_SEATS,
            description=f"must be a list of at most {MAX_CLAIMED_SEATS} seats"
            " (send more in another claim)",
        ),
    ]
