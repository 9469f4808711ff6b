"""The terms of one measured game (:mod:`cardtable.balance.measure`), each pinned
on inputs whose answer is known: the phase split of a round's decisions, the
game played as the arena plays it (each bot at its seat, with the spec's budget,
a generator derived from the game's bot seed and its seat, seeing only
``view(seat)``), and what a finished game and a rule hole keep.

Rigged Table's rules (RT-1…RT-6) are in ``tests/balance/rigged_table/game.py``;
the two variants below break it the ways a plugin's state may break.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardtable.arena.runner import play_one
from cardtable.balance import measure, plan_run
from cardtable.balance.measure import FINISHED, GameMeasure, phase_counts, play_measured
from cardtable.balance.plan import BalanceSpec, BalanceTask, tasks_of
from cardtable.bots import Bot, Budget, make_bot
from cardtable.core.game import Game
from cardtable.core.seeds import derive_seed
from tests.balance.rigged_table.game import RiggedGame, RiggedState

GAME = "rigged-table"


def reference_phases(
    legal: Sequence[int], round_starts: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The rule of ``phase_counts`` written out one decision at a time: decision
    ``at`` of a round of ``n`` decisions is in phase ``3 * at // n``."""
    count, legal_sum, forced = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    ends = [*round_starts[1:], len(legal)]
    for start, end in zip(round_starts, ends, strict=True):
        for at in range(end - start):
            phase = 3 * at // (end - start)
            moves = legal[start + at]
            count[phase] += 1
            legal_sum[phase] += moves
            forced[phase] += moves == 1
    return tuple(count), tuple(legal_sum), tuple(forced)


def test_phase_counts_cut_each_round_into_thirds_and_add_the_rounds_up() -> None:
    legal = [*(1, 2, 1, 3), *(1, 1, 4, 1, 2), 1, *(2, 1, 1)]
    # Rounds of 4, 5, 1 and 3 decisions. Opening: [1, 2] [1, 1] [1] [2];
    # middle: [1] [4, 1] [] [1]; ending: [3] [2] [] [1].
    assert phase_counts(legal, [0, 4, 9, 10]) == ((6, 4, 3), (8, 7, 6), (4, 3, 1))
    # The docstring's example: round 2's one decision opens it.
    assert phase_counts([3, 1, 2, 1], [0, 3]) == ((2, 1, 1), (4, 1, 2), (1, 1, 0))


def test_phase_counts_follow_the_rule_decision_by_decision() -> None:
    rng = random.Random(34)
    for _ in range(200):
        lengths = [rng.randint(1, 12) for _ in range(rng.randint(1, 5))]
        legal = [rng.choice((1, 1, 2, 3, 7)) for _ in range(sum(lengths))]
        starts = [sum(lengths[:k]) for k in range(len(lengths))]
        assert phase_counts(legal, starts) == reference_phases(legal, starts)


def test_the_json_form_is_what_json_reads_back() -> None:
    """Saved chunks are read back unchanged (a resumed run counts what an
    uninterrupted one does): the JSON form holds lists, as ``json.loads`` gives."""
    game = GameMeasure(
        config=1,
        index=3,
        deal=1,
        seating=(1, 0),
        end=FINISHED,
        detail="",
        first=0,
        decisions=4,
        scores=(2, 0),
        round_scores=((1, 0), (1, 0)),
        winners=(0,),
        phase_decisions=(2, 1, 1),
        phase_legal=(4, 2, 2),
        phase_forced=(0, 0, 0),
    )
    saved = game.to_json()
    assert saved == json.loads(json.dumps(saved))
    assert saved["round_scores"] == [[1, 0], [1, 0]] and saved["seating"] == [1, 0]
    assert GameMeasure.from_json(json.loads(json.dumps(saved))) == game


def only(spec: BalanceSpec, seed: int = 1) -> BalanceTask:
    (task,) = tasks_of(spec, seed, 1)
    return task


