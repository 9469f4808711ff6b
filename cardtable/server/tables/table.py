"""One game table in memory: the authoritative state, its seats and clients.

A :class:`Table` knows nothing of sockets or databases. It checks a move
(:meth:`Table.check_move`) and prepares it on a clone
(:meth:`Table.prepare`); the caller stores the new events and only then
adopts the clone (:meth:`Table.adopt`), so no client ever sees a move that
is not on disk.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import secrets
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.engine import refusal
from cardtable.core.errors import RecordError, RefusalParam
from cardtable.core.game import Game, Move, State
from cardtable.core.replay import load_record
from cardtable.server.tables.chat import HISTORY, ChatLine, may_read
from cardtable.server.tables.facts import SeatFacts, TableFacts
from cardtable.server.tables.journal import Event, Journal
from cardtable.server.wire import BadInput

LOG_LENGTH = 50


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> tuple[str, str]:
    """A seat's secret token and the hash that is stored in its place."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


class Refused(BadInput):
    """A message the table will not act on; ``rule`` (and the refusal's
    ``key`` and ``params``, when the game names them) when the engine refused it;
    ``retry_ms`` when the same message may succeed if sent again after that long."""

    def __init__(
        self,
        message: str,
        rule: str | None = None,
        key: str | None = None,
        params: Mapping[str, RefusalParam] | None = None,
        retry_ms: int | None = None,
    ) -> None:
        self.rule = rule
        self.key = key
        self.params = dict(params) if params else {}
        self.retry_ms = retry_ms
        super().__init__(message, 409)


def _stays_open(code: int) -> None:
    """What closing a connection without a socket (a test's client) does: nothing."""


@dataclass(eq=False)
class Client:
    """One open connection: the seat it acts for (``None``: a spectator) and
    its outbound queue, drained by the connection's own sender task;
    ``close(code)`` ends the connection after what is queued."""

    seat: int | None
    send: Callable[[str], None]
    close: Callable[[int], None] = _stays_open
    address: str = ""  # the client's address, as the limits count it
    account: str | None = None  # a signed-in spectator's account name (its chat's name)
    viewer: str | None = None  # the id of the account signed in on this connection, if any
    # The names of the accounts that account blocked: their chat lines are not sent here.
    muted: frozenset[str] = frozenset()

    def hears(self, line: ChatLine) -> bool:
        """Whether this connection is sent ``line``: a channel it reads, said
        under no name it blocked."""
        return may_read(self.seat, line.channel) and line.name not in self.muted


@dataclass(frozen=True)
class Reader:
    """Who is signed in on a connection (nobody, for a guest): the account's
    name and id, and the names of the accounts it blocked. A relayed socket
    carries it to the table's owner, which filters the chat as it would here."""

    name: str | None = None
    viewer: str | None = None
    muted: frozenset[str] = frozenset()


@dataclass
class Seat:
    facts: SeatFacts
    connections: int = 0
    stand_in: str | None = None  # why a bot plays this human seat: "timeout", "left", DROPPED…
    left_at: float | None = None  # loop time the last connection closed
    # The log said "left": only then does it say "is back" (a person missed
    # before their first connection has not been away).
    gone_told: bool = False

    @property
    def human(self) -> bool:
        return self.facts.kind == "human"

    @property
    def taken(self) -> bool:
        return not self.human or self.facts.token_hash is not None


@dataclass(eq=False)
class Timer:
    seq: int
    seat: int
    deadline_ms: int
    task: asyncio.Task[None] | None = None


@dataclass(frozen=True)
class Overdue:
    """A person's move time ran out at a turn-based table whose stand-in
    plays that move: the deadline event is stored with the stand-in's move
    (:func:`~cardtable.server.tables.journal.deadline_event`)."""

    seat: int
    at_ms: int
    deadline_ms: int


@dataclass(eq=False)
class TakebackRequest:
    """``seat`` asked at move ``seq`` to take its last move back; ``waiting``
    are the people still to answer, until ``deadline_ms`` (then it lapses)."""

    seat: int
    seq: int
    waiting: set[int]
    deadline_ms: int
    task: asyncio.Task[None] | None = None


