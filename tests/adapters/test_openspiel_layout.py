"""Every game's OpenSpiel layout agrees with its engine, checked without pyspiel;
and the determinizations the adapter hands to OpenSpiel carry no generator."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.adapters.openspiel_determinize import determinize
from cardtable.core.registry import manifest, manifests

LAID_OUT = [name for name, m in manifests().items() if m.has("openspiel")]


def _layout(name: str) -> Any:
    return manifest(name).part("openspiel")


def test_the_built_in_games_have_layouts() -> None:
    assert {"marshmallow-test", "myrummy-111"} <= set(LAID_OUT)
    names = [_layout(name).short_name for name in LAID_OUT]
    assert len(set(names)) == len(names)
    assert _layout("myrummy-111").short_name == "python_cardtable_myrummy_111"


@pytest.mark.parametrize("name", LAID_OUT)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_deal_drawn_card_by_card_is_the_engine_s_deal(name: str, players: int) -> None:
    if players not in manifest(name).players:
        pytest.skip(f"{name} is not played by {players}")
    layout = _layout(name)
    game = cardtable.load(name, **layout.options({**layout.parameters, "players": players}))
    assert len(set(layout.deck)) == len(layout.deck) >= layout.deal_size(game)
    for seed in range(5):
        cards = list(layout.deck)
        random.Random(seed).shuffle(cards)
        drawn = cards[: layout.deal_size(game)]
        state: Any = game.new_state()
        waiting = state.awaiting_deal
        state.deal(layout.deal(game, drawn))
        assert waiting and not state.awaiting_deal and state.to_move is not None
        for seat in range(players):
            held = layout.dealt_to(game, drawn, seat)
            assert sorted(held) == sorted(state.view(seat).hand)


@pytest.mark.parametrize("name", LAID_OUT)
def test_parameters_and_options_round_trip(name: str) -> None:
    layout = _layout(name)
    game = cardtable.load(name, **layout.options({**layout.parameters, "players": 3}))
    params = layout.parameters_of(game)
    assert set(params) == set(layout.parameters)
    again = cardtable.load(name, **layout.options(params))
    assert again.options_json == game.options_json
    assert layout.max_utility(game) > 0 and layout.auto_max_moves(game) > 0


@pytest.mark.parametrize("name", LAID_OUT)
def test_determinizations_wait_for_the_next_deal(name: str) -> None:
    """The sampler's state has its generator detached: at the round's end it
    waits for a deal (a chance node for OpenSpiel) instead of dealing itself."""
    if not manifest(name).has("determinize"):
        pytest.skip(f"{name} has no determinize: OpenSpiel does not resample it")
    game = cardtable.load(name, players=3)
    rng = random.Random(1)
    state = game.new_game(random.Random(2))
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    seat = state.to_move
    assert seat is not None
    guess = determinize(game, state.view(seat), rng)
    assert guess.view(seat) == state.view(seat)
    for _ in range(10_000):  # random play ends the first round long before
        if guess.awaiting_deal or guess.finished:
            break
        legal = guess.legal_moves()
        guess.apply(legal[rng.randrange(len(legal))])
    # One round cannot reach the default target, so the game goes on: with a
    # generator it would have dealt the next round itself.
    assert guess.awaiting_deal and not guess.finished and guess.to_move is None
