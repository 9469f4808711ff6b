"""Passwords: argon2id hashes (argon2-cffi), checked in the same time for unknown names."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from cardtable.server.wire import BadInput

MIN_LENGTH = 8
MAX_LENGTH = 200  # argon2 takes any length; this bounds the work one request asks for


class Passwords:
    """Hashing and checking; ``fast`` lowers the cost for tests only."""

    def __init__(self, fast: bool = False) -> None:
        self.hasher = (
            PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
            if fast
            else PasswordHasher()  # argon2id with the library's recommended cost
        )
        # An unknown name is checked against this, so that its answer takes
        # as long as a wrong password's and does not tell which names exist.
        self.dummy = self.hasher.hash("no account has this password")

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one hashed in ``stored`` (``None``: no such account)."""
        try:
            self.hasher.verify(stored or self.dummy, password)
        except (VerificationError, InvalidHashError):
            return False
        return stored is not None


def new_password(text: str, where: str) -> str:
    """A password someone chooses: :data:`MIN_LENGTH` to :data:`MAX_LENGTH` characters."""
    if not MIN_LENGTH <= len(text) <= MAX_LENGTH:
        raise BadInput(f"{where} must be {MIN_LENGTH} to {MAX_LENGTH} characters")
    return text
