"""One self-play game, measured: everything the figures need, and nothing else.

A game is played the way the arena plays it (the deal from ``deal_seed``, each
bot's generator derived from the game's bot seed and its seat, bots seeing only
``view(seat)``), and measured from what any game offers: the legal moves at
each decision, the round number, the seat that moved first, the finished
state's scores, round scores and winners. No game is named, so a plugin game
is measured like a built-in one.

A game that cannot end normally is a *rule hole* and is measured as far as it
went: ``turn_limit`` (still unfinished after the decisions the game allows:
``--max-decisions``, else the game's own ``max_decisions()``),
``no_legal_move`` (a seat to move with no legal move) or ``error`` (the engine
or a bot raised). With ``keep_holes`` its record comes back for inspection.

A measurement is plain ints and strings, so that it is saved as JSON and read
back unchanged: a resumed run counts exactly what an uninterrupted one does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cardtable.balance.plan import BalanceSpec, BalanceTask
from cardtable.bots import make_bot
from cardtable.core.game import JSON, State
from cardtable.core.registry import load
from cardtable.core.seeds import derive_seed

# Each round is cut into thirds of its decisions: opening, middle, ending.
PHASES = ("opening", "middle", "ending")
FINISHED = "finished"
HOLES = ("turn_limit", "no_legal_move", "error")


@dataclass(frozen=True, slots=True)
class GameMeasure:
    """What one game showed. Per-seat tuples are indexed by seat."""

    config: int
    index: int  # the game's number in its configuration's schedule (0-based)
    deal: int
    seating: tuple[int, ...]  # seating[seat] = entry (position in the lineup)
    end: str  # FINISHED or one of HOLES
    detail: str  # for a hole: what happened, in words
    first: int  # the seat that made the first decision (-1: no decision at all)
    decisions: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    # Per phase of the round (PHASES): decisions, legal moves offered, forced decisions.
    phase_decisions: tuple[int, ...]
    phase_legal: tuple[int, ...]
    phase_forced: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return self.end == FINISHED

    @property
    def rounds(self) -> int:
        return len(self.round_scores)

    def to_json(self) -> dict[str, JSON]:
        return {k: _lists(v) for k, v in asdict(self).items()}

    @staticmethod
    def from_json(obj: dict[str, Any]) -> GameMeasure:
        return GameMeasure(**{k: _tuples(v) for k, v in obj.items()})


def _lists(value: Any) -> Any:
    return [_lists(v) for v in value] if isinstance(value, tuple) else value


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def phase_counts(
    legal: Sequence[int], round_starts: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Decisions, legal moves and forced decisions per phase, from the legal
    move count of every decision and where each round's decisions begin.

    Decision ``at`` of a round of ``n`` is in phase ``3 * at // n``: the
    phases are slices, summed at C speed (this runs once per game).

    >>> phase_counts([3, 1, 2, 1], [0, 3])  # round 2's one decision opens it
    ((2, 1, 1), (4, 1, 2), (1, 1, 0))
    """
    count, legal_sum, forced = [0] * 3, [0] * 3, [0] * 3
    # A game stopped before its first decision (a hole) has no round to count.
    ends = [*round_starts[1:], len(legal)] if round_starts else []
    for start, end in zip(round_starts, ends, strict=True):
        length = end - start
        for phase in range(3):
            # the first decision at with 3 * at // length >= phase
            low = start + -(-phase * length // 3)
            high = start + -(-(phase + 1) * length // 3)
            part = legal[low:high]
            count[phase] += len(part)
            legal_sum[phase] += sum(part)
            forced[phase] += part.count(1)
    return tuple(count), tuple(legal_sum), tuple(forced)


def play_measured(
    spec: BalanceSpec, task: BalanceTask
) -> tuple[GameMeasure, dict[str, JSON] | None]:
    """Play one game of the run; its measurement, and its record if it is a
    hole and the spec keeps holes."""
    config = spec.configs[task.config]
    entries = spec.lineup(task.config)
    lineup = [entries[entry] for entry in task.game.seating]
    game = load(spec.game_name, **config.options_dict)
    bots = [
        make_bot(
            name, game, seat, random.Random(derive_seed(task.game.bot_seed, seat)), spec.budget
        )
        for seat, name in enumerate(lineup)
    ]
    state = game.new_game(random.Random(task.game.deal_seed))
    # The legal move count of every decision, and where each round's decisions begin.
    seen: list[int] = []
    round_starts: list[int] = []
    last_round = 0
    limit = spec.decision_limit(game)
    first, end, detail = -1, FINISHED, ""
    try:
        while not state.finished:
            seat = state.to_move
            if len(seen) >= limit:
                end, detail = "turn_limit", f"no end after {limit} decisions"
                break
            legal = state.legal_moves() if seat is not None else ()
            if seat is None or not legal:
                end = "no_legal_move"
                detail = f"round {state.round_number}: " + (
                    "no seat to move" if seat is None else f"seat {seat} has no legal move"
                )
                break
            if first < 0:
                first = seat
            if state.round_number != last_round:
                last_round = state.round_number
                round_starts.append(len(seen))
            seen.append(len(legal))
            state.apply(bots[seat].choose(state.view(seat), legal))
    except Exception as exc:  # any failure is a finding to report, not a crash of the run
        end, detail = "error", f"decision {len(seen)}: {type(exc).__name__}: {exc}"
    decisions, legal_sum, forced = phase_counts(seen, round_starts)
    scores, round_scores = _totals(state, game.num_players)
    measure = GameMeasure(
        config=task.config,
        index=task.game.index,
        deal=task.game.deal,
        seating=task.game.seating,
        end=end,
        detail=detail,
        first=first,
        decisions=len(seen),
        scores=scores,
        round_scores=round_scores,
        winners=tuple(state.winners) if end == FINISHED else (),
        phase_decisions=decisions,
        phase_legal=legal_sum,
        phase_forced=forced,
    )
    record = _record(state, lineup) if end != FINISHED and spec.keep_holes else None
    return measure, record


def _totals(state: State, players: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The scores so far; zeros if an engine error left the state unreadable."""
    try:
        return tuple(state.scores), tuple(tuple(r) for r in state.round_scores)
    except Exception:  # measured as a hole already; its totals are not counted
        return (0,) * players, ()


def _record(state: State, lineup: Sequence[str]) -> dict[str, JSON] | None:
    """The record of a game that stopped early; ``None`` if even that fails."""
    try:
        return state.record(list(lineup))
    except Exception:  # a broken state may not write a record; the detail still says why
        return None


def measure_chunk(
    spec: BalanceSpec, tasks: Sequence[BalanceTask]
) -> list[tuple[GameMeasure, dict[str, JSON] | None]]:
    """Play a chunk of games (one worker job)."""
    return [play_measured(spec, task) for task in tasks]
