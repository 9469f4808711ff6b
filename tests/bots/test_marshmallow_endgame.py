"""Marshmallow Test's exact endgames: max-n on sampled hidden cards, from the view only."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Iterator

import pytest

from cardtable.arena.runner import play_out, seat_bots
from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest
from cardtable.games.marshmallow_test.bots.endgame import (
    MIN_SAMPLES,
    POSITION_LIMIT,
    EndgameBot,
    end_value,
    positions_to_solve,
    solve,
)
from cardtable.games.marshmallow_test.bots.heuristic import HeuristicBot
from cardtable.games.marshmallow_test.bots.learned_playout import (
    SmallPlayoutBot,
    SmallPlayoutEndgameBot,
)
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot
from cardtable.games.marshmallow_test.determinize import determinize
from cardtable.games.marshmallow_test.view import MarshmallowView
from tests.bots.test_bot_contract import a_decoy, choose_with_state_in_frame

BUDGET = Budget(iterations=60)


Decision = tuple[MarshmallowTest, MarshmallowState]  # a game and its state at a decision


def first_decisions(
    players: int, seeds: range, wanted: Callable[[MarshmallowView], bool]
) -> Iterator[Decision]:
    """The first decision of each heuristic game (one per seed) where the
    seat to move has a card to choose and its view is ``wanted``."""
    for seed in seeds:
        game = MarshmallowTest(players=players)
        state = game.new_game(random.Random(seed))
        bots = [HeuristicBot(s, game, random.Random(seed + s)) for s in range(players)]
        while not state.finished:
            seat = state.to_move
            assert seat is not None
            view, legal = state.view(seat), state.legal_moves()
            if len(legal) > 1 and not view.trump_due and wanted(view):
                yield game, state
                break
            state.apply(bots[seat].choose(view, legal))


def endgames(players: int, seeds: range) -> Iterator[Decision]:
    """First decisions where the rest of the round is small enough to solve."""
    return first_decisions(players, seeds, lambda view: positions_to_solve(view) <= POSITION_LIMIT)


def small_endgames(players: int, seeds: range) -> Iterator[Decision]:
    """First decisions small enough to solve without a table: at most 2
    million orders of play."""
    return first_decisions(
        players,
        seeds,
        lambda view: math.prod(math.factorial(size) for size in view.hand_sizes) <= 2_000_000,
    )


def test_the_positions_to_solve_count_the_hands_of_the_players_still_in() -> None:
    view = MarshmallowTest(players=4).new_game(random.Random(1)).view(0)
    view = dataclasses.replace(view, hand_sizes=(2, 3, 1, 5), out=(False, False, False, True))
    # the seat out holds nothing any more; 0, 1, 2, 3 cards played from 2, 3 and 1
    assert positions_to_solve(view) == 1 + 2 * 3 * 1 + 1 * 3 * 0 + 0
    view = dataclasses.replace(view, hand_sizes=(7, 7, 0, 0), out=(False, False, True, True))
    assert positions_to_solve(view) == math.comb(14, 7)  # the sum of C(7, j)² over j


class Forgetful(dict[tuple[object, ...], tuple[float, ...]]):
    """A table that remembers nothing: solving with it is max-n over every
    order of play, what the real table must equal."""

    def __setitem__(self, key: tuple[object, ...], value: tuple[float, ...]) -> None:
        pass


# Three players' positions from these deals meet the same hands with other
# tricks won (a seat nearer going out): a table keyed on the hands alone
# would value them alike, and wrongly.
@pytest.mark.parametrize(
    ("players", "seeds"), [(2, range(4)), (3, range(12, 24)), (4, range(4)), (5, range(4))]
)
def test_the_transposition_table_changes_no_value(players: int, seeds: range) -> None:
    checked = 0
    for game, state in small_endgames(players, seeds):
        seat = state.to_move
        assert seat is not None
        for sample in range(3):
            full = determinize(game, state.view(seat), random.Random(sample))
            full.detach_rng()
            known: dict[tuple[object, ...], tuple[float, ...]] = {}
            assert solve(full, known) == solve(full, Forgetful())
            assert len(known) > 1  # positions were remembered, and met again
        checked += 1
    assert checked == len(seeds)


def test_a_copy_has_the_position_key_and_another_card_played_does_not() -> None:
    game = MarshmallowTest(players=3)
    state = game.new_game(random.Random(5))
    bots = [HeuristicBot(s, game, random.Random(s)) for s in range(3)]
    for _ in range(6):  # two tricks
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    same = state.clone()
    assert same.position_key() == state.position_key()
    seat = state.to_move
    assert seat is not None
    first, second = state.legal_moves()[:2]
    after_first, after_second = state.clone(), state.clone()
    after_first.apply(first)
    after_second.apply(second)
    assert after_first.position_key() != after_second.position_key()  # different hands


def test_a_round_that_ended_is_valued_by_the_scores_softmax() -> None:
    state = MarshmallowTest(players=2).new_state()
    state.resume(round_number=2, dealer=0, scores=[10, 5], past_round_scores=[[10, 5]])
    # beta 0.2 at 2 players: e^2 / (e^2 + e^1) = 0.731059
    assert end_value(state) == pytest.approx((0.731059, 0.268941), abs=1e-6)


def test_a_finished_game_is_worth_everything_to_its_winner() -> None:
    game = MarshmallowTest(players=3, target=5)
    state = game.new_game(random.Random(2))
    play_out(state, seat_bots(game, ["heuristic"] * 3, 0, [None] * 3))
    (winner,) = state.winners
    assert end_value(state) == tuple(1.0 if s == winner else 0.0 for s in range(3))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_seat_to_move_takes_the_value_best_for_itself(players: int) -> None:
    checked = 0
    for game, state in endgames(players, range(3)):
        seat = state.to_move
        assert seat is not None
        full = determinize(game, state.view(seat), random.Random(7))
        full.detach_rng()
        value = solve(full)
        assert math.fsum(value) == pytest.approx(1.0)
        children = []
        for move in full.legal_moves():
            child = full.clone()
            child.apply(move)
            children.append(solve(child)[seat])
        assert value[seat] == max(children)
        checked += 1
    assert checked == 3


# Each endgame bot and the search it plays before its endgame: ``pimc-endgame``
# and ``pimc-lp-endgame`` (the expert level, learned playouts before).
BEFORE = [(EndgameBot, PIMCBot), (SmallPlayoutEndgameBot, SmallPlayoutBot)]


@pytest.mark.parametrize(("cls", "before"), BEFORE)
def test_before_the_endgame_it_plays_as_its_search(
    cls: type[EndgameBot], before: type[PIMCBot]
) -> None:
    game = MarshmallowTest(players=4)
    for seed in (3, 4):
        state = game.new_game(random.Random(seed))
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_moves()
        bot = cls(seat, game, random.Random(4), BUDGET)
        search = before(seat, game, random.Random(4), BUDGET)
        assert bot.choose(view, legal) == search.choose(view, legal)
        assert bot.search.last_values == search.last_values  # the same search, value for value
        assert bot.last_values == ()  # nothing solved


@pytest.mark.parametrize("players", [2, 4])
def test_in_the_endgame_it_plays_the_best_solved_mean(players: int) -> None:
    for game, state in endgames(players, range(2)):
        seat = state.to_move
        assert seat is not None
        legal = state.legal_moves()
        bot = EndgameBot(seat, game, random.Random(5), BUDGET, samples=4)
        move = bot.choose(state.view(seat), legal)
        assert len(bot.last_values) == len(legal)
        assert all(0.0 <= v <= 1.0 for v in bot.last_values)
        assert move == legal[bot.last_values.index(max(bot.last_values))]


def test_a_clock_budget_stops_the_sampling_and_an_iteration_budget_does_not() -> None:
    # A budget already spent: the bot still solves its minimum, then stops.
    # No timing is asserted: a deadline in the past is past on any machine.
    ((game, state),) = endgames(2, range(1))
    seat = state.to_move
    assert seat is not None
    view, legal = state.view(seat), state.legal_moves()
    spent = EndgameBot(seat, game, random.Random(5), Budget(seconds=0.0), samples=8)
    spent.choose(view, legal)
    assert spent.last_samples == MIN_SAMPLES
    counted = EndgameBot(seat, game, random.Random(5), BUDGET, samples=8)
    counted.choose(view, legal)
    assert counted.last_samples == 8


@pytest.mark.parametrize("cls", [EndgameBot, SmallPlayoutEndgameBot])
def test_its_endgame_decisions_do_not_depend_on_the_hidden_cards(cls: type[EndgameBot]) -> None:
    checked = 0
    for seed, (game, state) in enumerate(endgames(4, range(4))):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        decoy = a_decoy(state, determinize, view, seed)
        assert decoy is not None  # cards lie aside at 4 players: something is hidden
        picks = []
        for position in (state, decoy):
            bot = cls(seat, game, random.Random(seed), BUDGET, samples=4)
            picks.append(choose_with_state_in_frame(position, bot))
            assert bot.last_values  # the endgame was solved, not played as pimc
        assert picks[0] == picks[1]
        checked += 1
    assert checked == 4
