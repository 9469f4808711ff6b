"""MyRummy 111's analysis cutoff: a round in play valued by the race to declare
(cardtable/games/myrummy_111/analysis.py; MR-6.2, MR-6.3, MR-7)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import cardtable
from cardtable.analysis.evaluator import ChanceAfterRound
from cardtable.analysis.run import Analyzer
from cardtable.analysis.winmodel import fit_win_model
from cardtable.games.myrummy_111.analysis import CUTOFF_TURNS, MyRummyEvaluator, RaceCutoff
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.scoring import best_run, declaration_score
from cardtable.games.myrummy_111.state import MyRummyState

SORTED = [5, 9, 14, 22, 30, 41, 47, 58, 66, 80, 95, 104]  # MR-6.1: ready to declare
SCRAMBLED = [100, 3, 77, 12, 90, 8, 61, 25, 110, 40, 70, 18]


def position(**options: object) -> tuple[MyRummyState, RaceCutoff]:
    game = cardtable.load("myrummy-111", players=2, **options)
    assert isinstance(game, MyRummy111)
    used = set(SORTED) | set(SCRAMBLED)
    rest = [c for c in range(2, 112) if c not in used]
    random.Random(0).shuffle(rest)
    state = game.new_state()
    deal = {"hands": [SORTED, SCRAMBLED], "middle": rest[:3], "draw": rest[3:]}
    state.deal(game.deal_from_json(deal, "deal"))
    return state, RaceCutoff(game, CUTOFF_TURNS)


def constant(value: float | None) -> ChanceAfterRound:
    def chance(totals: Sequence[int], seat: int, round_ended: int) -> float | None:
        return value

    return chance


def test_mr_6_2_a_sorted_hand_is_expected_to_declare_and_score_its_symbols() -> None:
    state, cutoff = position(rounds=1)
    game = cardtable.load("myrummy-111", players=2)
    assert isinstance(game, MyRummy111)
    declared = declaration_score(game.symbol_lookup[c] for c in SORTED)
    ahead_win, ahead_points = cutoff.value(state, 0, constant(None))
    assert 0.9 * declared <= ahead_points <= declared
    # MR-7 with one round (the game's end): a declaration beats the best run
    # the scrambled hand keeps (MR-6.3), so the sorted seat nearly surely wins.
    assert ahead_win >= 0.9
    behind_win, behind_points = cutoff.value(state, 1, constant(None))
    assert behind_win <= 0.1
    # The scrambled seat keeps its best run (MR-6.3) unless it wins the race,
    # which it does in at most one case in ten.
    kept = best_run(SCRAMBLED, game.symbol_lookup)
    own = declaration_score(game.symbol_lookup[c] for c in SCRAMBLED)
    assert kept <= behind_points <= kept + 0.1 * (own - kept)
    assert ahead_win + behind_win == pytest.approx(1.0)


def test_mr_7_a_game_going_on_is_valued_by_the_win_model_it_is_given() -> None:
    state, cutoff = position()  # target 111: no total reaches it this round
    assert cutoff.value(state, 0, constant(0.37))[0] == pytest.approx(0.37)
    # Standings the model never saw: the race's own soft guess, not a certainty.
    win, _ = cutoff.value(state, 1, constant(None))
    assert 0.0 < win < 0.5


def test_mr_analysis_playouts_stop_at_the_cutoff() -> None:
    game = cardtable.load("myrummy-111", players=2)
    evaluator = MyRummyEvaluator(game)
    assert evaluator.cutoff.moves == 2 * CUTOFF_TURNS * 2  # a take and a place a turn (MR-4)
    state, _ = position()
    model = fit_win_model(game, evaluator, games=20)
    analyzer = Analyzer(game, evaluator=evaluator, model=model)
    legal = tuple(state.legal_moves())
    view = state.view(0)
    evaluation = analyzer.evaluate_view(view, legal, seat=0, budget=0.05, seed=1)
    assert evaluation.moves <= evaluation.playouts * evaluator.cutoff.moves
