"""What a tournament is, as plain values: checking a new one, who sits
where on each deal, and how deals are scored into standings.

Two forms (docs/tournaments.md):

duplicate
    Every table plays the same deals in the same seats; a seat's points on a
    deal are compared with the same seat's points at every other table
    (matchpoints, :mod:`cardtable.tournament.matchpoints`). Entrants move as
    the command line's bots do (:func:`cardtable.tournament.duplicate.seating`):
    drawn into tables once every *players* deals, one seat on at each deal.
swiss
    Each table plays a deal of its own (ordinary luck), and a seat is compared
    with the others at its table only: 2 points for each one it beat, 1 for
    each tie, as a percentage. After the first deal (seats drawn at random)
    entrants are seated by their standing, the leaders together.

A deal is one round of the game, its first (``Table.prepare``). Standings sum
each entrant's percentages over the deals that are over at every table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots import LEVELS, level_for
from cardtable.core.errors import CardtableError
from cardtable.core.registry import game_names, load, manifest
from cardtable.core.seeds import derive_seed
from cardtable.server.requests import MOVE_HOURS
from cardtable.server.wire import Worded
from cardtable.tournament.duplicate import seating
from cardtable.tournament.matchpoints import matchpoint_percentages, seat_results

FORMS = ("duplicate", "swiss")
ACCESS = ("open", "invite")
BOT_LEVELS = ("easy", "medium", "hard")  # the levels that may fill a tournament's seats
MAX_DEALS = 24
MAX_NAME = 60
MAX_AHEAD_MS = 30 * 24 * 3_600_000  # a tournament starts within 30 days
MAX_UPCOMING = 5  # upcoming tournaments one account may have made
MAX_ENTRANTS = 256
TURN_SECONDS = 60  # a real-time tournament's turn timer: a stand-in plays a move that is late


class TournamentRefusal(Worded):
    """A tournament request refused, worded as ``tournament.error.<key>``."""

    prefix = "tournament.error"


@dataclass(frozen=True, slots=True)
class NewTournament:
    """A checked ``POST /api/tournaments``."""

    name: str
    game: str
    options: dict[str, Any]  # the game's options_json, players included
    players: int
    form: str
    deals: int
    start_ms: int
    move_hours: int | None
    access: str
    rated: bool
    bot: str


def check_new(body: dict[str, Any], now_ms: int) -> NewTournament:
    """``body`` (its shape checked by the schema) as a tournament, or a refusal naming the fault."""
    name = " ".join(str(body["name"]).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise TournamentRefusal(f"name: 1 to {MAX_NAME} characters", 400, "name", most=MAX_NAME)
    game_name = body["game"]
    if game_name not in game_names():
        raise TournamentRefusal(f"game: one of {', '.join(game_names())}", 400, "game")
    players = body["players"]
    try:
        game = load(game_name, players=players)
    except CardtableError as exc:
        raise TournamentRefusal(f"players: {exc}", 400, "players", players=players) from None
    if body["form"] not in FORMS:
        raise TournamentRefusal(f"form: one of {', '.join(FORMS)}", 400, "form")
    deals = body["deals"]
    if not 1 <= deals <= MAX_DEALS:
        raise TournamentRefusal(f"deals: 1 to {MAX_DEALS}", 400, "deals", most=MAX_DEALS)
    minutes = body["start_in_minutes"]
    if not 0 <= minutes * 60_000 <= MAX_AHEAD_MS:
        raise TournamentRefusal("start_in_minutes: from now to 30 days ahead", 400, "start")
    move_hours = body["move_hours"]
    if move_hours is not None and move_hours not in MOVE_HOURS:
        raise TournamentRefusal(
            f"move_hours: none (real time) or one of {', '.join(map(str, MOVE_HOURS))}",
            400,
            "moveHours",
        )
    if body["access"] not in ACCESS:
        raise TournamentRefusal(f"access: one of {', '.join(ACCESS)}", 400, "access")
    bot = body["bot"]
    if bot not in BOT_LEVELS or level_for(bot, game_name) is None:
        offered = [b for b in BOT_LEVELS if b in LEVELS and level_for(b, game_name) is not None]
        raise TournamentRefusal(f"bot: one of {', '.join(offered)}", 400, "bot")
    return NewTournament(
        name=name,
        game=game_name,
        options=game.options_json,
        players=game.num_players,
        form=body["form"],
        deals=deals,
        start_ms=now_ms + minutes * 60_000,
        move_hours=move_hours,
        access=body["access"],
        rated=bool(body["rated"]),
        bot=bot,
    )


def seats_needed(people: int, players: int) -> int:
    """Entrants once bots fill the tables: a multiple of ``players``, at least two tables.

    >>> seats_needed(5, 4), seats_needed(1, 2), seats_needed(12, 4)
    (8, 4, 12)
    """
    return max(2 * players, -(-people // players) * players)


def bot_name(level: str, number: int) -> str:
    """A filling bot's name in the standings: ``medium bot 2`` (numbered from 1)."""
    return f"{level} bot {number}"


