"""The engine base (``core/engine.py``) over the fixture game, and the
fallbacks that judge a bare-protocol state by trial on a clone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.core import engine
from cardtable.core.errors import IllegalMoveError, Refusal
from cardtable.core.game import Applied, Explanation, Game
from tests.core.engine_checks import check_position, play_and_check
from tests.fixtures.fixture_trick.game import TrickGame
from tests.fixtures.fixture_trick.moves import PLAYS
from tests.fixtures.fixture_trick.state import TrickState


class Bare:
    """Only the bare State protocol's answers of a wrapped state: no
    ``refusal`` or ``explain``, and ``apply_as`` returns nothing, as a plugin
    written before the engine base may. With ``checks_seat=False`` it also
    forgets the seat check, as a careless one might."""

    def __init__(self, inner: TrickState, checks_seat: bool = True) -> None:
        self.inner = inner
        self.checks_seat = checks_seat

    @property
    def game(self) -> Game:
        return self.inner.game

    @property
    def to_move(self) -> int | None:
        return self.inner.to_move

    def legal_moves(self) -> tuple[Any, ...]:
        return self.inner.legal_moves()

    def clone(self, rng: random.Random | None = None) -> Bare:
        return Bare(self.inner.clone(rng), self.checks_seat)

    def apply_as(self, seat: int, move: Any) -> None:
        if self.checks_seat:
            self.inner.apply_as(seat, move)
        else:
            self.inner.apply(move)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3), (3, 4)])
def test_ft_explain_and_refusal_agree_with_trial_at_every_position(players: int, seed: int) -> None:
    state = TrickGame(players=players, rounds=3).new_game(random.Random(seed))
    seen = play_and_check(state, seed)
    # Every kind of answer occurred: legal, out of turn or not held (FT-1),
    # not following (FT-2), and the deals drawn after a round's last move.
    assert seen["legal"] and seen["FT-1"] and seen["FT-2"]
    assert seen["deal after a move"] == 2


def test_ft_a_state_awaiting_its_deal_refuses_every_action_for_every_seat() -> None:
    state = TrickGame(players=2).new_state()
    check_position(state)
    assert {e.reason for e in state.explain(1)} == {"deal first"}


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_the_fallbacks_judge_a_bare_state_as_the_engine_does(seed: int) -> None:
    state = TrickGame(players=3).new_game(random.Random(seed))
    rng = random.Random(seed)
    while True:
        bare = Bare(state)
        for seat in range(3):
            assert engine.explain(bare, seat) == state.explain(seat)  # type: ignore[arg-type]
            for move in PLAYS:
                assert engine.refusal(bare, seat, move) == state.refusal(seat, move)  # type: ignore[arg-type]
        if state.finished:
            break
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])


class Answering(Bare):
    """A plugin's state that answers ``refusal`` and ``explain`` itself
    without building on the engine base: the free functions ask it."""

    def refusal(self, seat: int, move: Any) -> IllegalMoveError | None:
        return IllegalMoveError("asked", "FT-0")

    def explain(self, seat: int) -> tuple[Explanation, ...]:
        return (Explanation(PLAYS[0], False, "asked", "FT-0"),)


def test_the_free_functions_ask_a_state_that_explains_itself_and_try_any_other() -> None:
    state = TrickGame(players=2).new_game(random.Random(1))
    own, bare = Answering(state), Bare(state)
    assert isinstance(state, engine.Explains) and isinstance(own, engine.Explains)
    assert not isinstance(bare, engine.Explains)
    move = state.legal_moves()[0]
    assert engine.refusal(own, 1, move) == IllegalMoveError("asked", "FT-0")  # type: ignore[arg-type]
    assert engine.explain(own, 1) == (Explanation(PLAYS[0], False, "asked", "FT-0"),)  # type: ignore[arg-type]
    assert engine.refusal(bare, 1, move) == state.refusal(1, move)  # type: ignore[arg-type]


def test_a_refusal_raises_as_the_error_of_the_same_fields() -> None:
    refused = Refusal("seat 0 must follow suit", "FT-2", key="FT-2.follow", params={"seat": 0})
    assert IllegalMoveError.from_refusal(refused) == IllegalMoveError(
        "seat 0 must follow suit", "FT-2", "FT-2.follow", {"seat": 0}
    )
    assert engine.explanation(PLAYS[3], refused) == Explanation(
        PLAYS[3], False, "seat 0 must follow suit", "FT-2", "FT-2.follow", {"seat": 0}
    )
    assert engine.explanation(PLAYS[3], Refusal("deal first", "FT-1")) == Explanation(
        PLAYS[3], False, "deal first", "FT-1", None, None
    )
    assert engine.explanation(PLAYS[3], None) == Explanation(PLAYS[3], True, None, None)


def test_the_fallback_trials_never_draw_on_the_games_generator() -> None:
    # A careless plugin's apply_as lets any seat move: trying the other seats'
    # moves at a round's last card ends the round on the clone, which deals
    # the next one. That deal must come from a scratch generator.
    rng = random.Random(8)
    state = TrickGame(players=2, rounds=2).new_game(rng)
    for _ in range(5):
        state.apply(state.legal_moves()[0])
    assert state.round_number == 1 and state.moves_in_round == 5  # the round's last card is due
    before = rng.getstate()
    careless = Bare(state, checks_seat=False)
    explanations = engine.explain(careless, 1 - state.to_move)  # type: ignore[arg-type, operator]
    assert any(e.legal for e in explanations)  # some trial did end the round
    assert rng.getstate() == before


class _WrittenDeal:
    """A deal value as an engine holds it; Applied writes it only in events()."""

    def to_json(self) -> dict[str, list[int]]:
        return {"hands": []}


def test_applied_writes_the_move_as_the_record_does() -> None:
    move = PLAYS[5]
    plain = Applied(1, move, engine.NO_CHANCE)
    assert plain.move_json() == {"seat": 1, "play": "B2"}
    assert plain.events() == [("move", {"seat": 1, "play": "B2"})]
    dealt = Applied(0, move, {"reshuffle": [3, 1]}, deal=_WrittenDeal())
    assert dealt.move_json() == {"seat": 0, "play": "B2", "reshuffle": [3, 1]}
    assert dealt.events() == [
        ("move", {"seat": 0, "play": "B2", "reshuffle": [3, 1]}),
        ("deal", {"hands": []}),
    ]


def test_applied_by_seat_is_indexed_by_seat_and_action() -> None:
    table = engine.applied_by_seat(3, PLAYS)
    assert table[2][7] == Applied(2, PLAYS[7], {})
    assert len(table) == 3 and all(len(row) == len(PLAYS) for row in table)


def test_the_base_checks_the_seat_of_a_view_and_of_a_move() -> None:
    state = TrickGame(players=2).new_game(random.Random(1))
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError, match=r"^no seat .*: seats are 0 to 1$"):
            state.view(seat)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError) as info:
        state.apply_as(1, state.legal_moves()[0])
    assert info.value == IllegalMoveError(
        "it is seat 0's turn, not seat 1's", "FT-1", "FT-1.turn", {"to_move": 0, "seat": 1}
    )
    assert state.refusal(1, state.legal_moves()[0]) == info.value
    assert repr(state) == "<TrickState round 1, to move 0, scores (0, 0)>"


def test_explanation_lists_the_action_space_in_index_order() -> None:
    state = TrickGame(players=2).new_game(random.Random(1))
    explanations = state.explain(0)
    legal = state.legal_moves()
    assert [e.move for e in explanations] == list(PLAYS)
    assert [e.move for e in explanations if e.legal] == list(legal)
    assert all(isinstance(e, Explanation) for e in explanations)
