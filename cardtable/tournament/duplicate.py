"""A duplicate tournament of bots, without a server.

The entrants sit at tables of the game's player count. Every table plays
every deal: deal ``k`` is the first round of a game dealt from the deal's own
seed, the same cards in the same seats at every table, and the bots draw on
the same seeds there too, so two tables differ only by who sits where. A
deal's points are compared seat by seat across the tables
(:mod:`.matchpoints`).

The movement: entrants are shuffled into tables (seeded) once every
``players`` deals and keep their table for that block, moving one seat on at
each deal, so over a block every entrant holds each seat's cards once; with a
number of deals that is a multiple of the player count the seats are exactly
balanced. Each table's deal is played by the arena's own bots
(:func:`~cardtable.arena.runner.seat_bots`): a bot sees only its seat's view
and the legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.arena.duplicate import Contender
from cardtable.arena.pool import run_chunks
from cardtable.arena.run import ArenaError, check_bots, check_game
from cardtable.arena.runner import seat_bots
from cardtable.core.game import GameTooLongError, max_decisions
from cardtable.core.registry import load
from cardtable.core.seeds import derive_seed
from cardtable.tournament.matchpoints import matchpoint_percentages, seat_results

# A deal is one round: a game that declares no bound gets this many decisions.
MAX_DEAL_DECISIONS = 20_000


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What every table of one tournament shares; small and picklable for workers."""

    game_name: str
    options: tuple[tuple[str, Any], ...]  # the game options, players included
    entrants: tuple[Contender, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class TableTask:
    deal: int
    table: int
    seats: tuple[int, ...]  # the entrant at each seat


@dataclass(frozen=True, slots=True)
class TableDeal:
    """One table's play of one deal: who sat where, their points on the deal,
    and (once every table has played it) each seat's matchpoint percentage."""

    deal: int
    table: int
    seats: tuple[int, ...]
    points: tuple[int, ...]
    percentages: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Standing:
    entrant: int
    name: str
    total: float  # the sum of its matchpoint percentages
    deals: int


def seating(entrants: int, players: int, deal: int, seed: int) -> list[tuple[int, ...]]:
    """The entrant at each seat of each table on ``deal`` (the movement above)."""
    order = list(range(entrants))
    random.Random(derive_seed(seed, "seating", deal // players)).shuffle(order)
    shift = deal % players
    return [
        tuple(order[t * players + (s - shift) % players] for s in range(players))
        for t in range(entrants // players)
    ]


def deal_points(
    game_name: str,
    options: dict[str, Any],
    lineup: Sequence[Contender],
    deal_seed: int,
    bot_seed: int,
) -> tuple[int, ...]:
    """Each seat's points on the first round of the game dealt from ``deal_seed``."""
    game = load(game_name, **options)
    state = game.new_game(random.Random(deal_seed))
    bots = seat_bots(game, [c.name for c in lineup], bot_seed, [c.budget for c in lineup])
    declared = max_decisions(game)
    bound = MAX_DEAL_DECISIONS if declared is None else declared
    for _ in range(bound):
        if state.finished or state.round_number > 1:
            return tuple(state.round_scores[0])
        seat = state.to_move
        assert seat is not None  # a state with a generator never awaits a deal
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    raise GameTooLongError.of(game, bound, declared is not None)


def play_tables(spec: TournamentSpec, tasks: Sequence[TableTask]) -> list[TableDeal]:
    """One worker job: some tables' deals."""
    options = dict(spec.options)
    return [
        TableDeal(
            task.deal,
            task.table,
            task.seats,
            deal_points(
                spec.game_name,
                options,
                [spec.entrants[e] for e in task.seats],
                derive_seed(spec.seed, "deal", task.deal),
                derive_seed(spec.seed, "bots", task.deal),
            ),
        )
        for task in tasks
    ]


def scored(tables: Sequence[TableDeal]) -> list[TableDeal]:
    """The tables with each seat's matchpoint percentage on its deal."""
    by_deal: dict[int, list[TableDeal]] = {}
    for table in tables:
        by_deal.setdefault(table.deal, []).append(table)
    out = []
    for deal in sorted(by_deal):
        played = sorted(by_deal[deal], key=lambda t: t.table)
        results = [seat_results(t.points) for t in played]
        per_seat = [
            matchpoint_percentages([r[seat] for r in results]) for seat in range(len(results[0]))
        ]
        out += [
            TableDeal(t.deal, t.table, t.seats, t.points, tuple(column[i] for column in per_seat))
            for i, t in enumerate(played)
        ]
    return out


def standings(spec: TournamentSpec, tables: Sequence[TableDeal]) -> list[Standing]:
    """Entrants by their summed percentages, best first (ties by entry order)."""
    totals = [0.0] * len(spec.entrants)
    deals = [0] * len(spec.entrants)
    for table in tables:
        for entrant, percentage in zip(table.seats, table.percentages, strict=True):
            totals[entrant] += percentage
            deals[entrant] += 1
    ranked = sorted(range(len(totals)), key=lambda e: -totals[e])
    return [Standing(e, entrant_name(spec, e), totals[e], deals[e]) for e in ranked]


def entrant_name(spec: TournamentSpec, entrant: int) -> str:
    """``medium #3``: the bot and its place in the entry list (from 1)."""
    return f"{spec.entrants[entrant].name} #{entrant + 1}"


def check_tournament(spec: TournamentSpec, deals: int) -> int:
    """The player count, or :class:`ArenaError` naming what cannot be played."""
    game = check_game(spec.game_name, dict(spec.options))
    players = game.num_players
    for at, contender in enumerate(spec.entrants):
        check_bots(game, [contender.name], f"--bots (entrant {at + 1})")
    if len(spec.entrants) < 2 * players or len(spec.entrants) % players:
        raise ArenaError(
            f"--bots: {len(spec.entrants)} entrants for tables of {players}: enter a multiple"
            f" of {players}, at least two tables ({2 * players})"
        )
    if deals < 1:
        raise ArenaError(f"--deals {deals}: play at least 1 deal")
    return players


def run_tournament(spec: TournamentSpec, deals: int, jobs: int = 1) -> list[TableDeal]:
    """Every table's play of every deal, scored; the same for any ``jobs``."""
    players = check_tournament(spec, deals)
    if jobs < 1:
        raise ArenaError(f"--jobs {jobs}: use at least 1 job")
    tasks = [
        TableTask(deal, table, seats)
        for deal in range(deals)
        for table, seats in enumerate(seating(len(spec.entrants), players, deal, spec.seed))
    ]
    played: list[TableDeal] = []
    run_chunks(play_tables, spec, tasks, jobs=jobs, collect=played.extend)
    return scored(played)
