"""What every registered game promises, checked over random games of each.

Parametrized over ``cardtable.core.registry.game_names()`` (the fixture
plugin game included), so a new game inherits these tests by registering.
Only the public surface is used: ``cardtable.load``, ``new_game(rng)``,
``legal_moves``, ``apply``, ``view``, ``clone``, ``record``, ``replay``,
``parse_move`` and the manifest's ``determinize``.

- legal moves are never empty before the end, and each reads back from its
  index and its notation;
- a view round-trips through JSON text;
- a clone equals its original in every view and in its legal moves, and the
  two stay independent;
- a record round-trips through its text and replays to the same views;
- where the game can resample hidden cards (``determinize``), two different
  resamplings consistent with a seat's view show that seat the same view.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import cardtable
from cardtable.bots import Bot, make_bot
from cardtable.core import records
from cardtable.core.game import Game, Move, State
from cardtable.core.registry import manifest

MAX_DECISIONS = 100_000  # far above any game's length: a game that long is a bug


Chooser = Callable[[State], Move]


def each_game(name: str, seeds: int = 1) -> Iterator[tuple[Chooser, State]]:
    """A new game for every allowed player count (``seeds`` each) and a chooser
    of moves: mostly the game's first cheap bot (so games run long, as people
    play them), now and then a uniformly random legal move."""
    cheap = [b for b, entry in manifest(name).bots.items() if not entry.search and not entry.extra]
    for players in manifest(name).players:
        for seed in range(seeds):
            game = cardtable.load(name, players=players)
            rng = random.Random(seed * 7 + players)
            bots = [make_bot(cheap[0], game, s, random.Random(seed + s)) for s in range(players)]

            def choose(state: State, rng: random.Random = rng, bots: list[Bot] = bots) -> Move:
                legal = state.legal_moves()
                seat = state.to_move
                if seat is None or rng.random() < 0.2:
                    return legal[rng.randrange(len(legal))]
                return bots[seat].choose(state.view(seat), legal)

            yield choose, game.new_game(random.Random(seed + players))


def decisions(state: State, choose: Chooser) -> Iterator[State]:
    """``state`` before each of its decisions, moved on by ``choose``."""
    for _ in range(MAX_DECISIONS):
        if state.finished:
            return
        yield state
        state.apply(choose(state))
    raise AssertionError(f"{state.game.name}: no end after {MAX_DECISIONS} decisions")


def seats(state: State) -> list[int | None]:
    return [None, *range(state.game.num_players)]


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything the public surface shows of a state."""
    return (
        [state.view(seat) for seat in seats(state)],
        list(state.legal_moves()),
        state.to_move,
        state.finished,
        state.scores,
        state.round_scores,
        state.winners,
        state.record(),
    )


def test_legal_moves_never_empty_before_the_end(name: str) -> None:
    for choose, state in each_game(name, seeds=3):
        game: Game = state.game
        for now in decisions(state, choose):
            legal = now.legal_moves()
            assert legal and now.to_move in range(game.num_players), now
            for move in legal:
                assert game.move_from_index(move.index) == move
                assert game.parse_move(str(move)) == move  # the terminal's notation
        assert state.legal_moves() == () and state.to_move is None
        assert state.winners and set(state.winners) <= set(range(game.num_players))


def test_views_round_trip_through_json_text(name: str) -> None:
    for choose, state in each_game(name):
        for now in decisions(state, choose):
            for seat in seats(now):
                view = now.view(seat)
                text = json.dumps(view.to_json())
                assert now.game.view_from_json(json.loads(text)) == view


def test_a_clone_equals_its_original_and_stays_independent(name: str) -> None:
    for choose, state in each_game(name, seeds=2):
        for step, now in enumerate(decisions(state, choose)):
            if step % 17:
                continue
            before = snapshot(now)
            twin = now.clone(random.Random(step))
            assert snapshot(twin) == before
            moves = random.Random(step + 1)
            trace: list[tuple[Any, tuple[Any, ...]]] = []
            while len(trace) < 40 and not twin.finished:
                legal = twin.legal_moves()
                move = legal[moves.randrange(len(legal))]
                twin.apply(move)
                trace.append((move, snapshot(twin)))
            assert snapshot(now) == before  # the clone's moves left the original alone
            again = now.clone(random.Random(step))  # ... and a new clone replays them
            for move, seen in trace:
                again.apply(move)
                assert snapshot(again) == seen


def test_a_record_replays_to_the_same_views(name: str) -> None:
    for choose, state in each_game(name, seeds=2):
        stops = {17, 71, 173}
        for step, now in enumerate(decisions(state, choose)):
            if step in stops:
                check_record(now)
        check_record(state)


def check_record(state: State) -> None:
    record = state.record(players=[f"p{s}" for s in range(state.game.num_players)])
    text = records.dumps(record)
    assert records.loads(text) == record
    outcome = cardtable.replay(text)
    assert outcome.error is None and outcome.state is not None, outcome.error
    again = outcome.state
    assert again.record(players=record["players"]) == record
    assert again.finished == state.finished and again.scores == state.scores
    if not state.awaiting_deal:
        assert [again.view(s) for s in seats(state)] == [state.view(s) for s in seats(state)]
        assert again.legal_moves() == state.legal_moves()


def test_views_unchanged_by_swapping_unseen_cards(resampled: str) -> None:
    determinize = manifest(resampled).part("determinize")
    differ = 0
    for choose, state in each_game(resampled):
        for step, now in enumerate(decisions(state, choose)):
            if step % 5:
                continue
            seat = now.to_move
            assert seat is not None
            view = now.view(seat)
            one = determinize(now.game, view, random.Random(step))
            two = determinize(now.game, view, random.Random(step + 1))
            assert one.view(seat) == view == two.view(seat)
            assert one.legal_moves() == now.legal_moves() == two.legal_moves()
            differ += any(one.view(s) != two.view(s) for s in range(now.game.num_players))
    assert differ > 0  # the resamplings did swap hidden cards
