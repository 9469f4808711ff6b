"""Duplicate comparison of two bots: the same positions, played by each in turn.

A run draws a fixed, seeded set of **round starts** from real games: each
pair begins with a source game played by the source bot in every seat from
its own deal seed, and one of that game's rounds, drawn by the pair's seed,
is the pair's position (with ``first_rounds`` it is always round 1, so the
pairs are whole games). From that round's first decision the game is played
to its end twice: once with bot X in the pair's seat, once with bot Y there,
each time against the same field (the other seats) with the same seeds, the
same later deals and the same chance (the state's generator restarts from the
pair's deal seed for each play). The seat turns with the pair's number, so
every seat is tested as often.

Bots are named as for the arena, with an optional budget of their own
(:func:`parse_contender`): ``pimc@1000`` thinks 1000 iterations a decision
(load-independent, for development), ``medium@0.1s`` a tenth of a second
(equal-time rows on a quiet machine). Each play is the arena's own loop
(:func:`~cardtable.arena.runner.play_out`), so a bot sees only its view and
the legal moves; pairs run in ``jobs`` processes through
:func:`~cardtable.arena.pool.run_chunks` and come back in pair order, so a
seed gives the same pairs and figures with any ``jobs``.

>>> spec = DuplicateSpec("marshmallow-test", (("players", 3),),
...     x=parse_contender("heuristic"), y=parse_contender("random"),
...     field=parse_contender("random"), source=parse_contender("random"))
>>> [r.seat for r in run_duplicate(spec, seed=1, pairs=4)]
[0, 1, 2, 0]
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.arena.pool import run_chunks
from cardtable.arena.run import ArenaError, check_bots, check_game
from cardtable.arena.runner import play_out, seat_bots
from cardtable.bots import Budget
from cardtable.bots.ratings import finishing_ranks
from cardtable.core.game import State
from cardtable.core.registry import load, manifest
from cardtable.core.seeds import derive_seed

_CONTENDER = re.compile(r"^(?P<name>[^@]+)(?:@(?P<amount>\d+(?:\.\d+)?)(?P<unit>s|ms)?)?$")


@dataclass(frozen=True, slots=True)
class Contender:
    """A bot by name and the budget it thinks with (``None``: its own or its level's)."""

    name: str
    budget: Budget | None = None

    def __str__(self) -> str:
        if self.budget is None:
            return self.name
        if self.budget.iterations is not None:
            return f"{self.name}@{self.budget.iterations}"
        return f"{self.name}@{self.budget.seconds}s"


def parse_contender(text: str) -> Contender:
    """``NAME``, ``NAME@ITERATIONS`` or ``NAME@SECONDSs`` / ``NAME@MSms``.

    >>> parse_contender("pimc@1000")
    Contender(name='pimc', budget=Budget(seconds=None, iterations=1000))
    >>> str(parse_contender("medium@100ms"))
    'medium@0.1s'
    """
    match = _CONTENDER.match(text.strip())
    if match is None:
        raise ArenaError(
            f"bot {text!r}: write NAME, NAME@ITERATIONS (pimc@1000) or NAME@SECONDS (pimc@0.1s)"
        )
    name, amount, unit = match["name"], match["amount"], match["unit"]
    if amount is None:
        return Contender(name)
    if unit is None:
        if "." in amount or int(amount) < 1:
            raise ArenaError(f"bot {text!r}: iterations are a whole number of at least 1")
        return Contender(name, Budget(iterations=int(amount)))
    seconds = float(amount) / (1000 if unit == "ms" else 1)
    if seconds <= 0:
        raise ArenaError(f"bot {text!r}: give a time above 0")
    return Contender(name, Budget(seconds=seconds))


@dataclass(frozen=True, slots=True)
class DuplicateSpec:
    """What every pair of one run shares; small and picklable for workers."""

    game_name: str
    options: tuple[tuple[str, Any], ...]  # the game options, players included
    x: Contender
    y: Contender
    field: Contender  # every other seat, in both plays of a pair
    source: Contender  # every seat of the games the round starts are drawn from
    first_rounds: bool = False  # the pairs start at round 1 (whole games)


@dataclass(frozen=True, slots=True)
class PairTask:
    """One pair of a run: where its position comes from, and its seeds."""

    index: int
    seat: int  # where X, then Y, sits
    source_seed: int  # the source game's deal (and its bots')
    pick_seed: int  # which round of the source game
    deal_seed: int  # the plays' later deals and chance, the same in both
    bot_seed: int  # the plays' bots, the same in both


def pair_schedule(seed: int, pairs: int, seats: int) -> list[PairTask]:
    """The run's pairs in order; pair ``i`` tests seat ``i mod seats``."""
    return [
        PairTask(
            index=i,
            seat=i % seats,
            source_seed=derive_seed(seed, "source", i),
            pick_seed=derive_seed(seed, "start", i),
            deal_seed=derive_seed(seed, "deals", i),
            bot_seed=derive_seed(seed, "bots", i),
        )
        for i in range(pairs)
    ]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the tested seat finished: its share of the win (``1/k`` of a win
    shared by ``k``) and the share of the other seats it finished ahead of."""

    win: float
    ahead: float


@dataclass(frozen=True, slots=True)
class PairResult:
    index: int
    seat: int
    round_number: int  # the round the pair started at
    x: Outcome
    y: Outcome


def round_start(spec: DuplicateSpec, task: PairTask) -> State:
    """The pair's position: a round's first decision in the source game."""
    game = load(spec.game_name, **dict(spec.options))
    state = game.new_game(random.Random(task.source_seed))
    if spec.first_rounds:
        return state
    lineup = [spec.source.name] * game.num_players
    bots = seat_bots(game, lineup, task.source_seed, [spec.source.budget] * len(lineup))
    starts: list[State] = []

    def keep_round_start(now: State) -> None:
        if now.moves_in_round == 0:
            starts.append(now.clone())

    play_out(state, bots, keep_round_start)
    return random.Random(task.pick_seed).choice(starts)


def play_from(spec: DuplicateSpec, task: PairTask, start: State, tested: Contender) -> Outcome:
    """Play ``start`` (left unchanged) to the end with ``tested`` in the pair's seat."""
    state = start.clone(random.Random(task.deal_seed))
    n = len(state.scores)
    lineup = [spec.field] * n
    lineup[task.seat] = tested
    bots = seat_bots(
        state.game, [c.name for c in lineup], task.bot_seed, [c.budget for c in lineup]
    )
    play_out(state, bots)
    lowest_wins = manifest(spec.game_name).lowest_wins
    return seat_outcome(state.scores, state.winners, task.seat, lowest_wins)


def seat_outcome(
    scores: Sequence[int], winners: Sequence[int], seat: int, lowest_wins: bool = False
) -> Outcome:
    """How ``seat`` finished a game, in the arena's finishing order.

    >>> seat_outcome([20, 7, 7, 11], [0], 3)
    Outcome(win=0.0, ahead=0.6666666666666666)
    """
    ranks = finishing_ranks(scores, winners, lowest_wins)
    return Outcome(
        win=1 / len(winners) if seat in winners else 0.0,
        ahead=sum(rank > ranks[seat] for rank in ranks) / (len(scores) - 1),
    )


def play_pair(spec: DuplicateSpec, task: PairTask) -> PairResult:
    start = round_start(spec, task)
    return PairResult(
        index=task.index,
        seat=task.seat,
        round_number=start.round_number,
        x=play_from(spec, task, start, spec.x),
        y=play_from(spec, task, start, spec.y),
    )


def play_pair_chunk(spec: DuplicateSpec, tasks: Sequence[PairTask]) -> list[PairResult]:
    """One worker job: a chunk of pairs."""
    return [play_pair(spec, task) for task in tasks]


def check_duplicate(
    game_name: str, options: Mapping[str, Any], contenders: Mapping[str, Contender], pairs: int
) -> int:
    """The game's seat count, or :class:`ArenaError` naming what cannot be played."""
    game = check_game(game_name, options)
    if pairs < 1:
        raise ArenaError(f"--pairs {pairs}: play at least 1 pair")
    for where, contender in contenders.items():
        check_bots(game, [contender.name], where)
    return game.num_players


def run_duplicate(
    spec: DuplicateSpec,
    *,
    seed: int,
    pairs: int,
    jobs: int = 1,
    progress: Callable[[list[PairResult]], None] | None = None,
) -> list[PairResult]:
    """Play ``pairs`` pairs; results in pair order whatever ``jobs`` is.
    ``progress`` gets the pairs finished so far, in pair order, each time a
    chunk comes back (a long run's figures before it ends)."""
    seats = check_duplicate(
        spec.game_name,
        dict(spec.options),
        {"--x": spec.x, "--y": spec.y, "--field": spec.field, "--source": spec.source},
        pairs,
    )
    if jobs < 1:
        raise ArenaError(f"--jobs {jobs}: use at least 1 job")
    results: dict[int, PairResult] = {}

    def collect(chunk: Sequence[PairResult]) -> None:
        results.update((r.index, r) for r in chunk)
        if progress is not None:
            progress([results[i] for i in sorted(results)])

    tasks = pair_schedule(seed, pairs, seats)
    run_chunks(play_pair_chunk, spec, tasks, jobs=jobs, collect=collect)
    return [results[task.index] for task in tasks]
