"""The learned bot (issue 26, item 2): its shipped weights, and that it plays
from the seat's view alone (MT-9), deterministically and legally.

The weights ``pimc-lp-small`` distils for its playouts load here too, and a
bad file is refused.
``tests/bots/test_bot_contract.py`` checks it too, as every registered bot:
no reference to the state, the same move over decoy hidden cards, whole
games of legal moves at every player count.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from cardtable.bots import Budget, make_bot
from cardtable.core.game import Move
from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest
from cardtable.games.marshmallow_test.bots.learned import (
    FORMAT,
    WEIGHTS,
    FilteredPIMCBot,
    LearnedBot,
    Policy,
    PolicyError,
    load_policy,
)
from cardtable.games.marshmallow_test.bots.learned_playout import (
    PLAYOUT_WEIGHTS,
    SmallPlayoutBot,
)
from cardtable.games.marshmallow_test.cards import NUM_CARDS
from cardtable.games.marshmallow_test.determinize import determinize
from cardtable.games.marshmallow_test.observations import MarshmallowEncoder
from tests.bot_games import play_checking_legal
from tests.marshmallow_test.helpers import scenario
from tests.marshmallow_test.test_package import random_position

PLAYERS = (2, 3, 4, 5)


def read(state: MarshmallowState, seat: int) -> tuple[bytes, Move]:
    """The features and the move of a fresh bot for ``seat``, with ``state``
    (and no other state) a local here: a bot that peeked at its caller's
    frames would find this one, and so tell a decoy from the real state."""
    real_state = state
    bot = LearnedBot(seat, real_state.game, random.Random(0))
    features = bot.policy.features(real_state.view(seat)).tobytes()
    return features, bot.choose(real_state.view(seat), real_state.legal_moves())


def test_the_shipped_weights_load_with_a_model_for_every_player_count() -> None:
    assert WEIGHTS.is_file() and WEIGHTS.stat().st_size < 5_000_000  # "a few MB at most"
    arrays = load_policy()
    assert int(arrays["format"]) == FORMAT
    for players in PLAYERS:
        game = MarshmallowTest(players=players)
        policy = Policy(game)
        assert int(arrays[f"{players}p/size"]) == MarshmallowEncoder(game).size
        assert all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in policy.layers)
        # A trained network, not zeros: different views get different scores.
        views = [random_position(players, seed, 9 * seed).view(0) for seed in range(3)]
        assert len({policy.logits(v).tobytes() for v in views}) == 3


def test_the_playouts_distilled_weights_load_and_are_a_fraction_of_the_policys() -> None:
    """``playout_policy.npz`` (``pimc-lp-small``): one hidden layer, a logit
    per card only (playouts never name trump), for every player count, and
    several times fewer weights than the policy it was distilled from."""
    assert PLAYOUT_WEIGHTS.is_file() and PLAYOUT_WEIGHTS.stat().st_size < 500_000
    assert int(load_policy(PLAYOUT_WEIGHTS)["format"]) == FORMAT
    for players in PLAYERS:
        game = MarshmallowTest(players=players)
        small, big = Policy(game, PLAYOUT_WEIGHTS), Policy(game)
        assert len(small.layers) == 2 and small.layers[-1][0].shape[1] == NUM_CARDS
        assert all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in small.layers)
        weights = sum(w.size for w, _ in small.layers)
        assert 5 * weights < sum(w.size for w, _ in big.layers)
        views = [random_position(players, seed, 9 * seed).view(0) for seed in range(3)]
        assert len({small.logits(v).tobytes() for v in views}) == 3


def test_the_small_playout_bot_refuses_a_bad_weights_file_in_one_sentence(
    tmp_path: Path,
) -> None:
    wrong = tmp_path / "playout_policy.npz"
    np.savez(wrong, format=np.array(FORMAT + 1))
    narrow = tmp_path / "narrow.npz"
    arrays = {"format": np.array(FORMAT), "2p/w1": np.zeros((9, 60)), "2p/b1": np.zeros(60)}
    np.savez(narrow, **arrays, **{"2p/size": np.array(9)})  # type: ignore[arg-type]
    game = MarshmallowTest(players=2)
    for path, message in (
        (wrong, "is not a learned policy of format"),
        (narrow, "the 2p model reads 9 inputs, the encoder writes 270"),
        (tmp_path / "missing.npz", "cannot read the learned policy"),
    ):
        bot_type = type("Bad", (SmallPlayoutBot,), {"weights": path})
        with pytest.raises(PolicyError, match=message) as refused:
            bot_type(0, game, random.Random(0))
        assert "\n" not in str(refused.value)


def test_a_weights_file_of_another_kind_is_refused_with_its_path(tmp_path: Path) -> None:
    wrong = tmp_path / "policy.npz"
    np.savez(wrong, format=np.array(FORMAT + 1))
    with pytest.raises(PolicyError, match="is not a learned policy of format"):
        load_policy(wrong)
    with pytest.raises(PolicyError, match="cannot read the learned policy"):
        load_policy(tmp_path / "missing.npz")
    lone = tmp_path / "two_players_only.npz"
    arrays = {"format": np.array(FORMAT), "2p/w1": np.zeros(1), "2p/size": np.zeros(1)}
    np.savez(lone, **arrays)  # type: ignore[arg-type]
    with pytest.raises(PolicyError, match="holds no model for 4 players"):
        Policy(MarshmallowTest(players=4), lone)


@pytest.mark.parametrize("players", PLAYERS)
def test_the_same_view_gets_the_same_move_whatever_the_generator(players: int) -> None:
    game = MarshmallowTest(players=players)
    for seed in range(12):
        state = random_position(players, seed, 3 * seed)
        if state.finished:
            continue
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_moves()
        bots = [LearnedBot(seat, game, random.Random(r)) for r in (0, seed + 1)]
        picks = {bot.choose(view, legal) for bot in bots for _ in range(2)}
        assert len(picks) == 1, seed


@pytest.mark.parametrize("players", PLAYERS)
def test_whole_games_of_learned_bots_make_only_legal_moves(players: int) -> None:
    game = MarshmallowTest(players=players, target=12)
    for g in range(3):
        state = game.new_game(random.Random(g))
        bots = [make_bot("learned", game, s, random.Random(g)) for s in range(players)]
        assert play_checking_legal(state, bots) > 10 * players  # at least a round was played


def test_swapping_two_other_hands_changes_neither_the_input_nor_the_move() -> None:
    """The swap test: two deals alike for the seat to move, the hands of two
    other seats exchanged, give the same features and the same move."""
    hands = [sorted(random.Random(5).sample(range(60), 60)[12 * s : 12 * s + 12]) for s in range(4)]
    real = scenario(4, hands)
    seat = real.to_move
    assert seat is not None
    a, b = [s for s in range(4) if s != seat][:2]
    swapped_hands = list(hands)
    swapped_hands[a], swapped_hands[b] = hands[b], hands[a]
    swapped = scenario(4, swapped_hands)
    assert swapped.view(a) != real.view(a)  # the seats swapped do see something else
    assert read(real, seat) == read(swapped, seat)


@pytest.mark.parametrize("players", PLAYERS)
def test_decoy_hidden_cards_mid_round_give_the_same_input_and_move(players: int) -> None:
    """Mid-round, a state resampled from the seat's view (other hands, cards
    aside and discards drawn anew) reads the same to the bot."""
    game = MarshmallowTest(players=players)
    checked = 0
    for seed in range(8):
        state = random_position(players, seed, 4 + 2 * seed)
        if state.finished or state.to_move is None:
            continue
        seat = state.to_move
        view = state.view(seat)
        decoy = determinize(game, view, random.Random(100 + seed))
        others = [s for s in range(players) if s != seat]
        if all(decoy.view(s) == state.view(s) for s in others):
            continue  # nothing hidden left to change
        checked += 1
        assert decoy.view(seat) == view
        assert read(state, seat) == read(decoy, seat)
    assert checked >= 4


def test_it_refuses_another_seats_view() -> None:
    game = MarshmallowTest(players=3)
    state = game.new_game(random.Random(0))
    seat = state.to_move
    assert seat is not None
    bot = LearnedBot((seat + 1) % 3, game, random.Random(0))
    with pytest.raises(TypeError, match="its own seat's MarshmallowView"):
        bot.choose(state.view(seat), state.legal_moves())


def test_the_filtered_search_keeps_to_the_policys_best_moves() -> None:
    """Kept to one move it plays the policy's; kept to three, one of its three."""
    game = MarshmallowTest(players=4)
    wide = 0
    for seed in range(6):
        state = random_position(4, seed, 5 * seed)
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_moves()
        wide += len(legal) > 3
        learned = LearnedBot(seat, game, random.Random(0)).choose(view, legal)
        budget = Budget(iterations=60)
        one = FilteredPIMCBot(seat, game, random.Random(seed), budget, keep=1)
        assert one.choose(view, legal) == learned
        three = FilteredPIMCBot(seat, game, random.Random(seed), budget, keep=3)
        logits = three.policy.logits(view)
        best = sorted(legal, key=lambda m: -float(logits[m.index]))[:3]
        assert three.choose(view, legal) in best
        if len(legal) > 1:  # what the search valued
            assert len(three.last_values) == min(3, len(legal))
    assert wide >= 3  # positions where the filter had moves to leave out
