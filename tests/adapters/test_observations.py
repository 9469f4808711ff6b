"""Observation encoders and masks: layout, bounds, and that they come from views only."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numpy")

import cardtable
from cardtable.adapters import observations
from cardtable.adapters.observations import action_mask, encode, layout
from cardtable.core import registry
from cardtable.core.manifest import MissingPartError
from cardtable.games.marshmallow_test.tricks import shown_voids
from cardtable.games.myrummy_111.codec import Deal as RummyDeal

GAMES = [(name, n) for name in ("marshmallow-test", "myrummy-111") for n in range(2, 6)]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_layout_is_contiguous_and_sizes_match(name: str, players: int) -> None:
    game = cardtable.load(name, players=players)
    blocks = layout(game)
    offset = 0
    for _, at, size in blocks:
        assert at == offset
        offset += size
    assert offset == observations.observation_size(game)
    if name == "marshmallow-test":
        assert offset == 126 + 72 * players  # docs/research.md
    else:
        assert offset == 137 + 32 * players  # docs/research.md


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_random_games_stay_in_bounds_and_masks_match(name: str, players: int) -> None:
    game = cardtable.load(name, players=players)
    size = observations.observation_size(game)
    rng = random.Random(players)
    state = game.new_game(random.Random(players))
    for _ in range(300):
        if state.finished:
            break
        seat = state.to_move
        assert seat is not None
        for s in range(players):
            obs = encode(game, state.view(s))
            assert obs.dtype == np.float32 and obs.shape == (size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
        legal = state.legal_moves()
        mask = action_mask(game, legal)
        assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(m.index for m in legal)
        for i in np.flatnonzero(mask):
            assert game.move_from_index(int(i)) in legal
        state.apply(legal[rng.randrange(len(legal))])


def _block(game: Any, obs: np.ndarray, name: str) -> np.ndarray:
    for block, at, size in layout(game):
        if block == name:
            return obs[at : at + size]
    raise KeyError(name)


def test_marshmallow_blocks_hold_the_view() -> None:
    game = cardtable.load("marshmallow-test", players=4)
    state = game.new_game(random.Random(3))
    rng = random.Random(0)
    for _ in range(6):  # one whole trick and two cards of the next
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    view: Any = state.view(1)
    obs = encode(game, view)
    assert np.flatnonzero(_block(game, obs, "hand")).tolist() == list(view.hand)
    played = {c for t in view.tricks for _, c in t} | {c for _, c in view.current_trick}
    assert set(np.flatnonzero(_block(game, obs, "played_this_round")).tolist()) == played
    current = _block(game, obs, "current_trick_by_seat").reshape(4, 60)
    for seat, card in view.current_trick:
        assert current[(seat - 1) % 4, card] == 1.0  # relative seats: 1 sees itself first
    assert current.sum() == len(view.current_trick)
    assert _block(game, obs, "to_move")[(view.to_move - 1) % 4] == 1.0


def test_marshmallow_voids_block_is_what_the_tricks_show() -> None:
    """MT-5.3/5.4: the voids block holds, in relative seats, every void the
    round's tricks (the one in progress included) have shown, and nothing else."""
    for ruff in ("may", "must"):
        game = cardtable.load("marshmallow-test", players=4, trump_after_ruff=ruff)
        enc = observations.encoder(game)
        rng = random.Random(7)
        state = game.new_game(random.Random(7))
        shown = 0
        while not state.finished and state.round_number <= 3:
            for seat in range(4):
                view: Any = state.view(seat)
                must = view.trump_after_ruff == "must"
                expected = np.zeros((4, 5))
                for trick in (*view.tricks, view.current_trick):
                    for who, colour in shown_voids(trick, view.trump, must):
                        expected[(who - seat) % 4, colour] = 1
                voids = _block(game, enc.encode(view), "voids_by_seat").reshape(4, 5)
                assert np.array_equal(voids, expected)
                shown += int(expected.sum())
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        assert shown > 0


def _same_colour_swap(hands: list[set[int]], a: int, b: int) -> tuple[int, int] | None:
    for x in sorted(hands[a]):
        for y in sorted(hands[b]):
            if x // 12 == y // 12:
                return x, y
    return None


