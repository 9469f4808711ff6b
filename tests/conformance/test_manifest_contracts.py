"""What every registered game's manifest and optional parts promise.

Parametrized like the rest of the suite (the fixture plugin game included):

- the manifest's options are the game's options, each with its default
  stated, and each stated default is what the game takes when the option is
  not given (``game.options_json``);
- ``rules`` and ``web_client`` are files of ``package``, read the way an
  installed copy reads them (``importlib.resources``);
- ``determinize`` samples uniformly: at a round's first decision every unseen
  card is as likely as any other in each other seat's hand; and its state
  drops its generator on ``detach_rng()``, then waits for the next deal;
- an OpenSpiel layout's ``deck`` holds every card the engine deals, at every
  player count (a deck that depends on the options must list them all), and
  a deal drawn from it card by card is the engine's deal.
"""

from __future__ import annotations

import random
from collections import Counter
from importlib import resources
from typing import Any

import pytest

import cardtable
from cardtable.core.manifest import Derived
from cardtable.core.registry import manifest
from cardtable.core.rulebook import rulebook


def test_the_manifest_lists_the_games_options_each_with_its_default(name: str) -> None:
    game_manifest = manifest(name)
    taken = cardtable.load(name).options_json
    assert [o.name for o in game_manifest.options] == list(taken)
    for option in game_manifest.options:
        assert option.has_default or isinstance(option.default, Derived), option.name


def test_stated_defaults_are_what_the_game_takes_without_options(name: str) -> None:
    game_manifest = manifest(name)
    taken = cardtable.load(name).options_json
    stated = {o.name: o.default for o in game_manifest.options if o.has_default}
    assert stated == {key: taken[key] for key in stated}
    assert taken["players"] == game_manifest.default_players


def test_a_stated_maximum_is_the_largest_value_the_game_takes(name: str) -> None:
    """``OptionHelp.maximum`` agrees with the game's own option check."""
    for option in manifest(name).options:
        if option.maximum is None:
            continue
        assert cardtable.load(name, **{option.name: option.maximum}).options_json[option.name] == (
            option.maximum
        )
        with pytest.raises(cardtable.OptionError):
            cardtable.load(name, **{option.name: option.maximum + 1})


def test_rules_and_browser_drawing_are_files_of_the_package(name: str) -> None:
    game_manifest = manifest(name)
    if game_manifest.rules is not None:
        assert rulebook(game_manifest).parts  # read from the package, numbered rules found
    if game_manifest.web_client is not None:
        assert game_manifest.package is not None  # the manifest refuses it otherwise
        drawing = resources.files(game_manifest.package).joinpath(game_manifest.web_client)
        assert drawing.is_file() and drawing.read_text(encoding="utf-8").strip()


# The largest chi-square statistic accepted: the mean plus seven standard
# deviations (a uniform sampler exceeds it with a chance far below one in a
# million; the statistic's variance is even smaller here, the cards of one
# hand being drawn without replacement). Over 4000 samples of Marshmallow
# Test at 3 players (48 unseen cards, limit 115), a simulated sampler that
# puts a quarter of the cards in a hand 13% more often than the rest scored
# 319 (a uniform one 50).
def chi_square_limit(categories: int) -> float:
    dof = categories - 1
    return float(dof + 7 * (2 * dof) ** 0.5)


def test_resampling_is_uniform_at_a_rounds_first_decision(resampled: str) -> None:
    determinize = manifest(resampled).part("determinize")
    samples = 4000
    for players in sorted({min(manifest(resampled).players), max(manifest(resampled).players)}):
        game = cardtable.load(resampled, players=players)
        state = game.new_game(random.Random(players))
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        own = set(view.to_json()["hand"])
        rng = random.Random(100 + players)
        counts: list[Counter[Any]] = [Counter() for _ in range(players)]
        held = [0] * players
        for _ in range(samples):
            guess = determinize(game, view, rng)
            for other in range(players):
                if other != seat:
                    hand = guess.view(other).to_json()["hand"]
                    counts[other].update(hand)
                    held[other] += len(hand)
        unseen = set().union(*counts)
        assert not unseen & own  # the seat's own cards are never given to another
        for other in range(players):
            if other == seat:
                continue
            expected = held[other] / len(unseen)
            chi2 = sum((counts[other][card] - expected) ** 2 / expected for card in unseen)
            assert chi2 < chi_square_limit(len(unseen)), (players, other, chi2)


def test_a_resampled_state_detaches_its_generator(resampled: str) -> None:
    """The state ``determinize`` returns has ``detach_rng()``; after it, the
    state waits at the round's end for an explicit deal instead of dealing."""
    determinize = manifest(resampled).part("determinize")
    players = min(manifest(resampled).players)
    game = cardtable.load(resampled, players=players)
    rng = random.Random(3)
    state = game.new_game(random.Random(4))
    for _ in range(3):
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    seat = state.to_move
    assert seat is not None
    guess = determinize(game, state.view(seat), rng)
    guess.detach_rng()
    assert guess.view(seat) == state.view(seat)
    for _ in range(100_000):  # far more decisions than one round has
        if guess.awaiting_deal or guess.finished:
            break
        legal = guess.legal_moves()
        guess.apply(legal[rng.randrange(len(legal))])
    if not guess.finished:  # with a generator, it would have dealt the next round itself
        assert guess.awaiting_deal and guess.to_move is None


def test_an_openspiel_layout_deals_the_engines_cards_at_every_player_count(laid_out: str) -> None:
    layout = manifest(laid_out).part("openspiel")
    assert len(set(layout.deck)) == len(layout.deck)
    for players in manifest(laid_out).players:
        game = cardtable.load(laid_out, **layout.options({**layout.parameters, "players": players}))
        deck = set(layout.deck)
        for seed in range(3):
            state: Any = game.new_game(random.Random(seed))  # the engine's own deals
            for seat in range(players):
                assert set(state.view(seat).hand) <= deck, (players, seat)
            cards = list(layout.deck)
            random.Random(seed).shuffle(cards)
            drawn = cards[: layout.deal_size(game)]
            dealt: Any = game.new_state()
            assert dealt.awaiting_deal
            dealt.deal(layout.deal(game, drawn))
            assert dealt.to_move is not None
            for seat in range(players):
                held = sorted(layout.dealt_to(game, drawn, seat))
                assert held == sorted(dealt.view(seat).hand), (players, seat)
