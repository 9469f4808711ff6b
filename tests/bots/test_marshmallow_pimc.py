"""The Marshmallow Test search bot (PIMC): determinizations, batched playouts, play.

Rule numbers cite shared/spec/marshmallow-test.md.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.base import Budget
from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest, MarshmallowView
from cardtable.games.marshmallow_test.bots.heuristic import HeuristicBot
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot
from cardtable.games.marshmallow_test.bots.playout import Batch, Table, masks_to_bool, win_chances
from cardtable.games.marshmallow_test.cards import COLOUR_MASKS, parse_card
from cardtable.games.marshmallow_test.determinize import (
    constraints_from_view,
    determinize,
    sample_hidden,
    void_masks,
)
from cardtable.games.marshmallow_test.moves import Play


def _position(players: int, variant: str, seed: int, moves: int) -> MarshmallowState:
    """A game after ``moves`` decisions, half heuristic and half random."""
    game = MarshmallowTest(players=players, trump_after_ruff=variant, target=30)
    state = game.new_game(random.Random(seed))
    rng = random.Random(seed + 1)
    bots = [HeuristicBot(s, game, random.Random(seed + s)) for s in range(players)]
    for _ in range(moves):
        if state.finished:
            break
        seat = state.to_move
        assert seat is not None
        legal = state.legal_moves()
        if rng.random() < 0.5:
            state.apply(legal[rng.randrange(len(legal))])
        else:
            state.apply(bots[seat].choose(state.view(seat), legal))
    return state


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ---------------------------------------------------------------------- determinize
@settings(max_examples=120, deadline=None)
@given(
    players=st.integers(2, 5),
    variant=st.sampled_from(["may", "must"]),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 200),
    seat_pick=st.integers(0, 4),
)
def test_determinizations_are_consistent_with_the_view(
    players: int, variant: str, seed: int, moves: int, seat_pick: int
) -> None:
    state = _position(players, variant, seed, moves)
    if state.finished:
        return
    game = state.game
    assert isinstance(game, MarshmallowTest)
    seat = seat_pick % players
    view = state.view(seat)
    cons = constraints_from_view(view)
    # The inferred voids are sound: the true hands respect them (MT-5.3, MT-5.4).
    for s in range(players):
        assert not cons.void[s] & _mask(state.hand(s))
    rng = random.Random(seed)
    for _ in range(4):
        sample = determinize(game, view, rng)
        assert sample.view(seat) == view  # everything public and own hand agree
        for s in range(players):
            hand = _mask(sample.hand(s))
            assert not cons.void[s] & hand, "a void is violated"
            if view.out[s]:
                assert hand == 0  # MT-6.2: the hand of a player out is discarded
            assert hand.bit_count() == view.hand_sizes[s]
        hidden = sample_hidden(cons, rng)
        for s in range(players):
            assert not cons.void[s] & hidden[s]
            assert hidden[s] & ~cons.unseen == 0
            assert hidden[s].bit_count() == cons.need[s]
    # The bot's numpy sampler obeys the same constraints.
    if view.to_move == seat:
        bot = PIMCBot(seat, game, random.Random(seed))
        own = _mask(view.hand)
        for row in bot._deal_masks(view, cons, 16):
            masks = [int(m) for m in row]
            assert sum(
                m.bit_count() for m in masks
            ) == cons.unseen.bit_count() - cons.set_aside + len(view.hand)
            union = 0
            for s in range(players):
                assert not union & masks[s]
                union |= masks[s]
                assert not cons.void[s] & masks[s]
                assert masks[s].bit_count() == cons.need[s] + (len(view.hand) if s == seat else 0)
            assert union & ~(cons.unseen | own) == 0


def test_a_trump_onto_a_ruff_shows_no_void_under_may() -> None:
    # MT-5.4: lead red, seat 1 ruffs (void in red), seat 2 trumps in: no void known.
    trick = ((0, parse_card("R5"), 1, parse_card("G3"), 2, parse_card("G9")),)
    plays = tuple(tuple(zip(t[::2], t[1::2], strict=True)) for t in trick)
    void = void_masks(3, plays, trump=2, must=False)
    assert void[1] == COLOUR_MASKS[0]
    assert void[2] == 0


def test_a_discard_after_a_ruff_shows_the_void() -> None:
    # MT-5.4: after a ruff a card neither red nor trump shows a red void.
    plays = (((0, parse_card("R5")), (1, parse_card("G3")), (2, parse_card("B9"))),)
    assert void_masks(3, plays, trump=2, must=False)[2] == COLOUR_MASKS[0]
    # [must]: the same card shows no trump held, and says nothing about red.
    assert void_masks(3, plays, trump=2, must=True)[2] == COLOUR_MASKS[2]
    # [must]: a red card after the ruff shows no trump either.
    plays = (((0, parse_card("R5")), (1, parse_card("G3")), (2, parse_card("R9"))),)
    assert void_masks(3, plays, trump=2, must=True)[2] == COLOUR_MASKS[2]
    assert void_masks(3, plays, trump=2, must=False)[2] == 0


def test_heavily_constrained_views_still_sample() -> None:
    # 5 players (nothing set aside), many voids: the checked sampler never fails.
    for seed in range(30):
        state = _position(5, "may", seed, 35)
        if state.finished or state.to_move is None:
            continue
        view = state.view(state.to_move)
        cons = constraints_from_view(view)
        rng = random.Random(seed)
        for _ in range(5):
            hidden = sample_hidden(cons, rng, tries=0)  # straight to the checked path
            assert sum(h.bit_count() for h in hidden) == cons.unseen.bit_count()


# ---------------------------------------------------------------------- playouts
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["may", "must"])
def test_batch_matches_the_engine_and_the_heuristic(players: int, variant: str) -> None:
    """Several rounds at once: legal cards, the heuristic's card, trick counts
    and scores agree with the engine and HeuristicBot, move by move."""
    game = MarshmallowTest(players=players, trump_after_ruff=variant, target=25)
    rng = random.Random(players)
    states = [game.new_game(random.Random(100 * players + g)) for g in range(6)]
    bots = [HeuristicBot(s, game, random.Random(s)) for s in range(players)]
    for state in states:  # reach round 2 so there is trump
        while state.round_number < 2 and not state.finished:
            seat = state.to_move
            assert seat is not None
            state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
        seat = state.to_move
        assert seat is not None and state.trump_due
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    masks = np.array([[_mask(s.hand(p)) for p in range(players)] for s in states], dtype=np.uint64)
    batch = Batch(
        Table(players, 25, variant == "must"),
        masks_to_bool(masks),
        trump=np.array([s.trump for s in states]),
        to_move=np.array([s.to_move for s in states]),
        scores=states[0].scores,
    )
    batch.scores[:] = [s.scores for s in states]
    rounds = [s.round_number for s in states]
    while True:
        a = batch.active()
        if not len(a):
            break
        legal = batch.legal(a)
        choice = batch.heuristic(a, legal)
        cards = []
        for k, row in enumerate(a):
            state = states[row]
            seat = state.to_move
            assert seat is not None and batch.to_move[row] == seat
            moves = state.legal_moves()
            assert set(np.flatnonzero(legal[k])) == {m.card for m in moves if isinstance(m, Play)}
            expected = bots[seat].choose(state.view(seat), moves)
            assert choice[k] == expected.card
            move = expected if rng.random() < 0.6 else moves[rng.randrange(len(moves))]
            cards.append(move.card)
            state.apply(move)
        batch.step(a, np.array(cards))
        for row in a:
            state = states[row]
            ended = state.finished or state.round_number != rounds[row]
            assert batch.done[row] == ended
            assert tuple(batch.scores[row]) == state.scores
            if state.finished:
                assert batch.winner[row] == state.winners[0]
            elif not ended:
                assert tuple(batch.counts[row]) == state.trick_counts


def test_win_chances() -> None:
    table = Table(3, 20, False)
    batch = Batch(table, np.zeros((2, 3, 60), dtype=bool), trump=-1, to_move=0)
    batch.scores[:] = [[5, 10, 15], [21, 3, 3]]
    batch.winner[1] = 0  # MT-8.1
    chances = win_chances(batch)
    assert np.allclose(chances.sum(1), 1.0)
    assert chances[0, 2] > chances[0, 1] > chances[0, 0]
    assert list(chances[1]) == [1.0, 0.0, 0.0]


# ---------------------------------------------------------------------- the bot
class _ViewOnly:
    """Wraps a bot; fails the test if it ever gets anything but a view."""

    def __init__(self, bot: PIMCBot) -> None:
        self.bot = bot
        self.seat = bot.seat

    def choose(self, view: Any, legal: Any) -> Any:
        assert isinstance(view, MarshmallowView)
        assert view.seat == self.seat
        assert not any(isinstance(v, MarshmallowState) for v in vars(self.bot).values())
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["may", "must"])
def test_bot_finishes_games_legally(players: int, variant: str) -> None:
    game = MarshmallowTest(players=players, trump_after_ruff=variant, target=12)
    for g in range(2):
        state = game.new_game(random.Random(g))
        bots: list[Any] = [
            _ViewOnly(PIMCBot(s, game, random.Random(g * 10 + s), Budget(iterations=24)))
            if (s + g) % 2 == 0
            else HeuristicBot(s, game, random.Random(s))
            for s in range(players)
        ]
        decisions = 0
        while not state.finished:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_moves()
            move = bots[seat].choose(state.view(seat), legal)
            assert move in legal
            state.apply_as(seat, move)  # raises IllegalMoveError on an illegal move
            decisions += 1
        assert decisions > 0


def test_bot_sees_only_the_view_decoy_hands() -> None:
    """The bot's choice depends on its view alone: in a game whose hidden
    cards are replaced by decoys (another deal with the same view), a bot
    seeded the same way plays the same, legal, card."""
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = _position(4, "may", seed, rng.randrange(1, 40))
        if state.finished or state.to_move is None:
            continue
        seat = state.to_move
        view = state.view(seat)
        game = state.game
        assert isinstance(game, MarshmallowTest)
        decoy = determinize(game, view, rng)
        assert decoy.view(seat) == view
        assert [decoy.hand(s) for s in range(4)] != [state.hand(s) for s in range(4)] or (
            len(view.hand) <= 1
        )
        real_bot = PIMCBot(seat, game, random.Random(seed), Budget(iterations=60))
        decoy_bot = PIMCBot(seat, game, random.Random(seed), Budget(iterations=60))
        real = real_bot.choose(view, state.legal_moves())
        fake = decoy_bot.choose(decoy.view(seat), decoy.legal_moves())
        assert real == fake
        assert real in decoy.legal_moves() and real in state.legal_moves()
        checked += 1
    assert checked >= 3


def test_budget_and_defaults() -> None:
    game = MarshmallowTest(players=3)
    state = game.new_game(random.Random(3))
    seat = state.to_move
    assert seat is not None
    bot = PIMCBot(seat, game, random.Random(0), Budget(iterations=100))
    bot.choose(state.view(seat), state.legal_moves())
    assert 0 < bot.last_simulations <= 100 + len(state.legal_moves())
    assert len(bot.last_values) == len(state.legal_moves())
    assert all(0.0 <= v <= 1.0 for v in bot.last_values)
    timed = PIMCBot(seat, game, random.Random(0), Budget(seconds=0.05))
    timed.choose(state.view(seat), state.legal_moves())
    assert timed.last_simulations > 0
    with pytest.raises(TypeError):
        timed.choose(state, state.legal_moves())  # type: ignore[arg-type]


def test_trump_naming_is_searched() -> None:
    game = MarshmallowTest(players=3)
    state = game.new_game(random.Random(8))
    bots = [HeuristicBot(s, game, random.Random(s)) for s in range(3)]
    while not state.trump_due:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    seat = state.to_move
    assert seat is not None
    bot = PIMCBot(seat, game, random.Random(1), Budget(iterations=200))
    move = bot.choose(state.view(seat), state.legal_moves())
    assert move in state.legal_moves()
    assert len(bot.last_values) == 5


def test_likelihood_weights_favour_the_true_deal() -> None:
    """Among heuristic players, the real hands explain every play best: no
    sampled determinization gets a higher weight (round 1: no trump named)."""
    game = MarshmallowTest(players=4)
    for seed in range(4):
        state = game.new_game(random.Random(seed))
        bots = [HeuristicBot(s, game, random.Random(s)) for s in range(4)]
        for _ in range(15 + seed):
            seat = state.to_move
            assert seat is not None
            state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
        assert state.round_number == 1 and not any(state.out)
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        # Almost no noise: a deal's weight counts the plays it fails to explain.
        bot = PIMCBot(seat, game, random.Random(seed), weighting=1e-6)
        cons = constraints_from_view(view)
        masks = bot._deal_masks(view, cons, 64)
        true = np.array([[_mask(state.hand(s)) for s in range(4)]], dtype=np.uint64)
        weights = bot._likelihoods(view, cons, np.concatenate([masks, true]))
        assert weights[-1] > 0.99 * weights.max()


def test_weighted_bot_plays_legally() -> None:
    game = MarshmallowTest(players=3, target=10)
    state = game.new_game(random.Random(4))
    bot = PIMCBot(0, game, random.Random(0), Budget(iterations=30), weighting=0.3)
    others = [HeuristicBot(s, game, random.Random(s)) for s in range(3)]
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_moves()
        player: Any = bot if seat == 0 else others[seat]
        state.apply_as(seat, player.choose(state.view(seat), legal))
