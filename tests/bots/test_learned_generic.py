"""A learned policy for any game (issue 26, item 4): the fixtures' shipped
weights load for every player count they play, decide from the view alone,
drive the generic search's playouts, and a wrong file is refused in words.

Legal play and the decoy checks of the ``learned`` bot (and of ``search``
over its playouts) are in :mod:`tests.bots.test_bot_contract`, with every
other bot.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import cardtable
from cardtable.bots import Bot, Budget, bot_entries, make_bot
from cardtable.bots import learned as learned_module
from cardtable.bots.learned import LearnedBot, NetPlayouts, policy_for, self_play
from cardtable.bots.playout import playouts_for
from cardtable.bots.policy_net import PolicyFileError, PolicyNet, fit
from cardtable.bots.search import SearchBot
from cardtable.conformance import check, promise
from cardtable.conformance import options as options_module
from cardtable.core.game import Game, State
from cardtable.core.manifest import ManifestError
from cardtable.core.registry import manifest
from tests.bots.plugin import NAME as TRICK
from tests.bots.plugin import all_registered
from tests.fixtures.plugin import SHED_NAME

SHIPPED = [(TRICK, 2), (TRICK, 3), (SHED_NAME, 2), (SHED_NAME, 3), (SHED_NAME, 4)]


@pytest.fixture(autouse=True)
def plugin_games() -> Iterator[None]:
    with all_registered():
        yield


def positions(name: str, players: int, count: int) -> Iterator[State]:
    """States of random play with a choice to make, a few moves apart."""
    rng = random.Random(7)
    game = cardtable.load(name, players=players)
    state = game.new_game(random.Random(3))
    while count:
        if state.finished:
            state = game.new_game(random.Random(rng.getrandbits(32)))
        legal = state.legal_moves()
        if len(legal) > 1 and rng.random() < 0.3:
            count -= 1
            yield state.clone(random.Random(1))
        state.apply(rng.choice(legal))


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_the_shipped_policy_fits_the_game_and_loads_alike_twice(name: str, players: int) -> None:
    game = cardtable.load(name, players=players)
    net = policy_for(game)
    assert net is not None
    encoder = manifest(name).part("observation_encoder")(game)
    assert (net.game, net.players) == (name, players)
    assert (net.inputs, net.actions) == (encoder.size, game.num_actions)
    # Read again from the package, past the cache: the same numbers.
    found = manifest(name)
    assert found.package is not None and found.playout_policy is not None
    file = resources.files(found.package) / found.playout_policy.format(players=players)
    with file.open("rb") as source:
        again = PolicyNet.load(source, name, players, net.inputs, net.actions)
    for mine, theirs in zip(
        (net.w1, net.b1, net.w2, net.b2), (again.w1, again.b1, again.w2, again.b2), strict=True
    ):
        assert np.array_equal(mine, theirs)
    assert "learned" in bot_entries(name)


@pytest.mark.parametrize(("name", "players"), [(TRICK, 2), (SHED_NAME, 3)])
def test_the_policy_decides_from_the_view_alone_and_ignores_its_generator(
    name: str, players: int
) -> None:
    game = cardtable.load(name, players=players)
    net = policy_for(game)
    assert net is not None
    playouts = NetPlayouts(game, net)
    one, other = LearnedBot(0, game, random.Random(1)), LearnedBot(0, game, random.Random(2))
    for state in positions(name, players, 25):
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_moves()
        chosen = one.choose(view, legal)
        assert chosen in legal
        assert other.choose(view, legal) == chosen
        # The playouts' policy, handed the whole state, plays what the view says.
        assert playouts.policy(random.Random(5))(state) == chosen


@pytest.mark.parametrize("name", [TRICK, SHED_NAME])
def test_search_plays_out_by_the_policy_and_starts_from_its_move(name: str) -> None:
    game = cardtable.load(name, players=2)
    assert isinstance(playouts_for(game), NetPlayouts)
    search = SearchBot(0, game, random.Random(4), Budget(iterations=8))
    policy = LearnedBot(0, game, random.Random(4))
    for state in positions(name, 2, 10):
        seat = state.to_move
        assert seat is not None
        search.seat = seat
        view, legal = state.view(seat), state.legal_moves()
        groups = search.playouts.groups(view, legal)
        _, default = search.search(view, legal, groups)
        assert default is not None
        assert legal[groups[default][0]] == policy.choose(view, legal)


def test_a_fitted_network_learns_its_teachers_rule() -> None:
    # The teacher plays the legal action whose feature is highest: a rule a
    # policy of these inputs can learn, and chance agrees a third of the time.
    rng = np.random.default_rng(0)
    x = rng.random((3000, 6), dtype=np.float32)
    legal = rng.random((3000, 6)) < 0.5
    legal[np.arange(3000), rng.integers(0, 6, 3000)] = True
    legal[np.arange(3000), rng.integers(0, 6, 3000)] = True
    chosen = np.where(legal, x, -1.0).argmax(axis=1)
    net = fit(x[:2500], legal[:2500], chosen[:2500], game="g", players=2, epochs=60)
    guess = np.where(legal[2500:], net.logits(x[2500:]), -np.inf).argmax(axis=1)
    assert float(np.mean(guess == chosen[2500:])) > 0.85


def test_self_play_rows_repeat_for_a_seed_and_record_legal_choices() -> None:
    game = cardtable.load(TRICK, players=2)

    def lowest(seat: int, g: Game, rng: random.Random) -> Bot:
        return make_bot("lowest", g, seat, rng)

    rows = self_play(game, lowest, 12, seed=3)
    again = self_play(game, lowest, 12, seed=3)
    assert np.array_equal(rows.x, again.x) and np.array_equal(rows.chosen, again.chosen)
    assert len(rows.chosen) > 12
    assert (rows.legal.sum(axis=1) >= 2).all()  # only decisions with a choice
    assert rows.legal[np.arange(len(rows.chosen)), rows.chosen].all()
    other = self_play(game, lowest, 12, seed=4)
    assert not np.array_equal(rows.x[: len(other.x)], other.x[: len(rows.x)])


def saved(tmp_path: Path, net: PolicyNet, name: str = "p.npz") -> Path:
    path = tmp_path / name
    net.save(path)
    return path


def test_a_policy_file_for_another_game_or_shape_is_refused_in_one_sentence(
    tmp_path: Path,
) -> None:
    game = cardtable.load(TRICK, players=2)
    net = policy_for(game)
    assert net is not None
    path = saved(tmp_path, net)
    assert PolicyNet.load(path, TRICK, 2, net.inputs, net.actions).game == TRICK
    with pytest.raises(PolicyFileError, match=r"p\.npz: fitted for .* at 2 players, not .* at 3"):
        PolicyNet.load(path, TRICK, 3, net.inputs, net.actions)
    with pytest.raises(PolicyFileError, match="fitted for fixture-trick-resampled at 2 players"):
        PolicyNet.load(path, SHED_NAME, 2, net.inputs, net.actions)
    with pytest.raises(PolicyFileError, match="do not fit 7 inputs"):
        PolicyNet.load(path, TRICK, 2, 7, net.actions)
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not numpy at all")
    with pytest.raises(PolicyFileError, match=r"junk\.npz: not a readable cardtable-policy/1"):
        PolicyNet.load(junk, TRICK, 2, net.inputs, net.actions)
    other = tmp_path / "other.npz"
    np.savez(other, format=np.array("something-else/1"))
    with pytest.raises(PolicyFileError, match=r"other\.npz: not a cardtable-policy/1 file"):
        PolicyNet.load(other, TRICK, 2, net.inputs, net.actions)


def test_a_player_count_without_a_file_plays_by_the_fallback_and_learned_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shed = manifest(SHED_NAME)
    missing = replace(shed, playout_policy="none_{players}p.npz")
    monkeypatch.setattr(learned_module, "manifest", lambda name: missing)
    game = cardtable.load(SHED_NAME, players=2)
    assert policy_for(game) is None
    with pytest.raises(PolicyFileError, match="Fixture Shed ships no learned policy for 2 players"):
        LearnedBot(0, game, random.Random(0))


def test_a_manifest_naming_a_policy_needs_an_encoder_a_package_and_a_plain_name() -> None:
    shed = manifest(SHED_NAME)
    with pytest.raises(ManifestError, match="playout_policy"):
        replace(shed, observation_encoder=None)
    with pytest.raises(ManifestError, match="playout_policy"):
        replace(shed, package=None, rules=None)
    with pytest.raises(ManifestError, match=r"only \{players\} may stand in braces"):
        replace(shed, playout_policy="policy_{count}.npz")


def test_conformance_finds_the_fixtures_policies_and_a_wrong_or_missing_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = promise("package-files")
    for name in (TRICK, SHED_NAME):
        assert check(name, files).held, check(name, files)
    shed = manifest(SHED_NAME)

    def shipping(pattern: str) -> None:
        changed = replace(shed, playout_policy=pattern)
        monkeypatch.setattr(options_module, "manifest", lambda name: changed)
        monkeypatch.setattr(learned_module, "manifest", lambda name: changed)

    shipping("policy_3p.npz")  # the 3-player file named for every player count
    outcome = check(SHED_NAME, files)
    assert not outcome.held and outcome.where == "2 players"
    assert "fitted for fixture-shed at 3 players, not fixture-shed at 2" in outcome.why
    shipping("none_{players}p.npz")
    outcome = check(SHED_NAME, files)
    assert not outcome.held and outcome.where == ""
    assert "no file named by playout_policy 'none_{players}p.npz'" in outcome.why