def test_a_measure_keeps_the_tasks_configuration_number_deal_and_seating() -> None:
    spec = plan_run(GAME, bots=["first", "random"], options={"mode": "skill"}, games=4)
    tasks = tasks_of(spec, 3, 4)
    assert [t.game.deal for t in tasks] == [0, 0, 1, 1]  # duplicate deals
    for task in tasks:
        measured, _ = play_measured(spec, task)
        place = (measured.config, measured.index, measured.deal, measured.seating)
        assert place == (task.config, task.game.index, task.game.deal, task.game.seating)


@pytest.mark.parametrize(("players", "first"), [(2, 0), (3, 2)])
def test_a_finished_game_keeps_its_first_seat_winners_and_no_record(
    players: int, first: int
) -> None:
    """``first`` is the seat of the first decision, not of a later one; a
    finished game has its winners, no detail, and no record even with keep_holes."""
    options = {"mode": "seat0", "rounds": 2, "first": first}
    spec = plan_run(GAME, players=[players], options=options, games=1, keep_holes=True)
    measured, record = play_measured(spec, only(spec))
    assert measured.end == FINISHED and measured.detail == ""
    assert measured.first == first
    assert measured.decisions == 2 * players
    assert measured.winners == (0,) and measured.scores == (2,) + (0,) * (players - 1)  # RT-1
    assert record is None


@pytest.mark.parametrize("keep_holes", [True, False])
def test_a_hole_has_no_winners_and_its_record_only_with_keep_holes(keep_holes: bool) -> None:
    options = {"mode": "endless", "rounds": 1}  # RT-4
    spec = plan_run(GAME, options=options, games=1, max_decisions=6, keep_holes=keep_holes)
    measured, record = play_measured(spec, only(spec))
    assert (measured.end, measured.detail) == ("turn_limit", "no end after 6 decisions")
    assert measured.first == 0 and measured.winners == ()
    if keep_holes:
        assert record is not None
        (played,) = record["rounds"]  # one round, never ended
        assert len(played["moves"]) == 6
    else:
        assert record is None


def test_a_balance_game_is_the_arena_game_of_the_same_seeds() -> None:
    """Same deal seed and bot seed: the same game as ``cardtable arena`` plays
    (RT-3: random choices decide who may take each round, so every bot's
    generator shows in the round scores)."""
    spec = plan_run(GAME, bots=["random", "random"], options={"mode": "skill", "rounds": 30},
                    fixed_seats=True, games=4)  # fmt: skip
    for task in tasks_of(spec, 9, 4):
        measured, _ = play_measured(spec, task)
        arena = play_one(GAME, {"mode": "skill", "rounds": 30}, ["random", "random"],
                         task.game.deal_seed, bot_seed=task.game.bot_seed)  # fmt: skip
        assert measured.end == FINISHED
        assert measured.round_scores == arena.round_scores
        assert (measured.scores, measured.winners) == (arena.scores, arena.winners)


class Spy:
    """Stands between a bot and the table, noting what the bot is shown."""

    def __init__(self, bot: Bot, seat: int) -> None:
        self.bot, self.seat = bot, seat
        self.views: list[Any] = []

    def choose(self, view: Any, legal: Sequence[Any]) -> Any:
        self.views.append(view)
        return self.bot.choose(view, legal)


def test_each_bot_has_its_seat_the_budget_and_its_own_generator_and_sees_only_its_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[tuple[str, int, Any, Budget | None, Spy]] = []

    def spying(
        name: str, game: Game, seat: int, rng: random.Random, budget: Budget | None = None
    ) -> Bot:
        state = rng.getstate()
        spy = Spy(make_bot(name, game, seat, rng, budget), seat)
        made.append((name, seat, state, budget, spy))
        return spy

    monkeypatch.setattr(measure, "make_bot", spying)
    budget = Budget(seconds=0.25, iterations=7)
    spec = plan_run(GAME, players=[3], options={"mode": "coin", "rounds": 2},
                    bots=["first", "random", "random"], budget=budget, games=3)  # fmt: skip
    task = tasks_of(spec, 4, 3)[1]  # the lineup rotated one seat
    measured, _ = play_measured(spec, task)
    assert measured.end == FINISHED
    assert [(name, seat) for name, seat, *_ in made] == [
        (("first", "random", "random")[entry], seat) for seat, entry in enumerate(task.game.seating)
    ]
    for _, seat, state, given, spy in made:
        assert given == budget
        assert state == random.Random(derive_seed(task.game.bot_seed, seat)).getstate()
        assert len(spy.views) == 2  # one choice per round
        # Rigged Table's view names the seat it was made for (RiggedView.seat).
        assert [v.seat for v in spy.views] == [seat, seat]


