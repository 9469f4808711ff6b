"""What clients send to the account routes (:mod:`cardtable.server.account_api`)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from cardtable.server.schemas import Closed

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
