"""The OpenSpiel adapter: pyspiel's own checks, information states, resampling,
serialization and OpenSpiel's search bots playing our games."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import runpy
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import cardtable  # noqa: E402
from cardtable.adapters import observations  # noqa: E402
from cardtable.adapters import openspiel as adapter  # noqa: E402
from cardtable.adapters.openspiel_bot import OpenSpielISMCTSBot  # noqa: E402
from cardtable.adapters.openspiel_determinize import determinize  # noqa: E402
from cardtable.bots.base import Budget, RandomBot  # noqa: E402
from cardtable.core import registry  # noqa: E402
from cardtable.core.manifest import MissingPartError  # noqa: E402
from cardtable.games.myrummy_111 import Take  # noqa: E402
from tests.bot_games import play_checking_legal  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MT, MR = "python_cardtable_marshmallow_test", "python_cardtable_myrummy_111"


def mt_params(players: int, **extra: Any) -> dict[str, Any]:
    return {"players": players, "target": 3, **extra}


def mr_params(players: int, **extra: Any) -> dict[str, Any]:
    return {"players": players, "target": 12, "turn_limit": 30, **extra}


def sample_chance(state: Any, rng: random.Random) -> None:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(rng.choices(outcomes, probs)[0])


Policy = Callable[[Any, random.Random], int]


def uniform(state: Any, rng: random.Random) -> int:
    return int(rng.choice(state.legal_actions()))


def hoarder(state: Any, rng: random.Random) -> int:
    """MyRummy: refresh whenever allowed and never declare, so that the draw
    pile runs out and MR-4.6 (reshuffle) happens."""
    legal = state.legal_actions()
    refresh = [a for a in legal if a in (3, 4, 5)]
    if refresh:
        return int(rng.choice(refresh))
    up = state.engine.middle_face_up
    down = [a for a in legal if a < 3 and not up[a]]
    if down:  # turn the middle face up quickly, so that refreshes come often
        return int(rng.choice(down))
    quiet = [a for a in legal if a < 6 or (a - 6) % 2 == 0]
    return int(rng.choice(quiet))


def walk(game: Any, rng: random.Random, policy: Policy = uniform, limit: int = 10**6) -> list[Any]:
    """Play one game through pyspiel; the decision states (clones) on the way."""
    state = game.new_initial_state()
    seen: list[Any] = []
    while not state.is_terminal() and len(seen) < limit:
        if state.is_chance_node():
            sample_chance(state, rng)
        else:
            seen.append(state.clone())
            state.apply_action(policy(state, rng))
    return seen


# ---------------------------------------------------------------- OpenSpiel's checks
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_sim_marshmallow(players: int) -> None:
    game = pyspiel.load_game(MT, mt_params(players))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_sim_myrummy(players: int) -> None:
    game = pyspiel.load_game(MR, mr_params(players))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_variants() -> None:
    for name, params in [
        (MT, mt_params(3, trump_after_ruff="must", first_dealer=2)),
        (MR, mr_params(3, hand_sizes="12/13/14", rounds=2, first_player=1)),
        (MR, {"players": 2, "rounds": 1, "turn_limit": 200}),  # long round: refreshes
    ]:
        pyspiel.random_sim_test(pyspiel.load_game(name, params), 1, True, False)


# ---------------------------------------------------------------- parameters
def test_parameters_map_to_options() -> None:
    game = pyspiel.load_game(MR, {"players": 3, "hand_sizes": "12, 13, 14", "turn_limit": 9})
    ct = adapter.cardtable_game(game)
    assert ct.options_json["hand_sizes"] == [12, 13, 14]
    assert ct.options_json["turn_limit"] == 9 and ct.options_json["rounds"] is None
    # The game string uses separators that survive OpenSpiel's syntax.
    assert "hand_sizes=12/13/14" in str(game)
    again = pyspiel.load_game(str(game))
    assert adapter.cardtable_game(again).options_json == ct.options_json
    symbols = "".join(str(1 + i % 4) for i in range(110))
    custom = pyspiel.load_game(MR, {"players": 2, "symbols": ",".join(symbols)})
    assert adapter.cardtable_game(custom).options_json["symbols"] == [int(c) for c in symbols]
    assert f"symbols={symbols}" in str(custom)
    mt = pyspiel.load_game(MT, {"players": 4, "trump_after_ruff": "must", "target": 7})
    assert adapter.cardtable_game(mt).options_json == {
        "players": 4, "target": 7, "trump_after_ruff": "must", "first_dealer": 0
    }  # fmt: skip
    assert mt.num_distinct_actions() == 65 and mt.max_chance_outcomes() == 60
    assert game.num_distinct_actions() == 96 and game.max_chance_outcomes() == 110


def test_bad_parameters_raise() -> None:
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game(MT, {"players": 6})
    with pytest.raises(Exception, match="hand_sizes"):
        pyspiel.load_game(MR, {"players": 2, "hand_sizes": "12/15"})


def test_load_from_a_cardtable_game() -> None:
    ct = cardtable.load("myrummy-111", players=2, hand_sizes=[13, 12], rounds=3)
    game = adapter.load(ct)
    assert adapter.cardtable_game(game).options_json == ct.options_json
    ct_mt = cardtable.load("marshmallow-test", players=5, target=9, first_dealer=4)
    assert adapter.cardtable_game(adapter.load(ct_mt)).options_json == ct_mt.options_json


def test_every_layout_is_registered_and_a_game_without_one_is_told_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert {MT, MR} <= set(adapter.register_games())
    assert {MT, MR} <= set(pyspiel.registered_names())
    ct = cardtable.load("marshmallow-test", players=3)
    bare = dataclasses.replace(registry.manifest(ct.name), openspiel=None)
    monkeypatch.setattr(adapter, "manifest", lambda name: bare)
    with pytest.raises(MissingPartError, match="does not offer an OpenSpiel layout"):
        adapter.load(ct)


def test_lengths_and_utilities() -> None:
    mt = pyspiel.load_game(MT, {"players": 4, "target": 20})
    assert mt.max_game_length() == 49 * 210
    assert (mt.min_utility(), mt.max_utility()) == (0.0, 28.0)  # 19 + (12 - 3)
    mr = pyspiel.load_game(MR, {"players": 2, "turn_limit": 40})
    assert mr.max_game_length() == 60 * 2 * 40  # ceil(60·2 / 2) rounds
    capped = pyspiel.load_game(MT, {"players": 2, "max_moves": 30})
    state = walk(capped, random.Random(0))[-1]
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.truncated and len(state.history()) > 30


# ---------------------------------------------------------------- information
def deal_state(game: Any, order: list[int]) -> Any:
    state = game.new_initial_state()
    for card in order:
        state.apply_action(card)
    return state


def test_info_state_equal_when_indistinguishable() -> None:
    game = pyspiel.load_game(MT, {"players": 3})
    rng = random.Random(1)
    cards = list(range(60))
    rng.shuffle(cards)
    mine, rest = cards[:12], cards[12:]
    other = rest[:]
    rng.shuffle(other)
    a = deal_state(game, mine + rest[:24])
    b = deal_state(game, mine[::-1] + other[:24])  # seat 0 holds the same cards
    assert a.current_player() == 0
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    np.testing.assert_array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert a.information_state_string(1) != b.information_state_string(1)
    # A public change (a card played) changes everyone's information state.
    before = [a.information_state_string(p) for p in range(3)]
    a.apply_action(a.legal_actions()[0])
    assert all(a.information_state_string(p) != before[p] for p in range(3))
    # The string is the seat's view as canonical JSON, and the tensor its encoding.
    view = a.engine.view(1)
    assert json.loads(a.information_state_string(1)) == json.loads(json.dumps(view.to_json()))
    np.testing.assert_array_equal(
        a.information_state_tensor(1), observations.encode(adapter.cardtable_game(game), view)
    )


def test_deal_in_progress_is_private() -> None:
    game = pyspiel.load_game(MR, {"players": 2})
    a = deal_state(game, list(range(0, 20)))
    b = deal_state(game, list(range(0, 12)) + list(range(50, 58)))
    assert a.is_chance_node()
    assert a.information_state_string(0) == b.information_state_string(0)  # seat 0's 12 cards
    assert a.information_state_string(1) != b.information_state_string(1)


def test_public_observer() -> None:
    game = pyspiel.load_game(MT, {"players": 3})
    state = walk(game, random.Random(2), limit=5)[-1]
    from open_spiel.python.observation import make_observation

    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    public.set_from(state, 0)
    ct = adapter.cardtable_game(game)
    np.testing.assert_array_equal(public.tensor, observations.encode(ct, state.engine.view(None)))
    assert public.string_from(state, 0) == public.string_from(state, 2)


# ---------------------------------------------------------------- determinization
@pytest.mark.parametrize(
    ("name", "options", "policy"),
    [
        ("marshmallow-test", {"players": 2, "target": 8}, uniform),
        ("marshmallow-test", {"players": 5, "target": 8}, uniform),
        ("marshmallow-test", {"players": 4, "target": 8, "trump_after_ruff": "must"}, uniform),
        ("myrummy-111", {"players": 3, "target": 30}, uniform),
        ("myrummy-111", {"players": 2, "rounds": 1, "turn_limit": 160}, hoarder),
    ],
)
def test_determinize_matches_the_view(name: str, options: dict[str, Any], policy: Policy) -> None:
    ct = cardtable.load(name, **options)
    game = adapter.load(ct)
    rng = random.Random(3)
    states = walk(game, rng, policy)
    reshuffled = False
    for state in states[::3] + states[-2:]:
        seat = state.current_player()
        view = state.engine.view(seat)
        for _ in range(2):
            guess = determinize(ct, view, rng)
            assert guess.view(seat) == view
        reshuffled |= any(getattr(e, "reshuffled", False) for e in getattr(view, "history", ()))
    if policy is hoarder:
        assert reshuffled  # MR-4.6 was exercised


def mt_voids(view: Any) -> list[int]:
    """Per seat, a mask of the colours its plays this round show it lacks
    (MT-5.3, MT-5.4): an oracle written independently of the sampler."""
    voids = [0] * view.players
    must = view.trump_after_ruff == "must"
    for trick in (*view.tricks, view.current_trick):
        if not trick:
            continue
        lead = trick[0][1] // 12
        ruffed = False
        for seat, card in trick[1:]:
            colour = card // 12
            if not ruffed:
                if colour != lead:
                    voids[seat] |= 1 << lead
            elif must:
                if colour != view.trump:
                    voids[seat] |= 1 << view.trump
            elif colour not in (lead, view.trump):
                voids[seat] |= 1 << lead
            ruffed |= colour == view.trump and lead != view.trump
    return voids


def test_determinize_respects_voids() -> None:
    ct = cardtable.load("marshmallow-test", players=3, target=30)
    game = adapter.load(ct)
    rng = random.Random(4)
    checked = 0
    for state in walk(game, rng):
        seat = state.current_player()
        view = state.engine.view(seat)
        voids = mt_voids(view)
        if not any(voids):
            continue
        guess: Any = determinize(ct, view, rng)
        for other in range(3):
            for card in guess.hand(other):
                assert not voids[other] >> (card // 12) & 1
        checked += 1
    assert checked


def test_resampler_keeps_the_information_state() -> None:
    for name, params, policy in [
        (MT, mt_params(4, target=6), uniform),
        (MR, {"players": 2, "rounds": 1, "turn_limit": 120}, hoarder),
    ]:
        game = pyspiel.load_game(name, params)
        rng = random.Random(5)
        resample = adapter.make_resampler(rng)
        for state in walk(game, rng, policy)[::4]:
            player = state.current_player()
            other = resample(state, player)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.legal_actions() == state.legal_actions()
            # The resampled state plays on to the end.
            while not other.is_terminal():
                if other.is_chance_node():
                    sample_chance(other, rng)
                else:
                    other.apply_action(policy(other, rng))


def test_reshuffle_is_chance() -> None:
    game = pyspiel.load_game(MR, {"players": 2, "rounds": 1, "turn_limit": 200})
    rng = random.Random(6)
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            sample_chance(state, rng)
            continue
        action = hoarder(state, rng)
        pile = len(state.engine.discard_pile) + 3
        state.apply_action(action)
        if state.is_chance_node():  # a refresh that needs MR-4.6
            break
    assert isinstance(game_move := adapter.cardtable_game(game).move_from_index(action), Take)
    assert game_move.refresh
    assert len(state.chance_outcomes()) == pile
    assert '"reshuffle":0' in state.information_state_string(0)
    for _ in range(pile):
        sample_chance(state, rng)
    assert not state.is_chance_node()
    assert state.engine.view(None).history[-1].reshuffled


# ---------------------------------------------------------------- serialization
def test_serialize_round_trip() -> None:
    for name, params in [(MT, mt_params(3)), (MR, mr_params(2))]:
        game = pyspiel.load_game(name, params)
        rng = random.Random(7)
        states = walk(game, rng)
        for state in states[:: max(1, len(states) // 5)]:
            text = pyspiel.serialize_game_and_state(game, state)
            game2, state2 = pyspiel.deserialize_game_and_state(text)
            assert str(state2) == str(state) and str(game2) == str(game)
            again = game.deserialize_state(state.serialize())
            assert again.legal_actions() == state.legal_actions()
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
        # A determinized state (no action history behind it) serializes too.
        resampled = adapter.make_resampler(rng)(states[-1], states[-1].current_player())
        assert str(game.deserialize_state(resampled.serialize())) == str(resampled)


# ---------------------------------------------------------------- OpenSpiel's bots
def play_with_bots(game: Any, bots: list[Any], rng: random.Random) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            sample_chance(state, rng)
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    returns: list[float] = state.returns()
    return returns


def test_openspiel_ismcts_and_mcts_complete_games() -> None:
    for name, params in [(MT, mt_params(3, target=4)), (MR, mr_params(2, target=10))]:
        game = pyspiel.load_game(name, params)
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
        search = ismcts.ISMCTSBot(
            game, evaluator, 2.0, max_simulations=8, random_state=np.random.RandomState(1)
        )
        search.set_resampler(adapter.make_resampler(random.Random(2)))
        tree = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(3))
        uniform_bot = pyspiel.make_uniform_random_bot(2, 4)
        bots = [search, tree, uniform_bot][: game.num_players()]
        returns = play_with_bots(game, bots, random.Random(5))
        assert max(returns) > 0


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("marshmallow-test", {"players": 3, "target": 5}),
        ("myrummy-111", {"players": 2, "target": 15, "turn_limit": 20}),
    ],
)
def test_arena_bot_completes_games(name: str, options: dict[str, Any]) -> None:
    game = cardtable.load(name, **options)
    state = game.new_game(random.Random(8))
    bots: list[Any] = [
        OpenSpielISMCTSBot(0, game, random.Random(9), Budget(iterations=12)),
        OpenSpielISMCTSBot(1, game, random.Random(10), Budget(seconds=0.02)),
    ] + [RandomBot(s, game, random.Random(s)) for s in range(2, game.num_players)]
    play_checking_legal(state, bots)
    assert bots[1]._seconds_per_sim is not None


@pytest.mark.parametrize(
    "budget", [Budget(iterations=1), Budget(seconds=1e-9)], ids=["one-iteration", "no-time"]
)
def test_the_smallest_budget_still_searches(budget: Budget) -> None:
    # A loaded machine leaves a time budget room for one simulation or none;
    # OpenSpiel's ISMCTS asserts on a single one, so the bot must run at least two.
    game = cardtable.load("marshmallow-test", players=2, target=5)
    state = game.new_game(random.Random(3))
    bot = OpenSpielISMCTSBot(0, game, random.Random(4), budget)
    bot._seconds_per_sim = 1.0  # as if the last decision was slow: the time fits no simulation
    for _ in range(3):
        while state.to_move != 0:
            state.apply(state.legal_moves()[0])
        legal = state.legal_moves()
        move = bot.choose(state.view(0), legal)
        assert move in legal
        state.apply(move)


# ---------------------------------------------------------------- the example
def test_example_script_runs(capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    monkeypatch.setattr(sys, "argv", ["openspiel_random.py", "3"])
    runpy.run_path(str(ROOT / "docs/examples/openspiel_random.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert out.count("final scores") == 2