@dataclass(eq=False)
class Table:
    """A table: settings, seats, the game and who is connected."""

    facts: TableFacts
    game: Game
    state: State
    journal: Journal
    seats: list[Seat]
    clients: set[Client] = field(default_factory=set)
    log: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=LOG_LENGTH))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: Timer | None = None
    auto: tuple[tuple[int, int, str], asyncio.Task[None]] | None = None  # (seq, seat, bot)
    # The view-derived part of each seat's message at move ``parts_seq``.
    parts: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    parts_seq: int = -1
    # The latest chat lines (what a client is sent on connecting), and the next line's number.
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=HISTORY))
    chat_next: int = 0
    takeback: TakebackRequest | None = None  # a take-back asked for and not yet answered
    overdue: Overdue | None = None  # a timed-out person's move the stand-in is to make
    # A tournament's table: {id, name, deal, deals}, set by the tournament's
    # director while it runs (the table page's "deal 2 of 8" line).
    tournament_label: dict[str, Any] | None = None

    @property
    def id(self) -> str:
        return self.facts.id

    @property
    def status(self) -> str:
        return self.facts.status

    @property
    def seq(self) -> int:
        """Moves applied (and stored) so far, take-backs counted as moves too."""
        return self.journal.seq

    @property
    def spectators(self) -> int:
        return sum(1 for c in self.clients if c.seat is None)

    @property
    def humans_present(self) -> bool:
        return any(s.human and s.connections for s in self.seats)

    @property
    def has_humans(self) -> bool:
        return any(s.human for s in self.seats)

    def names(self) -> list[str]:
        """A name per seat, as a record's ``players`` lists them."""
        return [
            seat_name(i, s.facts.kind, s.facts.bot, s.facts.name) for i, s in enumerate(self.seats)
        ]

    def record(self) -> dict[str, Any]:
        """The game's ``cardtable-record/1`` document, with a turn-based
        table's metadata (docs/records.md, "Turn-based tables"): its
        ``move_hours``, ``on_timeout`` and ``deadlines``. A game ended on
        time stopped before its rules ended it: its ``result`` keeps only
        what the moves give (``scores``, ``round_scores``), and the ending is
        its ``end`` deadline."""
        record: dict[str, Any] = self.state.record(self.names())
        if not self.facts.turn_based:
            return record
        if self.journal.ended is not None and isinstance(record.get("result"), dict):
            result = record["result"]
            record["result"] = {k: v for k, v in result.items() if k not in ("finished", "winners")}
        record["move_hours"] = self.facts.move_hours
        record["on_timeout"] = self.facts.on_timeout
        record["deadlines"] = [dict(d) for d in self.journal.deadlines]
        return record

    def rename_in_chat(self, spectator: str, seats: set[int], name: str) -> None:
        """Rename the kept chat lines of ``seats`` and of the spectator named ``spectator``."""
        self.chat = deque(
            (
                dataclasses.replace(line, name=name)
                if line.seat in seats or (line.seat is None and line.name == spectator)
                else line
                for line in self.chat
            ),
            maxlen=HISTORY,
        )

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        found = None
        for i, seat in enumerate(self.seats):  # compare with every seat: constant time
            stored = seat.facts.token_hash
            if stored is not None and hmac.compare_digest(stored, digest):
                found = i
        return found

    def controller(self, seat: int) -> str | None:
        """The bot that plays ``seat`` now (a bot seat's own, or the stand-in), or ``None``."""
        s = self.seats[seat]
        if not s.human:
            return s.facts.bot
        return self.facts.stand_in if s.stand_in is not None else None

    def note(self, event: str, seat: int | None) -> None:
        name = None if seat is None else self.seats[seat].facts.name
        self.log.append({"seq": self.seq, "seat": seat, "event": event, "name": name})

    # --- moves ----------------------------------------------------------------
    def check_move(self, seat: int | None, seq: int, move: dict[str, Any]) -> Move:
        """The move a client asks for (its message's shape already checked),
        or :class:`Refused` saying why not."""
        if seat is None:
            raise Refused("spectators cannot move; join a free seat to play")
        if self.status != "playing":
            why = "the game is over" if self.status == "finished" else "players are still joining"
            raise Refused(f"no move now: {why}")
        # The two a person meets by racing the table (a double click, a tab
        # behind) are named too, so the browser says them in its language.
        if seq != self.seq:
            raise Refused(
                f"stale move: it was sent at move {seq}, the table is at move {self.seq}",
                key="stale",
                params={"sent": seq, "now": self.seq},
            )
        if "seat" in move:
            raise Refused("message.move has no 'seat': the server knows yours")
        to_move = self.state.to_move
        if seat != to_move:
            raise Refused(
                f"it is seat {to_move}'s turn, not yours (seat {seat})",
                key="turn",
                params={"to_move": to_move, "seat": seat}
                if to_move is not None
                else {"seat": seat},
            )
        try:
            _, parsed, chance = self.game.move_from_json({**move, "seat": seat}, "message.move")
        except RecordError as exc:
            raise Refused(str(exc)) from None
        if chance:
            raise Refused(f"message.move: {', '.join(chance)} is drawn by the server, not sent")
        if all(parsed.index != legal.index for legal in self.state.legal_moves()):
            reason = refusal(self.state, seat, parsed)  # the engine's own words and rule
            if reason is None:
                raise Refused(f"{parsed} is not a legal move now")
            raise Refused(str(reason), reason.rule or None, reason.key, reason.params)
        return parsed

    def prepare(self, seat: int, move: Move) -> tuple[State, list[Event]]:
        """The state after ``move`` (a clone) and the events to store for it.

        A tournament's table plays one deal, its game's first round: the move
        that ends that round ends the table, and the next round's deal, which
        the engine has already made, is neither stored nor shown (the state
        stays at the round's end, as a replay of its record leaves it)."""
        after = self.state.clone()
        new = self.journal.applied(after.apply_as(seat, move), after)
        if self.facts.tournament is None or after.finished or after.round_number == 1:
            return after, new
        cut = next(i for i, (kind, _) in enumerate(new) if kind == "deal")
        new = new[:cut]
        events = Journal([*self.journal.events, *new])
        record = events.record(self.game.name, self.game.options_json)
        return load_record(record, deal_next=False), new

    def over(self, state: State) -> bool:
        """Whether the table ends at ``state``: the game is over, or a
        tournament's deal is (its round ended: :meth:`prepare`)."""
        return state.finished or (self.facts.tournament is not None and state.awaiting_deal)

    def adopt(self, after: State, new: list[Event]) -> None:
        """Make ``after`` the table's state, its events having been stored."""
        self.state = after
        self.journal.commit(new)
        if self.over(after):
            self.facts.status = "finished"


