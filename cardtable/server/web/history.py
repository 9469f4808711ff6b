"""An account's games as JSON: "My games" (its own) and its public profile.

Both are built from public facts only: a table's status, names, whose turn
it is (``state.to_move``, which every viewer's message carries) and, once a
game is over, its scores and winners. No view is read, so no hidden card can
show (tests/server/accounts/test_accounts.py swaps them to check).
"""

from __future__ import annotations

import math
from typing import Any

from cardtable.server.accounts.accounts import Account, Accounts, HeldSeat
from cardtable.server.db.ratings import Ratings
from cardtable.server.live.hub import Hub
from cardtable.server.tables.lobby import title
from cardtable.server.tables.outcomes import seat_change
from cardtable.server.tables.table import Table, seat_name
from cardtable.server.tournaments.ledger import TournamentStore
from cardtable.server.tournaments.rules import standings

MAX_LIVE = 100
MAX_FINISHED = 30
RECENT = 10


def _entry(held: HeldSeat, table: Table) -> dict[str, Any]:
    return {
        "id": held.table_id,
        "game": held.game,
        "title": title(held.game),
        "seat": held.seat,
        "status": table.status,
        "names": table.names(),
        "created_ms": held.created_ms,
        "url": f"/t/{held.table_id}",
    }


def result(table: Table, seat: int) -> str:
    """``"won"``, ``"shared"`` (a win shared with others) or ``"lost"``; a
    tournament's deal is neither won nor lost (``"tournament"``): it counts
    against the other tables (its tournament's standings say how)."""
    if table.facts.tournament is not None:
        return "tournament"
    winners = list(table.state.winners)
    if seat not in winners:
        return "lost"
    return "won" if len(winners) == 1 else "shared"


def _finished(held: HeldSeat, table: Table) -> dict[str, Any]:
    return {
        **_entry(held, table),
        "result": result(table, held.seat),
        "scores": list(table.state.scores),
        # What the game did to the account's rating (None: not rated).
        "rating": seat_change(table.facts.ratings, held.seat),
        "record": f"/api/tables/{held.table_id}/record",
        "replay": f"/t/{held.table_id}#replay",
        "analysis": f"/t/{held.table_id}#analysis",
    }


def _live(held: HeldSeat, line: dict[str, Any]) -> dict[str, Any]:
    """A game in progress from its lobby line (:func:`~cardtable.server.tables.listing.entry`)."""
    play = line.get("play") or {}
    turn = line["status"] == "playing" and play.get("to_move") == held.seat
    names = [seat_name(s["seat"], s["kind"], s["bot"], s["name"]) for s in line["seats"]]
    return {
        "id": held.table_id,
        "game": held.game,
        "title": title(held.game),
        "seat": held.seat,
        "status": line["status"],
        "names": names,
        "created_ms": held.created_ms,
        "url": f"/t/{held.table_id}",
        "your_turn": turn,
        # Turn-based (docs/server.md): when the move waiting for you runs out.
        "move_hours": line["move_hours"],
        "deadline_ms": play.get("deadline_ms") if turn else None,
    }


async def my_games(hub: Hub, accounts: Accounts, account: Account) -> dict[str, Any]:
    """Games in progress (those where it is the account's turn first), then
    finished ones. A game in progress is read from its lobby line: this
    process's own, with several processes the line its owner publishes, or
    the line a parked game rests with (:meth:`Hub.live_lines`: no table is
    moved or brought back into memory to be looked at)."""
    held_live = await accounts.held_seats(account, finished=False, limit=MAX_LIVE)
    lines = {line["id"]: line for line in await hub.live_lines([h.table_id for h in held_live])}
    # A table missing there could not be rebuilt at start, or is moving now.
    live = [_live(held, lines[held.table_id]) for held in held_live if held.table_id in lines]
    # Your turn first, the oldest deadline first; sorted() is stable: else newest first.
    live = sorted(live, key=lambda g: (not g["your_turn"], g["deadline_ms"] or math.inf))
    finished = [
        _finished(held, await hub.get(held.table_id))
        for held in await accounts.held_seats(account, finished=True, limit=MAX_FINISHED)
    ]
    return {"name": account.name, "in_progress": live, "finished": finished}


async def profile(
    hub: Hub,
    accounts: Accounts,
    ratings: Ratings,
    ledger: TournamentStore,
    account: Account,
    since_ms: int,
) -> dict[str, Any]:
    """What anyone may see of an account: games played per game, its ratings
    there (per player count), recent results with what each did to them, and
    its finished tournaments with its place. A tournament's table whose deal
    is still played elsewhere is left out: it would tell a person still
    playing that deal how it went (tournaments/director.py)."""
    played = await accounts.played_per_game(account)
    rated = await ratings.of_account(account.id)
    recent = []
    for held in await accounts.held_seats(account, finished=True, limit=RECENT):
        table = await hub.get(held.table_id)
        if table.facts.tournament is not None and await ledger.sealed(table.id):
            continue
        recent.append(
            {
                "id": held.table_id,
                "game": held.game,
                "title": title(held.game),
                "created_ms": held.created_ms,
                "result": result(table, held.seat),
                "rating": seat_change(table.facts.ratings, held.seat),
                "url": f"/t/{held.table_id}",
            }
        )
    return {
        "name": account.name,
        "since_ms": since_ms,
        "games": [
            {
                "game": game,
                "title": title(game),
                "played": count,
                "ratings": rated.get(game, []),
                "leaderboard": _board_link(game, rated.get(game, [])),
            }
            for game, count in sorted(played.items())
        ],
        "recent": recent,
        "tournaments": await tournament_results(ledger, account.id),
    }


async def tournament_results(ledger: TournamentStore, account_id: str) -> list[dict[str, Any]]:
    """The finished tournaments the account played: where it placed, of how many."""
    out = []
    for t, entry in await ledger.of_account(account_id):
        entrants = await ledger.entrants(t.id)
        scored = await ledger.scored(t.id)
        position = next(i for i, e in enumerate(entrants) if e.id == entry.id)
        place = next(s for s in standings(len(entrants), scored) if s.entrant == position)
        out.append(
            {
                "id": t.id,
                "name": t.name,
                "game": t.game,
                "title": title(t.game),
                "form": t.form,
                "place": place.place,
                "of": len(entrants),
                "total": round(place.total, 2),
                "finished_ms": t.finished_ms,
                "url": f"/tournaments/{t.id}",
            }
        )
    return out


def _board_link(game: str, rated: list[dict[str, Any]]) -> str:
    """The game's leaderboard, at the player count of the account's first rating if any."""
    return f"/leaderboard/{game}" + (f"?players={rated[0]['players']}" if rated else "")
