"""The heuristic bot: legal, view-only, and far stronger than random."""

from __future__ import annotations

import random

from cardtable.bots.base import Bot, RandomBot
from cardtable.games.myrummy_111 import MyRummy111
from cardtable.games.myrummy_111.bots.heuristic import HeuristicBot, qualities


def test_a_rising_hand_is_judged_better_ascending_than_descending() -> None:
    up, down = qualities([10, 40, 70, 100])
    assert up > down
    up, down = qualities([100, 70, 40, 10])
    assert down > up


def test_mr_6_heuristic_beats_random() -> None:
    game = MyRummy111(players=2, turn_limit=200)
    wins = 0
    games = 20
    for i in range(games):
        seat = i % 2
        bots: dict[int | None, Bot] = {
            seat: HeuristicBot(seat, game, random.Random(i)),
            1 - seat: RandomBot(1 - seat, game, random.Random(100 + i)),
        }
        state = game.new_game(random.Random(1000 + i))
        while not state.finished:
            legal = state.legal_moves()
            move = bots[state.to_move].choose(state.view(state.to_move), legal)
            assert move in legal
            state.apply(move)
        wins += state.winners == (seat,)
    assert wins >= games - 1
