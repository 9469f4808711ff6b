"""The engine's answers for MyRummy 111: ``explain``/``refusal`` say word for
word what ``apply_as`` raises (MR-3.1, MR-4, MR-4.1, MR-4.3, MR-4.4, MR-7.1),
judged against trial on a clone at every position of seeded random games,
for every seat and action; and every ``apply`` returns the events the record
gained, the MR-4.6 reshuffle and the next deal included."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from cardtable.core.errors import IllegalMoveError
from cardtable.games.myrummy_111 import MyRummy111
from cardtable.games.myrummy_111.moves import Move, Place, Take
from tests.core.engine_checks import check_position, play_and_check


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"players": 2, "rounds": 2}, 1),
        ({"players": 3, "rounds": 2, "turn_limit": 30}, 2),
        ({"players": 4, "rounds": 3}, 3),
        ({"players": 2, "hand_sizes": [12, 14], "rounds": 2}, 4),
    ],
)
def test_mr_explain_and_refusal_agree_with_trial(options: dict[str, object], seed: int) -> None:
    game = MyRummy111(**options)
    seen = play_and_check(game.new_game(random.Random(seed)), seed)
    for rule in ("MR-4", "MR-4.1", "MR-4.4", "MR-7.1"):
        assert seen[rule], rule


def test_mr_4_6_the_reshuffle_is_returned_with_its_move() -> None:
    # Long rounds of random play without declaring empty the draw pile: the
    # refresh after that reshuffles, and apply returns the order drawn as
    # the record writes it.
    def never_declare(legal: Sequence[Move], rng: random.Random) -> Move:
        keep = [m for m in legal if not (isinstance(m, Place) and m.declare)]
        return keep[rng.randrange(len(keep))]

    game = MyRummy111(players=2, rounds=1, turn_limit=400)
    seen = play_and_check(game.new_game(random.Random(5)), 5, 50, never_declare)
    assert seen["chance"] >= 1


def test_mr_3_1_a_new_state_refuses_every_action_until_dealt() -> None:
    state = MyRummy111(players=2).new_state()
    seen = check_position(state)
    assert seen == {"refused": 2 * 96, "MR-3.1": 2 * 96}


@pytest.mark.parametrize("move", [Take(3), Take(-1), Take(-3, refresh=True), Place(15, "left")])
def test_mr_4_refusal_of_moves_outside_the_action_space_is_what_apply_raises(move: Move) -> None:
    # Such moves come only from records or code (MR-4.2, MR-4.3); for a place,
    # the game is first brought to its place phase.
    state = MyRummy111(players=2).new_game(random.Random(1))
    if isinstance(move, Place):
        state.apply(state.legal_moves()[0])
    refused = state.refusal(0, move)
    with pytest.raises(IllegalMoveError) as info:
        state.apply_as(0, move)
    assert refused == info.value and refused.rule in ("MR-4.2", "MR-4.3")