def lowest_wins(game: str) -> bool:
    return manifest(game).lowest_wins


def deal_seed(seed: int, form: str, deal: int, table: int) -> int:
    """The seed a table's deal is dealt from: one per deal in a duplicate
    tournament (every table the same cards), one per table in a Swiss one."""
    if form == "duplicate":
        return derive_seed(seed, "deal", deal)
    return derive_seed(seed, "deal", deal, table)


def seat_tables(
    form: str, entrants: int, players: int, deal: int, seed: int, totals: Sequence[float]
) -> list[tuple[int, ...]]:
    """The entrant at each seat of each table on ``deal`` (``totals``: the
    standings so far, by entrant, for a Swiss tournament's pairing)."""
    if form == "duplicate":
        return seating(entrants, players, deal, seed)
    order = list(range(entrants))
    random.Random(derive_seed(seed, "swiss", deal)).shuffle(order)  # ties, and deal 0
    order.sort(key=lambda e: -totals[e])  # stable: the leaders together
    tables = [order[t * players : (t + 1) * players] for t in range(entrants // players)]
    shift = deal % players  # who leads moves round from deal to deal
    return [tuple(t[(s - shift) % players] for s in range(players)) for t in tables]


def deal_percentages(
    form: str, points: Sequence[Sequence[int]], low_wins: bool
) -> list[tuple[float, ...]]:
    """Each table's seats' percentages on one deal, ``points`` by table then seat."""
    sign = -1 if low_wins else 1
    if form == "duplicate":
        results = [seat_results([sign * p for p in table]) for table in points]
        columns = [
            matchpoint_percentages([r[seat] for r in results]) for seat in range(len(results[0]))
        ]
        return [tuple(column[t] for column in columns) for t in range(len(points))]
    return [tuple(_within(table, sign)) for table in points]


def _within(points: Sequence[int], sign: int) -> list[float]:
    """Swiss: each seat against the others at its table, 2 per seat beaten,
    1 per tie, as a percentage.

    >>> _within([6, 2, 2], 1)
    [100.0, 25.0, 25.0]
    """
    n = len(points)
    out = []
    for i, mine in enumerate(points):
        won = sum(
            2 if sign * mine > sign * o else 1 if mine == o else 0
            for j, o in enumerate(points)
            if j != i
        )
        out.append(100 * won / (2 * (n - 1)))
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    place: int  # from 1; entrants with equal totals share a place
    entrant: int
    total: float
    deals: int


def standings(
    entrants: int, scored: Sequence[tuple[Sequence[int], Sequence[float]]]
) -> list[Standing]:
    """Entrants by their summed percentages, best first (ties share a place,
    listed by entry order); ``scored``: each table's seats and percentages."""
    totals = [0.0] * entrants
    deals = [0] * entrants
    for seats, percentages in scored:
        for entrant, percentage in zip(seats, percentages, strict=True):
            totals[entrant] += percentage
            deals[entrant] += 1
    ranked = sorted(range(entrants), key=lambda e: (-round(totals[e], 9), e))
    out: list[Standing] = []
    for i, e in enumerate(ranked):
        tied = out and round(out[-1].total, 9) == round(totals[e], 9)
        place = out[-1].place if tied else i + 1
        out.append(Standing(place, e, totals[e], deals[e]))
    return out


def sealed_refusal() -> TournamentRefusal:
    """What anyone not seated at a tournament's table is told while its deal
    is still being played at some table."""
    return TournamentRefusal(
        "this tournament deal is still being played at another table: its tables are shown"
        " once it is over everywhere",
        409,
        "dealInPlay",
    )
