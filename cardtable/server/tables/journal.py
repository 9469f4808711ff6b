"""A game as an append-only list of events, and back.

The server stores a table's game as the events of its record, one per deal
and per move, in order: ``("deal", deal_json)`` or ``("move", move_json)``
(the move as the record writes it, with ``seat`` and chance outcomes). A
move's events are what ``apply`` returned (:meth:`Journal.applied`): the cost
of a move does not grow with the game. A state whose ``apply`` returns
``None`` (a plugin on the bare protocol), and a game just dealt or read back,
are asked for their record instead, of which the journal takes only what is
new (:meth:`Journal.pending`), so any game's record format works unchanged.

A turn-based table also stores ``("deadline", {...})`` events: a person's
move time ran out and what the table did (:func:`deadline_event`). They are
no part of the game's rounds: the journal keeps them apart
(:attr:`Journal.deadlines`), and the table's record lists them under its
top-level ``deadlines`` key (docs/records.md, "Turn-based tables").

>>> import random, cardtable
>>> game = cardtable.load("marshmallow-test", players=3)
>>> state = game.new_game(random.Random(1))
>>> journal = Journal()
>>> [kind for kind, _ in journal.new_events(state)]
['deal']
>>> new = journal.applied(state.apply(state.legal_moves()[0]), state)
>>> [kind for kind, _ in new], journal.moves
(['move'], 0)
>>> journal.commit(new)
>>> journal.moves
1
>>> record = journal.record(game.name, game.options_json)
>>> cardtable.load_record(record).view(0) == state.view(0)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cardtable.core.errors import RecordError
from cardtable.core.game import JSON, Applied, State
from cardtable.core.records import make_record

Event = tuple[str, dict[str, Any]]  # ("deal" | "move" | "takeback" | "deadline", its JSON)
TAKEBACK = "takeback"
DEADLINE = "deadline"
# What a table did when a person's move time ran out (TableFacts.on_timeout):
# its stand-in made that move, the person was dropped, or the game ended.
STAND_IN, DROP, END = "stand-in", "drop", "end"


def deadline_event(journal: Journal, seat: int, action: str, at_ms: int, deadline_ms: int) -> Event:
    """The deadline event of ``seat`` whose time ran out at ``deadline_ms``
    (acted on at ``at_ms``), at the journal's current place: ``move`` is the
    1-based number within the round of the next move (the stand-in's, for
    ``stand-in``)."""
    return (
        DEADLINE,
        {
            "round": journal.rounds,
            "move": journal.moves_in_round + 1,
            "seat": seat,
            "action": action,
            "at_ms": at_ms,
            "deadline_ms": deadline_ms,
        },
    )


class Journal:
    """The events written so far, and where they end in the record."""

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.events: list[Event] = []  # the record's deals and the moves that stand
        self.rounds = 0  # rounds with a deal written
        self.moves_in_round = 0  # moves standing in the last of them
        self.moves = 0  # moves standing in all
        self.takebacks = 0  # moves taken back
        self.stored = 0  # events written, take-backs and the moves they undid included
        self.deadlines: list[dict[str, Any]] = []  # the deadline events' JSON, in order
        self._add(list(events))

    @property
    def seq(self) -> int:
        """Moves and take-backs stored so far: it only grows (a take-back is
        a new number, never the undone move's again)."""
        return self.moves + 2 * self.takebacks

    def _add(self, new: Sequence[Event]) -> None:
        self.stored += len(new)
        for kind, data in new:
            if kind == TAKEBACK:
                self._undo(data)
                continue
            if kind == DEADLINE:
                self.deadlines.append(data)
                continue
            if kind == "deal":
                self.rounds += 1
                self.moves_in_round = 0
            else:
                self.moves_in_round += 1
                self.moves += 1
            self.events.append((kind, data))

    def _undo(self, data: dict[str, Any]) -> None:
        """Drop the last move, which a take-back event follows."""
        if not self.events or self.events[-1][0] != "move" or not self.moves_in_round:
            raise RecordError("takeback", "it follows no move of this round")
        if self.events[-1][1].get("seat") != data.get("seat"):
            raise RecordError("takeback.seat", "the move before it is another seat's")
        undone = (STAND_IN, self.rounds, self.moves_in_round)  # the stand-in's move it named
        self.deadlines = [
            d for d in self.deadlines if (d["action"], d["round"], d["move"]) != undone
        ]
        self.events.pop()
        self.moves -= 1
        self.moves_in_round -= 1
        self.takebacks += 1

    def applied(self, applied: Applied | None, after: State) -> list[Event]:
        """The events of one move, without writing them: those ``apply``
        returned (``applied``), or for a state whose ``apply`` returns
        ``None`` the record's new tail (:meth:`pending` of ``after``)."""
        return self.pending(after) if applied is None else applied.events()

    def pending(self, state: State) -> list[Event]:
        """The events ``state`` holds beyond those written, without writing
        them (rebuilds the record: for a new or reloaded game, or a state
        whose ``apply`` returns nothing)."""
        rounds = state.record()["rounds"]
        new: list[Event] = []
        for r in range(max(self.rounds - 1, 0), len(rounds)):
            if r >= self.rounds:
                new.append(("deal", rounds[r]["deal"]))
            done = self.moves_in_round if r == self.rounds - 1 else 0
            new.extend(("move", move) for move in rounds[r]["moves"][done:])
        return new

    def new_events(self, state: State) -> list[Event]:
        """:meth:`pending`, now counted as written."""
        new = self.pending(state)
        self._add(new)
        return new

    @property
    def ended(self) -> dict[str, Any] | None:
        """The deadline event that ended the game (``end``), if one did."""
        return next((d for d in self.deadlines if d["action"] == END), None)

    def commit(self, new: Sequence[Event]) -> None:
        """Count ``new`` (from :meth:`pending`) as written."""
        self._add(new)

    def record(self, game: str, options: dict[str, JSON]) -> dict[str, JSON]:
        """The ``cardtable-record/1`` document the events written describe,
        of the game named ``game`` with ``options`` (its ``options_json``),
        without a result (:func:`~cardtable.core.records.make_record`)."""
        rounds: list[dict[str, JSON]] = []
        for kind, data in self.events:
            if kind == "deal":
                rounds.append({"deal": data, "moves": []})
            else:
                rounds[-1]["moves"].append(data)
        return make_record(game, rounds, options=options)
