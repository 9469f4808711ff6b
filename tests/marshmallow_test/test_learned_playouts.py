"""``pimc`` with the learned policy in its playouts (issue 26, item 2):
``pimc-lp`` (the policy at every seat), ``pimc-lp-opp`` (at the
opponents' seats only) and ``pimc-lp-small`` (every seat, the policy
distilled into a small network, ``playout_policy.npz``).

The playouts' policy must decide for each seat from that seat's view of the
determinized world alone (MT-9): the batched features are checked against
the game's own encoder on the mover's view, card for card through real
rounds, and must not depend on which other rows are asked with them; the
first layer computed without writing the features out must equal the one
computed from them. The bots themselves must play legally, be deterministic for a seed,
and not change when the other seats' hidden cards do.
``tests/bots/test_bot_contract.py`` checks both names too, as every
registered bot.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardtable.bots import Budget, make_bot
from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest
from cardtable.games.marshmallow_test.bots.learned_playout import (
    LearnedPlayoutBot,
    OpponentModelBot,
    SeenBatch,
    SmallPlayoutBot,
)
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot
from cardtable.games.marshmallow_test.determinize import constraints_from_view, determinize
from cardtable.games.marshmallow_test.moves import Play
from tests.bot_games import play_checking_legal
from tests.marshmallow_test.helpers import scenario
from tests.marshmallow_test.test_package import random_position

PLAYERS = (2, 3, 4, 5)
NAMES = ("pimc-lp", "pimc-lp-opp", "pimc-lp-small", "pimc-lp-endgame")
CLASSES = [LearnedPlayoutBot, OpponentModelBot, SmallPlayoutBot]
BUDGET = Budget(iterations=120)


class NoPolicyBot(LearnedPlayoutBot):
    """The machinery of ``pimc-lp`` with the policy at no seat."""

    def policy_seats(self, players: int) -> np.ndarray:
        return np.zeros(players, dtype=bool)


def true_batch(state: MarshmallowState) -> SeenBatch:
    """One playout row holding the state's real hands, seen from the seat to move."""
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    masks = [sum(1 << c for c in state.hand(s)) for s in range(state.game.num_players)]
    bot = LearnedPlayoutBot(seat, state.game, random.Random(0))
    trump = -1 if view.trump is None else view.trump
    batch = bot._batch(view, np.array([masks], dtype=np.int64), trump)
    assert isinstance(batch, SeenBatch)
    return batch


@pytest.mark.parametrize("variant", ["may", "must"])
@pytest.mark.parametrize("players", PLAYERS)
def test_each_seats_features_are_the_encoders_on_its_own_view(players: int, variant: str) -> None:
    """From a point in a round, the batch plays the round's real cards on;
    before every card, the features it feeds the policy for the seat to move
    are exactly the encoder's on that seat's view: its own hand, the public
    facts (played cards, the trick, voids shown under MT-5.3/MT-5.4), in
    relative seats. So the policy reads no other seat's card."""
    game = MarshmallowTest(players=players, target=40, trump_after_ruff=variant)
    encoder = LearnedPlayoutBot(0, game, random.Random(0)).policy.encoder
    compared = 0
    for seed in range(5):
        state = game.new_game(random.Random(seed))
        rng = random.Random(seed + 50)
        batch: SeenBatch | None = None
        start_at = rng.randrange(3 * players)  # cards into the round before the batch starts
        played_in_round = 0
        while not state.finished:
            legal = state.legal_moves()
            if batch is None and isinstance(legal[0], Play) and played_in_round >= start_at:
                batch = true_batch(state)
            if batch is not None:
                seat = state.to_move
                assert seat is not None and int(batch.to_move[0]) == seat
                features = batch.features(np.array([0]))[0]
                np.testing.assert_array_equal(features, encoder.encode(state.view(seat)))
                compared += 1
            move = legal[rng.randrange(len(legal))]
            round_number = state.round_number
            state.apply(move)
            played_in_round = 0 if state.round_number != round_number else played_in_round + 1
            if batch is not None:
                assert isinstance(move, Play)
                batch.step(np.array([0]), np.array([move.card]))
                if batch.done[0]:
                    assert state.round_number != round_number or state.finished
                    batch = None
    assert compared > 60 * players


def playout_batches(cls: type[LearnedPlayoutBot], players: int, seed: int) -> list[SeenBatch]:
    """The unfinished rows of a bot's playouts from a random position, step
    by step: 40 determinizations played on by the playouts' own policy, so
    that the rows soon have different seats to move."""
    state = random_position(players, seed, 5 + 3 * seed)
    seat = state.to_move
    assert seat is not None and not state.finished
    view = state.view(seat)
    bot = cls(seat, state.game, random.Random(seed))
    masks = bot._deal_masks(view, constraints_from_view(view), 40).astype(np.int64)
    masks[:, np.array(view.out, dtype=bool)] = 0  # out: holds nothing (MT-6.2)
    batch = bot._batch(view, masks, -1 if view.trump is None else view.trump)
    assert isinstance(batch, SeenBatch)
    steps: list[SeenBatch] = []
    generator = np.random.default_rng(seed)
    while len(active := batch.active()):
        sub = batch._take(active)
        assert isinstance(sub, SeenBatch)
        steps.append(sub)
        batch.step(active, batch.policy(active, batch.legal(active), 0.1, generator))
    return steps


