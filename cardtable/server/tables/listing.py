"""``GET /api/tables``: the open tables one can join or watch moving, newest
first, filtered by game, player count, rated or friendly and status (waiting
for people, or in play), a page at a time. A table in play says its round,
scores and whose turn it is: what every viewer's ``state`` message carries
(messages.py), never a view.

A table is listed while it waits for players, or while it plays and moves:
its people (some of them) are connected, it has none (bots only), or
stand-ins are finishing it. A game whose people all left is paused and not
listed. Pages follow a cursor (the last table's creation time and id), so a
table made between two requests neither repeats nor hides an older one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cardtable.core.registry import game_names
from cardtable.server.tables.lobby import title
from cardtable.server.tables.messages import table_info
from cardtable.server.tables.table import Table
from cardtable.server.wire import BadInput

PAGE = 50  # tables per page, at most
CURSOR = re.compile(r"(\d{1,15})\.([A-Za-z0-9_-]{1,32})")
TABLE_IDS = re.compile(r"[A-Za-z0-9_-]{1,32}(,[A-Za-z0-9_-]{1,32}){0,49}")


def listed(table: Table) -> bool:
    """Whether the lobby shows ``table``: joinable, or playing and moving."""
    if table.facts.private:
        return False
    if table.status == "waiting":
        return True
    if table.status != "playing":
        return False
    return not table.has_humans or table.humans_present or table.facts.abandoned_ms is not None


Key = tuple[int, str]  # (created_ms, id): the order of the list, newest first
Entry = tuple[Key, dict[str, Any]]  # a listed table's key and its lobby entry


@dataclass(frozen=True)
class Filters:
    """What ``GET /api/tables`` asked for, checked."""

    game: str | None
    players: int | None
    rated: bool | None  # None: rated and friendly tables alike
    status: str | None  # "waiting" or "playing"; None: both
    limit: int
    after: Key | None  # the cursor: only tables older than this


def key_of(table: Table) -> Key:
    return table.facts.created_ms, table.id


def entry(table: Table) -> dict[str, Any]:
    """The lobby's line for ``table``: its public facts, and while it plays
    the round, the scores and the seat to move (public: every viewer's
    ``state`` message carries them)."""
    line = {**table_info(table), "title": title(table.facts.game)}
    if table.status == "playing":
        state = table.state
        line["play"] = {
            "round": state.round_number,
            "scores": list(state.scores),
            "to_move": state.to_move,
            # Turn-based: when the move due runs out (public, as the state's timer).
            "deadline_ms": table.facts.deadline_ms,
        }
    return line


def online(tables: Iterable[Table]) -> int:
    """Sockets open at ``tables``: people at a table page, seated or watching."""
    return sum(len(t.clients) for t in tables)


def filters(query: Mapping[str, str]) -> Filters:
    """The query's filters, or :class:`BadInput` saying which one is wrong."""
    for name in query:
        if name not in ("game", "players", "rated", "status", "cursor", "limit"):
            raise BadInput(
                f"there is no filter {name[:40]!r}; filters are game, players, rated and status"
            )
    game = query.get("game")
    if game is not None and game not in game_names():
        raise BadInput(f"game must be one of {', '.join(game_names())}")
    players = whole_number(query.get("players"), "players", 1, 99)
    rated = query.get("rated")
    if rated not in (None, "true", "false"):
        raise BadInput(f"rated must be true or false, got {rated[:20]!r}")
    status = query.get("status")
    if status not in (None, "waiting", "playing"):
        raise BadInput(f"status must be waiting or playing, got {status[:20]!r}")
    limit = whole_number(query.get("limit"), "limit", 1, PAGE) or PAGE
    after: Key | None = None
    cursor = query.get("cursor")
    if cursor is not None:
        found = CURSOR.fullmatch(cursor)
        if found is None:
            raise BadInput("cursor must be the 'next' value of an earlier page")
        after = int(found[1]), found[2]
    return Filters(game, players, None if rated is None else rated == "true", status, limit, after)


def entries(tables: Iterable[Table], wanted: Filters) -> list[Entry]:
    """The listed ones of ``tables`` that pass ``wanted``, in no order."""
    return [
        (key_of(t), entry(t))
        for t in tables
        if listed(t)
        and (wanted.game is None or t.facts.game == wanted.game)
        and (wanted.players is None or len(t.seats) == wanted.players)
        and (wanted.rated is None or t.facts.rated == wanted.rated)
        and (wanted.status is None or t.status == wanted.status)
        and (wanted.after is None or key_of(t) < wanted.after)
    ]


def page(found: Iterable[Entry], limit: int, boundary: Key | None = None) -> dict[str, Any]:
    """The newest ``limit`` of ``found`` and the cursor of the next page
    (``None``: the last page). ``boundary``: ``found`` holds only the tables
    down to this key, older ones were not looked at yet (the next page
    starts past it)."""
    chosen = sorted(found, key=lambda e: e[0], reverse=True)
    shown = chosen[:limit]
    last = shown[-1][0] if len(chosen) > limit else boundary
    return {
        "tables": [line for _, line in shown],
        "next": None if last is None else f"{last[0]}.{last[1]}",
    }


def tables_page(tables: Iterable[Table], query: Mapping[str, str]) -> dict[str, Any]:
    """One page of listed tables and the cursor of the next (``None``: the last page)."""
    wanted = filters(query)
    return page(entries(tables, wanted), wanted.limit)


def live_ids(text: str) -> list[str]:
    """``GET /api/live-tables?ids=a,b,c``: up to a page of table ids, or
    :class:`BadInput` saying what is wrong."""
    if not TABLE_IDS.fullmatch(text):
        raise BadInput(f"ids must be up to {PAGE} table ids separated by commas")
    return list(dict.fromkeys(text.split(",")))


def whole_number(text: str | None, name: str, low: int, high: int) -> int | None:
    """A query parameter of at most three digits from ``low`` to ``high`` (``None``: absent)."""
    if text is None:
        return None
    if not text.isdigit() or not low <= int(text[:3]) <= high or len(text) > 3:
        raise BadInput(f"{name} must be a whole number from {low} to {high}, got {text[:20]!r}")
    return int(text)
