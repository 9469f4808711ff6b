"""Playing arena games: the schedule of deals and seatings, and one game at a time.

Everything here is a pure function of its arguments, so a game plays the same
in this process, in a worker process or in a Ray task: the deal comes from a
``random.Random`` seeded by the deal's seed, each bot gets its own generator
derived from the game's bot seed and its seat, and the global ``random``
module is never touched.

Duplicate deals cut variance: for ``n`` seats each deal seed is played ``n``
times with the lineup rotated one seat further each time, so every bot holds
every seat's cards of that deal once.

>>> [t.seating for t in schedule(seed=1, games=3, seats=3)]
[(0, 1, 2), (2, 0, 1), (1, 2, 0)]
>>> len({t.deal_seed for t in schedule(seed=1, games=6, seats=3)})
2
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots import Bot, Budget, make_bot
from cardtable.core.game import JSON, Game, GameTooLongError, State, max_decisions
from cardtable.core.registry import load
from cardtable.core.seeds import derive_seed

# A game whose bots keep choosing without end is a bug in a game or a bot;
# stop it with a clear error instead of hanging a worker for ever. The bound
# is the game's own (``Game.max_decisions()``); this guard is for a game that
# declares none.
MAX_DECISIONS = 1_000_000


@dataclass(frozen=True, slots=True)
class ArenaSpec:
    """What every game of one run shares; small and picklable for workers."""

    game_name: str
    options: tuple[tuple[str, Any], ...]  # a frozen dict of the game options, players included
    bots: tuple[str, ...]  # the entries as given in --bots, entry i is bots[i]
    budget: Budget | None = None
    keep_records: bool = False

    @property
    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game of the schedule: which deal, which rotation, who sits where."""

    index: int  # 0-based game number in the run (records are numbered index + 1)
    deal: int  # 0-based deal number; games of one deal share ``deal_seed``
    rotation: int
    seating: tuple[int, ...]  # seating[seat] = the entry (position in --bots) at that seat
    deal_seed: int
    bot_seed: int


def schedule(seed: int, games: int, seats: int) -> list[GameTask]:
    """The run's games in order: deal ``d`` is games ``d*n … d*n+n-1``.

    In rotation ``r`` entry ``i`` sits at seat ``(i + r) % n``. A run whose
    game count is not a multiple of ``n`` ends with a partly rotated deal.
    """
    tasks = []
    for index in range(games):
        deal, rotation = divmod(index, seats)
        seating = tuple((seat - rotation) % seats for seat in range(seats))
        tasks.append(
            GameTask(
                index=index,
                deal=deal,
                rotation=rotation,
                seating=seating,
                deal_seed=derive_seed(seed, "deal", deal),
                bot_seed=derive_seed(seed, "bots", deal, rotation),
            )
        )
    return tasks


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one game, per seat (the caller knows who sat where)."""

    players: tuple[str, ...]  # bot name per seat
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    decisions: int
    record: dict[str, JSON] | None = None


def seat_bots(
    game: Game,
    lineup: Sequence[str],
    base_seed: int,
    budgets: Sequence[Budget | None],
) -> list[Bot]:
    """One bot per seat, ``lineup[seat]`` thinking within ``budgets[seat]``,
    each with its own generator derived from ``base_seed`` and its seat."""
    return [
        make_bot(name, game, seat, random.Random(derive_seed(base_seed, seat)), budget)
        for seat, (name, budget) in enumerate(zip(lineup, budgets, strict=True))
    ]


def play_out(
    state: State, bots: Sequence[Bot], before: Callable[[State], None] | None = None
) -> int:
    """Play ``state`` to the game's end, each seat's bot choosing from its
    view and the legal moves only; returns the number of decisions.
    ``before`` sees the state before each decision (and must not change it).

    A game still unfinished after the decisions its rules allow
    (``Game.max_decisions()``, else :data:`MAX_DECISIONS`) raises
    :class:`~cardtable.core.game.GameTooLongError` naming the game, its
    options and the bound."""
    game = state.game
    declared = max_decisions(game)
    bound = MAX_DECISIONS if declared is None else declared
    decisions = 0
    while not state.finished:
        seat = state.to_move
        if seat is None:
            raise RuntimeError(f"{game.name}: no seat to move in an unfinished game")
        if decisions >= bound:
            raise GameTooLongError.of(game, bound, declared is not None)
        if before is not None:
            before(state)
        legal = state.legal_moves()
        state.apply(bots[seat].choose(state.view(seat), legal))
        decisions += 1
    return decisions


def play_one(
    game_name: str,
    options: Mapping[str, Any],
    lineup: Sequence[str],
    deal_seed: int,
    budget: Budget | None = None,
    *,
    bot_seed: int | None = None,
    keep_record: bool = False,
) -> GameResult:
    """Play one whole game with ``lineup[seat]`` (a bot name) at each seat.

    Each bot sees only ``state.view(seat)`` and the legal moves. Without
    ``bot_seed`` the bots' generators derive from ``deal_seed``.
    """
    game = load(game_name, **options)
    if len(lineup) != game.num_players:
        raise ValueError(f"{len(lineup)} bots for {game.num_players} seats")
    base = derive_seed(deal_seed, "bots") if bot_seed is None else bot_seed
    bots = seat_bots(game, lineup, base, [budget] * len(lineup))
    state = game.new_game(random.Random(deal_seed))
    decisions = play_out(state, bots)
    return GameResult(
        players=tuple(lineup),
        scores=tuple(state.scores),
        round_scores=tuple(tuple(r) for r in state.round_scores),
        winners=tuple(state.winners),
        decisions=decisions,
        record=state.record(list(lineup)) if keep_record else None,
    )


def play_task(spec: ArenaSpec, task: GameTask) -> GameResult:
    """Play one scheduled game of a run."""
    lineup = [spec.bots[entry] for entry in task.seating]
    return play_one(
        spec.game_name,
        spec.options_dict,
        lineup,
        task.deal_seed,
        spec.budget,
        bot_seed=task.bot_seed,
        keep_record=spec.keep_records,
    )


def play_chunk(spec: ArenaSpec, tasks: Sequence[GameTask]) -> list[tuple[int, GameResult]]:
    """Play a chunk of games (one worker job); results tagged with the game index."""
    return [(task.index, play_task(spec, task)) for task in tasks]