@pytest.mark.parametrize("cls", [LearnedPlayoutBot, SmallPlayoutBot])
@pytest.mark.parametrize("players", PLAYERS)
def test_a_rows_features_are_its_own_whoever_else_is_asked(
    cls: type[LearnedPlayoutBot], players: int
) -> None:
    """Rows asked together, with different seats to move, get each the
    features it gets alone (whose match with the encoder is checked above);
    and the first layer computed from the batch is the one computed from
    those features."""
    mixed = 0
    for seed in range(3):
        for sub in playout_batches(cls, players, seed):
            rows = np.arange(sub.rows)
            together = sub.features(rows)
            alone = np.concatenate([sub.features(np.array([r])) for r in rows])
            np.testing.assert_array_equal(together, alone)
            w, b = sub.seen.policy.layers[0]
            np.testing.assert_allclose(sub.first_layer(rows), together @ w + b, atol=1e-4)
            mixed += len(set(sub.to_move.tolist())) > 1
    assert mixed >= 5  # steps where the rows' seats to move differed


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("players", (2, 4))
def test_whole_games_of_legal_moves(name: str, players: int) -> None:
    game = MarshmallowTest(players=players, target=10)
    state = game.new_game(random.Random(players))
    bots = [
        make_bot(name, game, s, random.Random(s), Budget(iterations=40)) for s in range(players)
    ]
    assert play_checking_legal(state, bots) > 10 * players


@pytest.mark.parametrize("cls", CLASSES)
def test_the_same_seed_gives_the_same_search(cls: type[LearnedPlayoutBot]) -> None:
    searched = 0
    for seed in range(6):
        state = random_position(4, seed, 4 * seed)
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_moves()
        runs = [cls(seat, state.game, random.Random(seed), BUDGET) for _ in range(2)]
        picks = [bot.choose(view, legal) for bot in runs]
        assert picks[0] == picks[1]
        assert runs[0].last_values == runs[1].last_values
        searched += len(legal) > 1
    assert searched >= 4


def search(
    state: MarshmallowState, cls: type[PIMCBot], seed: int
) -> tuple[object, tuple[float, ...]]:
    """The move and the values of a fresh bot, ``state`` (and no other) a
    local here, where a bot that peeked at its caller would find it."""
    real_state = state
    seat = real_state.to_move
    assert seat is not None
    bot = cls(seat, real_state.game, random.Random(seed), BUDGET)
    move = bot.choose(real_state.view(seat), real_state.legal_moves())
    return move, bot.last_values


@pytest.mark.parametrize("cls", CLASSES)
def test_swapping_two_other_hands_changes_nothing_it_does(cls: type[PIMCBot]) -> None:
    """The swap test of test_learned_policy.py, on the whole search: the
    move and every move's value are the same."""
    for seed in (5, 6):
        hands = [
            sorted(random.Random(seed).sample(range(60), 60)[12 * s : 12 * s + 12])
            for s in range(4)
        ]
        real = scenario(4, hands)
        seat = real.to_move
        assert seat is not None
        a, b = [s for s in range(4) if s != seat][:2]
        swapped_hands = list(hands)
        swapped_hands[a], swapped_hands[b] = hands[b], hands[a]
        swapped = scenario(4, swapped_hands)
        assert swapped.view(a) != real.view(a)  # the seats swapped do see something else
        assert search(real, cls, seed) == search(swapped, cls, seed)


@pytest.mark.parametrize("cls", CLASSES)
@pytest.mark.parametrize("players", (2, 4))
def test_decoy_hidden_cards_mid_round_change_nothing_it_does(
    cls: type[PIMCBot], players: int
) -> None:
    game = MarshmallowTest(players=players)
    checked = 0
    for seed in range(6):
        state = random_position(players, seed, 3 + 3 * seed)
        if state.finished or state.to_move is None:
            continue
        seat = state.to_move
        view = state.view(seat)
        decoy = determinize(game, view, random.Random(100 + seed))
        if all(decoy.view(s) == state.view(s) for s in range(players) if s != seat):
            continue  # nothing hidden left to change
        checked += 1
        assert decoy.view(seat) == view
        assert search(state, cls, seed) == search(decoy, cls, seed)
    assert checked >= 3


def test_without_the_policy_the_playouts_are_pimcs_and_with_it_they_differ() -> None:
    """The extra bookkeeping leaves ``pimc``'s playouts as they were (same
    seed, same values); the policy, once at the seats, changes them."""
    differ = 0
    for seed in range(6):
        state = random_position(4, seed, 6 * seed)
        plain = search(state, PIMCBot, seed)
        assert search(state, NoPolicyBot, seed) == plain
        differ += search(state, LearnedPlayoutBot, seed)[1] != plain[1]
        differ += search(state, OpponentModelBot, seed)[1] != plain[1]
    assert differ >= 8


def test_the_opponent_model_leaves_the_bots_own_seat_to_the_heuristic() -> None:
    game = MarshmallowTest(players=3)
    assert LearnedPlayoutBot(1, game, random.Random(0)).by_policy.tolist() == [True] * 3
    assert OpponentModelBot(1, game, random.Random(0)).by_policy.tolist() == [True, False, True]
