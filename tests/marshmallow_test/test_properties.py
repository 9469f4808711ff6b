"""Invariants over random games (hypothesis), records, codec and the bot."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.base import RandomBot
from cardtable.core.errors import RecordError
from cardtable.games.marshmallow_test import MarshmallowTest
from cardtable.games.marshmallow_test.bots import HeuristicBot
from cardtable.games.marshmallow_test.cards import format_card
from cardtable.games.marshmallow_test.moves import PLAYS, TRUMPS

games = st.tuples(st.integers(2, 5), st.integers(0, 2**32), st.sampled_from(["may", "must"]))


@settings(max_examples=40, deadline=None)
@given(games)
def test_mt_invariants_over_random_games(args: tuple[int, int, str]) -> None:
    players, seed, variant = args
    game = MarshmallowTest(players=players, trump_after_ruff=variant)
    state = game.new_game(random.Random(seed))
    rng = random.Random(seed ^ 0xABC)
    need = {2: 6, 3: 4, 4: 3, 5: 3}[players]
    while not state.finished:
        legal = state.legal_moves()
        assert legal  # never empty before the end
        seat = state.to_move
        assert seat is not None
        before = state.scores
        counts, out = state.trick_counts, state.out
        in_trick = len(state.current_trick)
        # MT-3.1/MT-9: cards are conserved; a view holds only its own hand
        held = [set(state.hand(s)) for s in range(players)]
        played = {c for t in state.view(None).tricks for _, c in t} | {
            c for _, c in state.current_trick
        }
        assert sum(map(len, held)) + len(played) <= 60
        assert not set().union(*held) & played
        for s in range(players):
            v = state.view(s)
            assert set(v.hand) == held[s]
        state.apply(legal[rng.randrange(len(legal))])
        gained = [a - b for a, b in zip(state.scores, before, strict=True)]
        if any(gained):
            scorer = max(range(players), key=lambda s: gained[s])
            if gained[scorer]:
                # MT-6.2: exactly the others' tricks, once the scorer reached `need`
                assert counts[scorer] == need - 1
                assert gained[scorer] == sum(counts) - counts[scorer]
                assert sum(1 for g in gained if g) == 1
        if not state.finished and not state.trump_due and state.round_number and in_trick:
            # a trick has one card per player still in
            assert len(state.current_trick) in (0, in_trick + 1) or out != state.out
    assert state.scores[state.winners[0]] >= game.options.target
    assert sorted(state.scores)[-2] < game.options.target  # MT-8.1: ends exactly then


@settings(max_examples=25, deadline=None)
@given(games)
def test_mt_5_1_each_seat_plays_once_to_a_trick(args: tuple[int, int, str]) -> None:
    """(Clone, record and view round trips: tests/conformance, for every game.)"""
    players, seed, variant = args
    game = MarshmallowTest(players=players, trump_after_ruff=variant)
    state = game.new_game(random.Random(seed))
    rng = random.Random(seed)
    while not state.finished:
        view = state.view(None)
        for trick in view.tricks:
            assert len({s for s, _ in trick}) == len(trick) >= 2
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])


def test_mt_codec_rejects_malformed_deals_and_moves() -> None:
    game = MarshmallowTest(players=3)
    deal = game.new_game(random.Random(0)).record()["rounds"][0]["deal"]

    def bad_deal(obj: object, where: str, reason: str) -> None:
        with pytest.raises(RecordError) as info:
            game.deal_from_json(obj, "d")
        assert info.value.where == where and reason in info.value.reason

    hands = deal["hands"]
    bad_deal(
        {"hands": [*hands[:2], [*hands[2][:5], "R13", *hands[2][6:]]]},
        "d.hands[2][5]",
        "unknown card 'R13'",
    )
    bad_deal({"hands": hands[:2]}, "d.hands", "expected 3 hands")
    bad_deal({"hands": [hands[0], hands[1], hands[2][:11]]}, "d.hands[2]", "expected 12 cards")
    bad_deal(
        {"hands": [hands[0], hands[1], [hands[0][0], *hands[2][1:]]]}, "d.hands[2][0]", "twice"
    )
    bad_deal({"hands": hands, "x": 1}, "d.x", "unknown key")
    bad_deal({"hands": [hands[0], hands[1], [5, *hands[2][1:]]]}, "d.hands[2][0]", "string")
    bad_deal([], "d", "JSON object")

    def bad_move(obj: object, where: str) -> None:
        with pytest.raises(RecordError) as info:
            game.move_from_json(obj, "m")
        assert info.value.where == where

    bad_move({"seat": 0}, "m")
    bad_move({"play": "R1"}, "m")
    bad_move({"seat": 0, "play": "R1", "trump": "red"}, "m")
    bad_move({"seat": 3, "play": "R1"}, "m.seat")
    bad_move({"seat": True, "play": "R1"}, "m.seat")
    bad_move({"seat": 0, "play": "R0"}, "m.play")
    bad_move({"seat": 0, "trump": "pink"}, "m.trump")
    bad_move({"seat": 0, "play": "R1", "why": 1}, "m.why")
    assert game.move_from_json({"seat": 1, "trump": "GREEN"}, "m") == (1, TRUMPS[2], {})
    assert game.move_from_json({"seat": 2, "play": "g7"}, "m") == (2, PLAYS[30], {})


def test_mt_moves_notation_and_indices() -> None:
    game = MarshmallowTest(players=4)
    assert [game.parse_move(t) for t in ("g7", "G7", "green", "trump green", "Trump G")] == [
        PLAYS[30],
        PLAYS[30],
        TRUMPS[2],
        TRUMPS[2],
        TRUMPS[2],
    ]
    for bad in ("g13", "trump pink", "", "play g7"):
        with pytest.raises(ValueError):
            game.parse_move(bad)
    for i in range(65):
        move = game.move_from_index(i)
        assert move.index == i and game.parse_move(str(move)) is move
        assert eval(repr(move), {"Play": type(PLAYS[0]), "NameTrump": type(TRUMPS[0])}) is move
    assert PLAYS[30].to_json() == {"play": "G7"} and TRUMPS[2].to_json() == {"trump": "green"}
    assert format_card(PLAYS[30].card) == "G7"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mt_heuristic_bot_plays_only_legal_moves(players: int) -> None:
    game = MarshmallowTest(players=players)
    for seed in range(6):
        rng = random.Random(seed)
        bots = [
            HeuristicBot(s, game, random.Random(seed + s))
            if s % 2 == 0
            else RandomBot(s, game, random.Random(seed + s))
            for s in range(players)
        ]
        state = game.new_game(rng)
        while not state.finished:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_moves()
            move = bots[seat].choose(state.view(seat), legal)
            assert move in legal
            state.apply_as(seat, move)