#: A Seat.stand_in reason: a turn-based table dropped the person for running
#: out of time, and its stand-in plays the seat to the end (stored: dropped_ms).
DROPPED = "dropped"


def seat_name(seat: int, kind: str, bot: str | None, name: str | None) -> str:
    """A seat's name as a record's ``players`` lists it: its person's, its
    bot's (``bot:easy``), or ``seat N`` for a person's seat still free."""
    return name or (f"bot:{bot}" if kind != "human" else f"seat {seat}")


def build_table(facts: TableFacts, game: Game, state: State, journal: Journal) -> Table:
    seats = [Seat(s, stand_in=None if s.dropped_ms is None else DROPPED) for s in facts.seats]
    return Table(facts, game, state, journal, seats)


def unique_name(name: str, taken: Iterable[str | None], limit: int = 32) -> str:
    """``name``, or ``name 2``, ``name 3``… if another seat already goes by it
    (compared case-folded), kept within ``limit`` characters.

    >>> unique_name("Player", ["Player", "Easy bot"])
    'Player 2'
    >>> unique_name("ann", ["Ann", "Ann 2"])
    'ann 3'
    >>> unique_name("Bob", ["Ann", None])
    'Bob'
    """
    used = {other.casefold() for other in taken if other}
    candidate, number = name, 1
    while candidate.casefold() in used:
        number += 1
        suffix = f" {number}"
        candidate = name[: limit - len(suffix)].rstrip() + suffix
    return candidate