class IdleGame(RiggedGame):
    """Rigged Table whose state, after the first decision, names no seat to move
    though unfinished (as a state awaiting a deal that never comes)."""

    def new_game(self, rng: random.Random) -> RiggedState:
        return IdleState(self, rng)


class IdleState(RiggedState):
    @property
    def to_move(self) -> int | None:
        return None if self._decisions else super().to_move


class UnreadableGame(RiggedGame):
    """Rigged Table in RT-6 ``crash`` mode whose state, once the engine failed,
    cannot even say its scores, winners or record."""

    def new_game(self, rng: random.Random) -> RiggedState:
        return UnreadableState(self, rng)


class UnreadableState(RiggedState):
    def _check(self) -> None:
        if self._decisions >= 3:
            raise RuntimeError("the state is broken")

    @property
    def scores(self) -> tuple[int, ...]:
        self._check()
        return super().scores

    @property
    def round_scores(self) -> list[list[int]]:
        self._check()
        return super().round_scores

    @property
    def winners(self) -> tuple[int, ...]:
        self._check()
        return super().winners

    def record(self, players: Sequence[str] | None = None) -> dict[str, Any]:
        self._check()
        return super().record(players)


def seat_game(monkeypatch: pytest.MonkeyPatch, kind: type[RiggedGame]) -> None:
    """The balance lab loads ``kind`` for Rigged Table (its bots stay Rigged Table's)."""
    monkeypatch.setattr(measure, "load", lambda name, **options: kind(**options))


def test_a_seat_to_move_that_is_none_is_a_hole_said_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seat_game(monkeypatch, IdleGame)
    spec = plan_run(GAME, options={"mode": "coin", "rounds": 2}, games=1, keep_holes=True)
    measured, record = play_measured(spec, only(spec))
    assert (measured.end, measured.detail) == ("no_legal_move", "round 1: no seat to move")
    assert measured.decisions == 1 and measured.first == 0 and measured.winners == ()
    assert record is not None  # the state still writes its record


def test_a_state_left_unreadable_by_an_engine_error_is_measured_with_zeros(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The run goes on: a zero per seat, no rounds, no winners, no record."""
    seat_game(monkeypatch, UnreadableGame)
    options = {"mode": "crash", "rounds": 3}  # RT-6: fails at the third decision
    spec = plan_run(GAME, players=[3], options=options, games=1, keep_holes=True)
    measured, record = play_measured(spec, only(spec))
    assert measured.end == "error" and measured.detail.startswith("decision 3: RuntimeError: RT-6")
    assert measured.decisions == 3  # the third was offered its moves, then failed
    assert measured.scores == (0, 0, 0) and measured.round_scores == ()
    assert measured.winners == () and record is None


class StuckAtOnce(RiggedGame):
    """No legal move before the first decision (RT-5 one decision early)."""

    def new_game(self, rng: random.Random) -> RiggedState:
        state = RiggedState(self, rng)
        state.legal_moves = lambda: ()  # type: ignore[method-assign]
        return state


def test_phase_counts_of_a_game_without_decisions_are_zeros() -> None:
    """A game that stops before its first decision once crashed the run here
    (zip of no round starts with one end) instead of counting a hole."""
    assert phase_counts([], []) == ((0, 0, 0), (0, 0, 0), (0, 0, 0))


def test_a_game_stuck_before_its_first_decision_is_a_no_legal_move_hole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(measure, "load", lambda name, **options: StuckAtOnce(**options))
    spec = plan_run("rigged-table", options={"mode": "coin"}, games=1, keep_holes=True)
    (task,) = tasks_of(spec, 1, 1)
    measured, _ = play_measured(spec, task)
    assert (measured.end, measured.detail) == ("no_legal_move", "round 1: seat 0 has no legal move")
    assert measured.first == -1 and measured.decisions == 0  # GameMeasure: -1 = no decision at all
