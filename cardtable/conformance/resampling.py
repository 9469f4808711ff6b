"""Promises of the optional parts that deal hidden cards: ``determinize`` and
the OpenSpiel layout."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from cardtable.conformance.probe import Probe
from cardtable.core.registry import load, manifest

#: Samples of ``determinize`` per player count for the uniformity check.
SAMPLES = 4000


# The largest chi-square statistic accepted: the mean plus seven standard
# deviations (a uniform sampler exceeds it with a chance far below one in a
# million; the statistic's variance is even smaller here, the cards of one
# hand being drawn without replacement). Over 4000 samples of a trick game
# at 3 players (48 unseen cards, limit 115), a simulated sampler that puts a
# quarter of the cards in a hand 13% more often than the rest scored 319 (a
# uniform one 50).
def chi_square_limit(categories: int) -> float:
    """
    >>> round(chi_square_limit(48))
    115
    """
    dof = categories - 1
    return float(dof + 7 * (2 * dof) ** 0.5)


def uniform(name: str, probe: Probe) -> None:
    determinize = manifest(name).part("determinize")
    sizes = manifest(name).players
    for players in sorted({min(sizes), max(sizes)}):
        probe.at(players=players, seed=probe.seed + players, decision=0)
        game = load(name, players=players)
        state = game.new_game(random.Random(probe.seed + players))
        seat = state.to_move
        if seat is None:
            probe.fail("nobody to move at the first decision")
        view = state.view(seat)
        own = set(view.to_json()["hand"])
        rng = random.Random(probe.seed + 100 + players)
        counts: list[Counter[Any]] = [Counter() for _ in range(players)]
        held = [0] * players
        for _ in range(SAMPLES):
            guess = determinize(game, view, rng)
            for other in range(players):
                if other != seat:
                    hand = guess.view(other).to_json()["hand"]
                    counts[other].update(hand)
                    held[other] += len(hand)
        unseen = set().union(*counts)
        probe.require(not unseen & own, f"seat {seat}'s own cards were given to another seat")
        for other in range(players):
            if other == seat:
                continue
            expected = held[other] / len(unseen)
            chi2 = sum((counts[other][card] - expected) ** 2 / expected for card in unseen)
            limit = chi_square_limit(len(unseen))
            probe.require(
                chi2 < limit, f"seat {other}'s cards: chi-square {chi2:.0f} ≥ {limit:.0f}"
            )


def detaches(name: str, probe: Probe) -> None:
    """The state ``determinize`` returns has ``detach_rng()``; after it, the
    state waits at the round's end for an explicit deal instead of dealing."""
    determinize = manifest(name).part("determinize")
    players = min(manifest(name).players)
    probe.at(players=players, seed=probe.seed + 4, decision=3)
    game = load(name, players=players)
    rng = random.Random(probe.seed + 3)
    state = game.new_game(random.Random(probe.seed + 4))
    for _ in range(3):
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    seat = state.to_move
    if seat is None:
        probe.fail("nobody to move at the fourth decision")
    guess = determinize(game, state.view(seat), rng)
    guess.detach_rng()
    probe.require(guess.view(seat) == state.view(seat), f"seat {seat} sees otherwise")
    for _ in range(100_000):  # far more decisions than one round has
        if guess.awaiting_deal or guess.finished:
            break
        legal = guess.legal_moves()
        guess.apply(legal[rng.randrange(len(legal))])
    if not guess.finished:  # with a generator, it would have dealt the next round itself
        waits = guess.awaiting_deal and guess.to_move is None
        probe.require(waits, "detached, the state did not wait for the next deal")


def openspiel_deck(name: str, probe: Probe) -> None:
    layout = manifest(name).part("openspiel")
    probe.require(len(set(layout.deck)) == len(layout.deck), "the deck holds a card twice")
    for players in manifest(name).players:
        game = load(name, **layout.options({**layout.parameters, "players": players}))
        deck = set(layout.deck)
        for seed in probe.seeds:
            probe.at(players=players, seed=seed)
            state: Any = game.new_game(random.Random(seed))  # the engine's own deals
            for seat in range(players):
                extra = set(state.view(seat).hand) - deck
                probe.require(not extra, f"seat {seat} is dealt {sorted(extra)}, not in the deck")
            cards = list(layout.deck)
            random.Random(seed).shuffle(cards)
            drawn = cards[: layout.deal_size(game)]
            dealt: Any = game.new_state()
            probe.require(dealt.awaiting_deal, "a new state does not wait for its deal")
            dealt.deal(layout.deal(game, drawn))
            probe.require(dealt.to_move is not None, "nobody to move after the layout's deal")
            for seat in range(players):
                held = sorted(layout.dealt_to(game, drawn, seat))
                has = sorted(dealt.view(seat).hand)
                probe.require(held == has, f"seat {seat} holds {has}, the layout says {held}")
    probe.at(players=None, seed=None)
