"""How long a sign-in must wait after failed ones: budgets that grow into delays.

Failures are counted three ways, each a budget of its own (:data:`BUDGETS`):
per name and address (someone guessing one account from one place), per
address (one place guessing many names) and per name (many places guessing
one name; a budget much larger than the others', so that strangers cannot
easily lock its owner out). The first ``free`` failures of a budget cost
nothing (typing mistakes); after that each one doubles the wait, up to
:data:`MAX_DELAY_MS`. A quiet spell of :data:`FORGET_MS` forgets a count (an
address many people share is not blocked for ever). The counts live in
``ct_login_limits``, so they hold across a restart and across processes.

An attempt is counted before its password is hashed, by one statement per
budget (:func:`count_attempt`) that increments the count only while the
budget may go ahead and returns nothing when it must wait: two attempts at
once cannot both read the same count, so a burst is checked no more often than
one attempt after another would be.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, case, literal, or_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import Insert

from cardtable.server.db.schema import login_limits as limits

FIRST_DELAY_MS = 1_000
MAX_DELAY_MS = 15 * 60 * 1000
FORGET_MS = 24 * 60 * 60 * 1000
#: How long an address that signed an account in stays known to it (a session's life).
KNOWN_MS = 60 * 24 * 3600 * 1000


@dataclass(frozen=True, slots=True)
class Budget:
    """One way of counting failures: its key's prefix and its free failures."""

    prefix: str
    free: int


PAIR = Budget("pair", 5)  # one name from one address
ADDRESS = Budget("addr", 20)  # every name from one address
NAME = Budget("name", 100)  # one name from every address
BUDGETS = (PAIR, ADDRESS, NAME)


def delay_ms(failures: int, budget: Budget) -> int:
    """The wait after ``failures`` failed attempts in a row."""
    if failures < budget.free:
        return 0
    return min(MAX_DELAY_MS, FIRST_DELAY_MS << min(failures - budget.free, 30))


def wait_ms(failures: int, last_ms: int, now_ms: int, budget: Budget) -> int:
    """How much longer one must wait before the next attempt (0: it may go ahead)."""
    if now_ms - last_ms >= FORGET_MS:
        return 0
    return max(0, last_ms + delay_ms(failures, budget) - now_ms)


def _delay_sql(failures: Any, budget: Budget) -> ColumnElement[int]:
    """:func:`delay_ms` past the free failures in SQL, one branch per doubling
    (ten of them reach the cap)."""
    steps = []
    n = budget.free
    while delay_ms(n, budget) < MAX_DELAY_MS:
        steps.append((failures == n, delay_ms(n, budget)))
        n += 1
    return case(*steps, else_=MAX_DELAY_MS)


def upsert(dialect: str) -> Any:
    """The ``INSERT … ON CONFLICT`` of the dialect (both have one, with ``RETURNING``)."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


def count_attempt(dialect: str, key: str, budget: Budget, now: int) -> Insert:
    """One statement: count an attempt under ``key`` if it may go ahead now;
    it returns the new count then, and no row when the key must wait."""
    new = upsert(dialect)(limits).values(key=key, failures=1, last_ms=now)
    quiet = literal(now) - limits.c.last_ms >= FORGET_MS
    statement: Insert = new.on_conflict_do_update(
        index_elements=[limits.c.key],
        set_={
            "failures": case((quiet, 1), else_=limits.c.failures + 1),
            "last_ms": now,
        },
        # Free failures go ahead whatever the time: an attempt that read the
        # clock just before another may reach the database just after it.
        where=or_(
            quiet,
            limits.c.failures < budget.free,
            limits.c.last_ms + _delay_sql(limits.c.failures, budget) <= now,
        ),
    ).returning(limits.c.failures)
    return statement
