"""The loops that play whole games read the game's declared length
(``Game.max_decisions()``, :func:`cardtable.core.game.max_decisions`) instead
of guessed caps: the balance lab counts a game past it as a rule hole, the
arena and the search bots' playouts stop with an error naming the game, its
options and the bound; a game that declares none keeps each loop's old guard.

Rigged Table declares one choice per seat a round; its ``endless`` mode
(RT-4) breaks that on purpose.
"""

from __future__ import annotations

import pickle
import random

import pytest

from cardtable.arena.runner import play_one
from cardtable.balance import plan_run, run_balance
from cardtable.balance.plan import MAX_DECISIONS
from cardtable.bots.base import RandomBot
from cardtable.bots.playout import MAX_MOVES, BotPlayouts, round_totals
from cardtable.core.game import GameTooLongError, max_decisions
from tests.balance.rigged_table.game import RiggedGame

GAME = "rigged-table"
ENDLESS = {"mode": "endless", "rounds": 2}  # declares 2 rounds x 2 seats = 4 decisions


class Undeclared(RiggedGame):
    """Rigged Table as a plugin written before games declared their length."""

    max_decisions = None  # type: ignore[assignment]


def test_the_balance_lab_counts_a_game_past_its_declared_bound_as_a_hole() -> None:
    spec = plan_run(GAME, options=ENDLESS, games=4)
    results = run_balance(spec, games=4, seed=1).results
    (config,) = results["configs"]
    assert results["max_decisions"] is None and config["max_decisions"] == 4
    holes = config["holes"]
    assert holes["turn_limit"] == 4
    assert all(game["detail"] == "no end after 4 decisions" for game in holes["games"])


def test_max_decisions_overrides_the_declared_bound() -> None:
    spec = plan_run(GAME, options={"mode": "coin", "rounds": 3}, games=2, max_decisions=50)
    results = run_balance(spec, games=2, seed=1).results
    assert results["max_decisions"] == 50 and results["configs"][0]["max_decisions"] == 50
    assert results["configs"][0]["finished"] == 2


def test_a_game_that_declares_no_bound_keeps_the_balance_guard() -> None:
    spec = plan_run(GAME, options=ENDLESS, games=1)
    assert spec.decision_limit(Undeclared(mode="endless")) == MAX_DECISIONS == 20_000
    assert spec.decision_limit(RiggedGame(players=3, rounds=5)) == 15


def test_the_arena_stops_a_game_past_its_declared_bound_naming_game_options_and_bound() -> None:
    with pytest.raises(GameTooLongError) as info:
        play_one(GAME, ENDLESS, ["random", "random"], deal_seed=1)
    error = info.value
    assert (error.game, error.bound, error.declared) == (GAME, 4, True)
    assert error.options == {"players": 2, "mode": "endless", "rounds": 2, "first": 0}
    assert str(error) == (
        'rigged-table {"players":2,"mode":"endless","rounds":2,"first":0}: no end after 4'
        " decisions, the most the game declares (max_decisions()): a bug in its rules or in"
        " its bound"
    )
    assert str(pickle.loads(pickle.dumps(error))) == str(error)  # from a worker process


def test_a_game_within_its_bound_plays_to_the_end_in_the_arena() -> None:
    result = play_one(GAME, {"mode": "coin", "rounds": 3}, ["random", "random"], deal_seed=1)
    assert result.decisions == 6 == RiggedGame(rounds=3).max_decisions()


def test_a_playout_past_the_declared_bound_fails_loudly() -> None:
    game = RiggedGame(**ENDLESS)
    state = game.new_game(random.Random(1))
    with pytest.raises(GameTooLongError, match="no end after 4 decisions"):
        round_totals(state, BotPlayouts(game, RandomBot), random.Random(2), round_number=1)


def test_a_playout_of_a_game_that_declares_no_bound_keeps_its_guard() -> None:
    game = Undeclared(**ENDLESS)
    assert max_decisions(game) is None
    state = game.new_game(random.Random(1))
    totals = round_totals(state, BotPlayouts(game, RandomBot), random.Random(2), round_number=1)
    assert totals == [0.0, 0.0] and state.moves_in_round == MAX_MOVES  # valued as it stands
