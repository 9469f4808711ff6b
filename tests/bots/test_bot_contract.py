"""Every bot, by name, of every game: it plays only from its seat's view.

Checked two ways, as the bots issue asks: by construction (a view holds no
reference to the state) and by decoys (the same view over different hidden
cards gives the same decision, even though the real state sits in the
caller's frame where a peeking bot could find it). The games are the
built-in ones and the two plugin fixtures (:mod:`tests.bots.plugin`), so the
generic bots (``search``, ``openspiel-ismcts``) are checked wherever they play.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from typing import Any

import pytest

import cardtable
from cardtable.bots import Budget, make_bot
from cardtable.core.game import State
from cardtable.core.registry import game_names, manifest
from tests.bots.plugin import registered

OPTIONS: dict[str, dict[str, Any]] = {
    "marshmallow-test": {"target": 12},
    "myrummy-111": {"rounds": 1, "turn_limit": 40},
}
with registered():
    GAMES = game_names()
    RESAMPLED = [name for name in GAMES if manifest(name).has("determinize")]
    SIZES = [(name, players) for name in GAMES for players in manifest(name).players]
FAST_BUDGET = Budget(iterations=40)
# Whole games need legality only, not repeatable choices: a time cap as well
# stops the endgame bots at their fewest solved samples (iterations do not
# bound an exact endgame), a minute less at 2 players.
PLAY_BUDGET = Budget(iterations=40, seconds=0.01)
SLOW = {"openspiel-ismcts"}  # Python ISMCTS through pyspiel: a few games only


@pytest.fixture(autouse=True)
def plugin_games() -> Iterator[None]:
    with registered():
        yield


def ladder(name: str) -> list[str]:
    """The game's bots, without levels (they seat the same classes)."""
    return list(cardtable.bots.bot_entries(name))


def random_position(name: str, players: int, seed: int, moves: int) -> State:
    players = min(players, max(manifest(name).players))  # the fixtures seat 2 or 3
    game = cardtable.load(name, players=players, **OPTIONS.get(name, {}))
    state = game.new_game(random.Random(seed))
    rng = random.Random(seed + 1)
    for _ in range(moves):
        if state.finished:
            break
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def holds_a_state(obj: object) -> bool:
    """Whether any object reachable from ``obj`` is a game state."""
    seen: set[int] = set()
    todo = [obj]
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        if hasattr(item, "legal_moves") and hasattr(item, "apply"):
            return True
        todo.extend(gc.get_referents(item))
    return False


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_a_view_holds_no_reference_to_the_state(name: str, seed: int) -> None:
    state = random_position(name, 2 + seed % 4, seed, moves=seed * 7)
    for seat in (*range(state.game.num_players), None):
        assert not holds_a_state(state.view(seat))


def test_the_reference_check_can_fail() -> None:
    state = random_position("marshmallow-test", 3, 0, moves=3)
    assert holds_a_state({"oops": state})


def choose_with_state_in_frame(state: State, bot: Any) -> Any:
    # The real state is a local here: a bot that peeked at its caller's frame
    # would find it, and then decide differently on the decoy.
    seat = state.to_move
    real_state = state
    return bot.choose(real_state.view(seat), real_state.legal_moves())


def a_decoy(state: State, determinize: Any, view: Any, seed: int) -> State | None:
    """A state with the same view and other hidden cards: another seat sees
    something else in it. A small game's sampler may draw the real hands
    again: draw until it does not. (Told by the views, not the record: a
    resampled state's record need not hold its deal, docs/plugins.md.)"""
    seats = range(len(state.scores))
    for k in range(20):
        decoy: State = determinize(state.game, view, random.Random(99 + seed + 1000 * k))
        if any(decoy.view(s) != state.view(s) for s in seats if s != state.to_move):
            return decoy
    return None


@pytest.mark.parametrize("name", RESAMPLED)
def test_bots_decide_the_same_over_decoy_hidden_cards(name: str) -> None:
    determinize = manifest(name).part("determinize")
    checked = 0
    for seed in range(4):
        state = random_position(name, 3, seed, moves=5 + 3 * seed)
        if state.finished:
            continue
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        decoy = a_decoy(state, determinize, view, seed)
        if decoy is None:
            continue  # nothing of this round is hidden from the seat any more
        checked += 1
        assert decoy.view(seat) == view
        for bot_name in ladder(name):
            if bot_name in SLOW and seed:
                continue
            picks = [
                choose_with_state_in_frame(
                    s, make_bot(bot_name, s.game, seat, random.Random(seed), FAST_BUDGET)
                )
                for s in (state, decoy)
            ]
            assert picks[0] == picks[1], (bot_name, seed)
            assert picks[0] in state.legal_moves()
    assert checked  # at least one position had hidden cards to swap


@pytest.mark.parametrize(("name", "players"), SIZES)
def test_every_bot_finishes_games_with_only_legal_moves(name: str, players: int) -> None:
    """Hundreds of games for the cheap bots, a few for the search bots."""
    for bot_name in ladder(name):
        games = 100 if bot_name in ("random", "heuristic") else (1 if bot_name in SLOW else 3)
        for g in range(games):
            game = cardtable.load(name, players=players, **OPTIONS.get(name, {}))
            state = game.new_game(random.Random(g))
            bots = [
                make_bot(
                    bot_name if s == g % players else "random",
                    game,
                    s,
                    random.Random(g * 10 + s),
                    PLAY_BUDGET,
                )
                for s in range(players)
            ]
            while not state.finished:
                seat = state.to_move
                assert seat is not None
                legal = state.legal_moves()
                move = bots[seat].choose(state.view(seat), legal)
                assert move in legal, (bot_name, move)
                state.apply(move)


def test_unknown_bot_names_say_what_exists() -> None:
    game = cardtable.load("marshmallow-test", players=2)
    with pytest.raises(ValueError, match="choose from random, heuristic"):
        make_bot("grandmaster", game, 0, random.Random(0))
