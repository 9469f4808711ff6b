"""What an operator sets on ``cardtable serve``: each setting written once.

A setting is a dataclass field made by :func:`setting`: its default, the
range it must lie in and the sentence of help the ``serve`` flag shows. The
flags are made from these fields (``cardtable/cli/serve_cmd.py``) and checked
by :meth:`Bounds.problem`, so a default, a bound or a help text cannot differ
between the command line, the server and its docs. Standard library only: the
command line reads these fields without the web extra installed.

>>> Bounds(at_least=1).problem(0)
'at least 1'
>>> Bounds(above=0, at_most=10).problem(10.5)
'give a number above 0, at most 10'
>>> Bounds(above=0, scale=60).wanted(scale=60)
'give a number above 0'
>>> Bounds(at_least=0.5, at_most=300).problem(0.5) is None
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import Field, dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Bounds:
    """A setting's range and help; ``scale`` is how many of the field's units
    one unit of its flag is (``--waiting-minutes`` sets seconds: 60)."""

    help: str = ""
    at_least: float | None = None
    above: float | None = None
    at_most: float | None = None
    flag: str | None = None  # the flag's name when it is not the field's
    scale: float = 1.0

    def problem(self, value: float) -> str | None:
        """What is wrong with ``value`` (in the field's units), or None."""
        fits = (
            (self.at_least is None or value >= self.at_least)
            and (self.above is None or value > self.above)
            and (self.at_most is None or value <= self.at_most)
        )
        return None if fits else self.wanted()

    def wanted(self, scale: float = 1.0) -> str:
        """The range in words, in units of ``scale`` field units."""
        low, high = self.at_least, self.above
        top = None if self.at_most is None else f"{self.at_most / scale:g}"
        if low is not None:
            return f"at least {low / scale:g}" if top is None else f"give {low / scale:g} to {top}"
        if high is not None:
            above = f"give a number above {high / scale:g}"
            return above if top is None else f"{above}, at most {top}"
        return f"at most {top}"


def setting(
    default: Any,
    help: str,
    *,
    at_least: float | None = None,
    above: float | None = None,
    at_most: float | None = None,
    flag: str | None = None,
    scale: float = 1.0,
) -> Any:
    """A dataclass field that is a ``serve`` setting (see the module's doc)."""
    bounds = Bounds(help, at_least, above, at_most, flag, scale)
    if default is not None and (trouble := bounds.problem(default)) is not None:
        raise ValueError(f"the default {default!r} is out of its own range: {trouble}")
    return field(default=default, metadata={"setting": bounds})


def bounds_of(owner: type, name: str) -> tuple[Any, Bounds]:
    """A setting's default and bounds: ``bounds_of(Limits, "chat_per_minute")``."""
    found: Field[Any] = next(f for f in fields(owner) if f.name == name)
    return found.default, found.metadata["setting"]


@dataclass(frozen=True)
class Limits:
    """The lobby's limits and lifetimes (docs/server.md, "A lobby that stays clean")."""

    creates_per_minute: int = setting(10, "tables one client may create per minute", at_least=1)
    waiting_per_client: int = setting(
        5, "tables of one client that may wait for players at once", at_least=1
    )
    joins_per_minute: int = setting(30, "seat requests one address may make per minute", at_least=1)
    token_attempts_per_minute: int = setting(
        20, "wrong seat tokens one address may send per minute", at_least=1
    )
    # Each sign-up hashes a password with argon2: a cost worth bounding.
    signups_per_minute: int = setting(5, "accounts one address may make per minute", at_least=1)
    quick_per_client: int = setting(
        4, "people of one address waiting for a quick match at once", at_least=1
    )
    chat_per_minute: int = setting(
        12, "chat lines one client may send at one table per minute", at_least=1
    )
    # One client cannot spam many tables at once, each under its own count.
    chat_per_address_per_minute: int = setting(
        60, "chat lines from one address at all tables together per minute", at_least=1
    )
    # A turn-based game costs a table for days: a bound per account keeps one
    # account from holding the server's tables (issue 30 suggests 500).
    turn_based_per_account: int = setting(
        500, "unfinished turn-based games one account may sit at", at_least=1
    )
    # Each list is read whole for the friends page: a bound keeps that page small.
    friends_per_account: int = setting(
        200, "people one account may follow, and people it may block", at_least=1
    )
    waiting_seconds: float = setting(
        30 * 60,
        "a waiting table nobody joins expires after this",
        above=0,
        flag="waiting-minutes",
        scale=60,
    )
    abandoned_seconds: float = setting(
        24 * 3600,
        "a game all its people left is finished by stand-ins after this",
        above=0,
        flag="abandoned-hours",
        scale=3600,
    )
    # A turn-based game nobody has open leaves memory (cardtable/server/live/parking.py):
    # it costs only its rows until someone opens it or its deadline nears.
    park_seconds: float = setting(
        5 * 60,
        "a turn-based game nobody has open leaves memory after this",
        at_least=0,
        flag="park-minutes",
        scale=60,
    )
    # How late a lifetime above, or a turn-based deadline, may be acted on.
    sweep_seconds: float = setting(
        30.0,
        "seconds between a process's sweeps of its tables (expiry, stand-ins, deadlines)",
        at_least=1,
        at_most=3600,
    )
    public_url: str | None = None  # the site's address behind a reverse proxy
    trusted_proxies: frozenset[str] = frozenset()  # proxies whose X-Forwarded-For counts
    clock: Callable[[], float] = field(default=time.time, compare=False)  # seconds (tests)


@dataclass(frozen=True)
class Settings:
    """What ``cardtable serve`` configures."""

    db_url: str
    grace_seconds: float = setting(
        30.0, "seconds before a bot plays for a player who left", at_least=0
    )
    bot_workers: int = setting(1, "processes for search bots", at_least=1)
    # Counted in memory: a parked turn-based game (live/parking.py) does not count.
    max_tables: int = setting(
        5000, "tables waiting or playing at once; past it creates get 503", at_least=1
    )
    # A game's analysis ties up a worker for about this many seconds per decision.
    analysis_budget: float = setting(
        0.25,
        "nominal seconds per decision when a finished game is analyzed",
        above=0,
        at_most=10,
    )
    # Where the session secret is kept (None: beside a SQLite file, else the
    # user data folder); see cardtable/server/accounts/secret.py.
    data_dir: str | None = None
    fast_passwords: bool = False  # cheap argon2 parameters: tests only
    limits: Limits = field(default_factory=Limits)  # the lobby's limits and lifetimes
    # Several processes on one PostgreSQL: the Redis that joins them (None:
    # this process is alone), and how long a table's lease lasts unrenewed.
    redis_url: str | None = None
    lease_seconds: float = setting(
        5.0,
        "seconds a table stays with a process that stopped answering (with --redis)",
        at_least=0.5,
        at_most=300,
    )
    # E-mail notices (cardtable/server/accounts/notices.py): the SMTP server's
    # URL (smtp://user:password@host:port, smtps:// for TLS, ?starttls=1;
    # None: no mail is sent and no address can be given) and the From address.
    smtp_url: str | None = None
    mail_from: str | None = None
    # A process of its own (``cardtable serve``, not a test's app): once
    # started, freeze its heap and space out the cycle collector
    # (cardtable/server/live/collector.py).
    settle_heap: bool = False
