"""The game package's public doors: the game object, clones, views from JSON,
detaching the generator, the trick rules defined once, and the manifest.

Rule numbers cite shared/spec/marshmallow-test.md.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest

from cardtable.bots import UnknownBotError, bot_entries, make_bot
from cardtable.core.errors import RecordError
from cardtable.core.manifest import resolve
from cardtable.core.registry import manifest
from cardtable.games.marshmallow_test import MarshmallowState, MarshmallowTest
from cardtable.games.marshmallow_test.bots.pimc import PIMCBot
from cardtable.games.marshmallow_test.cards import COLOUR_OF, GREEN, RED, parse_card
from cardtable.games.marshmallow_test.moves import Play
from cardtable.games.marshmallow_test.tricks import (
    STRENGTH,
    TRUMP_BONUS,
    card_strength,
    has_ruff,
    shown_voids,
    trick_winner,
)

ROOT = Path(__file__).resolve().parents[2]


def random_position(
    players: int, seed: int, moves: int, rng: random.Random | None = None, **options: Any
) -> MarshmallowState:
    game = MarshmallowTest(players=players, **options)
    state = game.new_game(rng or random.Random(seed))
    rng = random.Random(seed + 1)
    for _ in range(moves):
        if state.finished:
            break
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    return state


# ---------------------------------------------------------------- the game object
def test_games_are_equal_and_hash_alike_by_their_options() -> None:
    a = MarshmallowTest(players=4)
    assert a == MarshmallowTest(players=4, target=20, trump_after_ruff="may")
    assert hash(a) == hash(MarshmallowTest(players=4))
    assert a != MarshmallowTest(players=4, trump_after_ruff="must")
    assert a != MarshmallowTest(players=3)
    assert len({a, MarshmallowTest(players=4), MarshmallowTest(players=5)}) == 2


@pytest.mark.parametrize("rng", [7, None, "seed", random])
def test_new_game_refuses_anything_but_a_generator(rng: object) -> None:
    with pytest.raises(TypeError, match=r"random\.Random"):
        MarshmallowTest(players=3).new_game(rng)  # type: ignore[arg-type]


def test_new_state_takes_a_generator_or_none() -> None:
    game = MarshmallowTest(players=3)
    assert game.new_state().awaiting_deal
    with pytest.raises(TypeError, match=r"random\.Random or None"):
        game.new_state(3)  # type: ignore[arg-type]


# ---------------------------------------------------------------- clones
@pytest.mark.parametrize("variant", ["may", "must"])
def test_a_clone_equals_its_original_everywhere_and_lives_apart(variant: str) -> None:
    ruffs = 0
    for seed in range(30):
        players = 2 + seed % 4
        deals = random.Random(seed)
        state = random_position(
            players, seed, seed * 7 % 150, deals, trump_after_ruff=variant, target=40
        )
        assert state.clone().view(None) == state.view(None)
        # A clone shares its original's generator unless given one: give it a
        # copy, so both deal the same rounds as they play on.
        twin = random.Random()
        twin.setstate(deals.getstate())
        clone = state.clone(twin)
        rng = random.Random(seed)
        for _ in range(40):
            for seat in (None, *range(players)):
                assert clone.view(seat) == state.view(seat)  # the ruff (MT-5.4) included
            legal = state.legal_moves()
            assert clone.legal_moves() == legal
            assert clone.record() == state.record()
            ruffs += state.view(None).ruffed
            if state.finished:
                break
            move = legal[rng.randrange(len(legal))]
            state.apply(move)
            clone.apply(move)
        # Independent: a move on the clone leaves the original as it was.
        if not clone.finished:
            before = state.view(None)
            clone.apply(clone.legal_moves()[0])
            assert state.view(None) == before
    assert ruffs  # some positions were inside a ruffed trick


# ---------------------------------------------------------------- detaching the generator
def test_detach_rng_makes_the_state_await_explicit_deals() -> None:
    state = MarshmallowTest(players=3, target=30).new_game(random.Random(5))
    state.detach_rng()
    rng = random.Random(6)
    while not state.awaiting_deal:
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    assert state.to_move is None and state.round_number == 1  # MT-7: round 1 is over
    with pytest.raises(ValueError, match="no generator"):
        state.deal()
    deck = list(range(60))
    state.deal([deck[12 * s : 12 * s + 12] for s in range(3)])
    assert state.round_number == 2 and state.trump_due  # MT-4.2


# ---------------------------------------------------------------- views from JSON
def test_views_from_json_round_trip_and_malformed_ones_say_where() -> None:
    state = random_position(3, 4, 20)
    game = state.game
    good = state.view(1).to_json()
    assert game.view_from_json(good) == state.view(1)
    cases: list[tuple[dict[str, Any] | list[int], str, str]] = [
        ([1, 2], "view", "JSON object"),
        ({**good, "extra": 1}, "view", "unknown keys ['extra']"),
        ({**good, "players": 7}, "view.players", "expected 2 to 5"),
        ({**good, "seat": 3}, "view.seat", "expected 0 to 2"),
        ({**good, "hand": ["R1", "X9"]}, "view.hand[1]", "'X9'"),
        ({**good, "hand_sizes": [1, 2]}, "view.hand_sizes", "expected 3 entries"),
        ({**good, "trump": "orange"}, "view.trump", "one of red"),
        ({**good, "trump_after_ruff": "sometimes"}, "view.trump_after_ruff", "may, must"),
        ({**good, "out": [False, 0, False]}, "view.out[1]", "true or false"),
        ({**good, "current_trick": [{"seat": 0}]}, "view.current_trick[0]", "a played card"),
        ({**good, "scores": [0, -1, 0]}, "view.scores[1]", "0 or more"),
        ({**good, "target": 99}, "view.target", "other options"),
    ]
    for obj, where, reason in cases:
        with pytest.raises(RecordError) as info:
            game.view_from_json(obj)
        assert info.value.where == where and reason in info.value.reason, (obj, info.value)


# ---------------------------------------------------------------- each trick rule once
def test_mt_5_6_card_strength_and_its_table_agree() -> None:
    r12, g1, b12 = parse_card("R12"), parse_card("G1"), parse_card("B12")
    assert card_strength(g1, RED, GREEN) == 1 + TRUMP_BONUS > card_strength(r12, RED, GREEN)
    assert card_strength(b12, RED, GREEN) == -1  # off colour, not trump: never wins
    assert card_strength(g1, RED, None) == -1  # MT-4.1: round 1 has no trump
    for trump in (None, *range(5)):
        for lead in range(5):
            row = STRENGTH[-1 if trump is None else trump][lead]
            assert row == tuple(card_strength(c, lead, trump) for c in range(60))


def test_mt_5_6_trick_winner_is_the_engines_over_random_games() -> None:
    checked = 0
    for seed in range(12):
        state = MarshmallowTest(players=2 + seed % 4, target=40).new_game(random.Random(seed))
        rng = random.Random(seed)
        while not state.finished and state.round_number < 3:
            view = state.view(None)
            for trick, winner in zip(view.tricks, view.trick_winners, strict=True):
                assert trick_winner(trick, view.trump)[0] == winner  # MT-5.7
                checked += 1
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000


def test_mt_5_4_a_ruff_is_a_trump_in_a_trick_led_in_another_colour() -> None:
    r5, g3, g9 = parse_card("R5"), parse_card("G3"), parse_card("G9")
    assert has_ruff(((0, r5), (1, g3)), GREEN)
    assert not has_ruff(((0, g9), (1, g3)), GREEN)  # trump led: no ruff (MT-5.5)
    assert not has_ruff(((0, r5), (1, g3)), None)


@pytest.mark.parametrize("variant", ["may", "must"])
def test_mt_5_3_shown_voids_are_true_of_the_hands_then_held(variant: str) -> None:
    """Every (seat, colour) a trick shows: that seat held none of the colour
    when it played (its hand then: its cards now plus those played since)."""
    shown = 0
    for seed in range(30):
        players = 2 + seed % 4
        state = random_position(players, seed, 0, trump_after_ruff=variant, target=40)
        rng = random.Random(seed)
        while not state.finished and state.round_number < 3:
            seat = state.to_move
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal))]
            if isinstance(move, Play) and seat is not None:
                trick = (*state.current_trick, (seat, move.card))
                held = {COLOUR_OF[c] for c in state.hand(seat)}
                for who, colour in shown_voids(trick, state.trump, variant == "must"):
                    if who == seat:  # the newest play: checked against its hand now
                        assert colour not in held, (trick, colour)
                        shown += 1
            state.apply(move)
    assert shown > 100


# ---------------------------------------------------------------- manifest and layout
def test_every_manifest_target_resolves() -> None:
    m = manifest("marshmallow-test")
    for part in ("game", "terminal_ui", "determinize"):
        assert callable(resolve(getattr(m, part))), part
    for name, entry in m.bots.items():
        if entry.extra is None:
            assert callable(resolve(entry.target)), name


def test_pimc_is_the_search_bot_and_the_old_alias_is_gone() -> None:
    m = manifest("marshmallow-test")
    assert m.search_bot == "pimc" and "ismcts" not in bot_entries("marshmallow-test")
    game = MarshmallowTest(players=3)
    for name in ("pimc", "medium"):
        assert isinstance(make_bot(name, game, 0, random.Random(0)), PIMCBot)
    with pytest.raises(UnknownBotError, match="unknown bot 'ismcts'"):
        make_bot("ismcts", game, 0, random.Random(0))  # removed after its one release


@pytest.mark.parametrize(
    "module",
    ["cardtable.bots.marshmallow_test", "cardtable.cli.ui_marshmallow_test"],
)
def test_the_old_homes_are_gone(module: str) -> None:
    assert importlib.util.find_spec(module) is None


def test_no_module_outside_tests_looks_like_a_test_file() -> None:
    """pytest collects ``*_test.py`` too, and ``cardtable/`` is on its testpaths."""
    found = [
        str(p.relative_to(ROOT))
        for folder in ("cardtable", "benchmarks")
        for p in (ROOT / folder).rglob("*_test.py")
    ]
    assert found == []