def test_marshmallow_observation_ignores_other_seats_hidden_cards() -> None:
    """Seats 1 and 2 swap an unplayed card of one colour: every past and future
    move stays legal in both deals, and seat 0's observations never differ."""
    game = cardtable.load("marshmallow-test", players=4)
    compared = 0
    for seed in range(20):
        first: Any = game.new_game(random.Random(seed))
        hands = [set(first.hand(s)) for s in range(4)]  # privileged: building the test
        rng = random.Random(seed)
        moves = []
        probe = first.clone()
        for _ in range(20):
            legal = probe.legal_moves()
            move = legal[rng.randrange(len(legal))]
            moves.append(move)
            probe.apply(move)
            if probe.round_number != 1:
                break
        played = {m.card for m in moves if hasattr(m, "card")}
        unplayed = [hands[s] - played for s in range(4)]
        swap = _same_colour_swap(unplayed, 1, 2)
        if swap is None:
            continue
        x, y = swap
        swapped = [set(h) for h in hands]
        swapped[1] = (swapped[1] - {x}) | {y}
        swapped[2] = (swapped[2] - {y}) | {x}
        a, b = game.new_state(), game.new_state()
        a.deal([sorted(h) for h in hands])
        b.deal([sorted(h) for h in swapped])
        for move in moves:
            if a.round_number != 1 or a.finished:
                break
            assert np.array_equal(encode(game, a.view(0)), encode(game, b.view(0)))
            if a.to_move == 0:
                mask_a = action_mask(game, a.legal_moves())
                assert np.array_equal(mask_a, action_mask(game, b.legal_moves()))
            seat_one: Any = a.view(1)
            if not seat_one.out[1]:  # seat 1 itself sees the difference while it holds cards
                assert not np.array_equal(encode(game, a.view(1)), encode(game, b.view(1)))
            a.apply(move)
            b.apply(move)
            compared += 1
    assert compared >= 40


def test_myrummy_observation_ignores_other_seats_hidden_cards() -> None:
    """Seats 1 and 2 swap a card of their dealt rows: seat 0's observations are
    equal until one of the swapped cards is discarded face up (MR-5.1)."""
    game = cardtable.load("myrummy-111", players=3)
    compared = 0
    for seed in range(10):
        order = list(range(2, 112))
        random.Random(seed).shuffle(order)
        sizes = (12, 12, 12)
        x, y = order[12 + 5], order[24 + 7]  # seat 1 position 5, seat 2 position 7
        other = [y if c == x else x if c == y else c for c in order]
        a, b = game.new_state(), game.new_state()
        a.deal(_rummy_deal(order, sizes))
        b.deal(_rummy_deal(other, sizes))
        rng = random.Random(seed)
        while a.round_number == 1 and not a.finished:
            va: Any = a.view(0)
            vb: Any = b.view(0)
            if va.discard_pile != vb.discard_pile or va.middle != vb.middle or va.known != vb.known:
                break  # a swapped card became public
            assert np.array_equal(encode(game, va), encode(game, vb))
            assert not np.array_equal(encode(game, a.view(1)), encode(game, b.view(1)))
            legal = [m for m in a.legal_moves() if not getattr(m, "declare", False)]
            move = legal[rng.randrange(len(legal))]
            a.apply(move)
            b.apply(move)
            compared += 1
    assert compared >= 40


def _rummy_deal(order: list[int], sizes: tuple[int, ...]) -> RummyDeal:
    hands, at = [], 0
    for size in sizes:
        hands.append(tuple(order[at : at + size]))
        at += size
    return RummyDeal(tuple(hands), tuple(order[at : at + 3]), tuple(order[at + 3 :]))


def test_mask_memo_returns_fresh_arrays() -> None:
    game = cardtable.load("myrummy-111", players=2)
    state = game.new_game(random.Random(0))
    legal = state.legal_moves()
    first = action_mask(game, legal)
    first[:] = 0
    assert action_mask(game, legal).sum() == len(legal)


def test_a_game_without_an_encoder_is_told_so_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardtable.load("marshmallow-test", players=3)
    bare = dataclasses.replace(registry.manifest(game.name), observation_encoder=None)
    monkeypatch.setattr(observations, "manifest", lambda name: bare)
    with pytest.raises(MissingPartError, match="Marshmallow Test does not offer an observation"):
        observations.encoder(game)


def test_an_unknown_game_is_an_unknown_game() -> None:
    class Fake:
        name = "nope"

    with pytest.raises(cardtable.UnknownGameError, match="nope"):
        observations.encoder(Fake())  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["marshmallow-test", "myrummy-111"])
def test_encoders_come_from_the_manifest_and_are_never_shared(name: str) -> None:
    """Encoders keep memos: two environments on one (or an equal) game must
    not share one, so every lookup builds a new encoder of the game's class."""
    game = cardtable.load(name, players=3)
    first, second = observations.encoder(game), observations.encoder(game)
    assert first is not second
    assert type(first) is registry.manifest(name).part("observation_encoder")
