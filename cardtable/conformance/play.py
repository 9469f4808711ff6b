"""Promises about playing: legal moves, views, clones, records, resampling.

Each check plays random games of every allowed player count (``probe.games``
seeds each), moved mostly by the game's first cheap bot (so games run as long
as people play them) and now and then by a uniformly random legal move. Only
the public surface is used: ``cardtable.load``, ``new_game(rng)``,
``legal_moves``, ``apply``, ``view``, ``clone``, ``record``,
``cardtable.replay``, ``parse_move`` and the manifest's ``determinize``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from cardtable.bots import Bot, make_bot
from cardtable.conformance.probe import Probe
from cardtable.core import records
from cardtable.core.game import Move, State
from cardtable.core.registry import load, manifest
from cardtable.core.replay import replay

MAX_DECISIONS = 100_000  # far above any game's length: a game that long is a bug

Chooser = Callable[[State], Move]


def each_game(name: str, probe: Probe) -> Iterator[tuple[Chooser, State]]:
    """A new game for every allowed player count and seed, and its chooser of moves."""
    cheap = [b for b, entry in manifest(name).bots.items() if entry.instant]
    for players in manifest(name).players:
        for seed in probe.seeds:
            probe.at(players=players, seed=seed, decision=None)
            game = load(name, players=players)
            rng = random.Random(seed * 7 + players)
            bots = [make_bot(cheap[0], game, s, random.Random(seed + s)) for s in range(players)]

            def choose(state: State, rng: random.Random = rng, bots: list[Bot] = bots) -> Move:
                legal = state.legal_moves()
                seat = state.to_move
                if seat is None or rng.random() < 0.2:
                    return legal[rng.randrange(len(legal))]
                return bots[seat].choose(state.view(seat), legal)

            yield choose, game.new_game(random.Random(seed + players))
    probe.at(players=None, seed=None, decision=None)


def decisions(state: State, choose: Chooser, probe: Probe) -> Iterator[tuple[int, State]]:
    """``state`` before each of its decisions (numbered from 0), moved on by ``choose``."""
    for step in range(MAX_DECISIONS):
        probe.at(decision=step)
        if state.finished:
            return
        yield step, state
        state.apply(choose(state))
    probe.fail(f"no end after {MAX_DECISIONS} decisions")


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


def legal_moves(name: str, probe: Probe) -> None:
    for choose, state in each_game(name, probe):
        game = state.game
        for _, now in decisions(state, choose, probe):
            legal = now.legal_moves()
            probe.require(legal, "no legal move before the end")
            probe.require(now.to_move in range(game.num_players), f"to_move is {now.to_move!r}")
            for move in legal:
                back = game.move_from_index(move.index)
                probe.require(back == move, f"move {move} reads back from its index as {back}")
                read = game.parse_move(str(move))
                probe.require(read == move, f"move {move} reads back from its notation as {read}")
        probe.require(state.legal_moves() == (), "legal moves after the end")
        probe.require(state.to_move is None, f"to_move is {state.to_move!r} after the end")
        winners = state.winners
        probe.require(winners, "a finished game names no winner")
        probe.require(set(winners) <= set(range(game.num_players)), f"winners {winners!r}")


def views_json(name: str, probe: Probe) -> None:
    for choose, state in each_game(name, probe):
        for _, now in decisions(state, choose, probe):
            for seat in seats(now):
                view = now.view(seat)
                text = json.dumps(view.to_json())
                back = now.game.view_from_json(json.loads(text))
                probe.require(back == view, f"seat {seat}'s view reads back from JSON differently")


def clones(name: str, probe: Probe) -> None:
    for choose, state in each_game(name, probe):
        for step, now in decisions(state, choose, probe):
            if step % 17:
                continue
            before = snapshot(now)
            twin = now.clone(random.Random(step))
            probe.require(snapshot(twin) == before, "the clone differs from its original")
            moves = random.Random(step + 1)
            trace: list[tuple[Any, tuple[Any, ...]]] = []
            while len(trace) < 40 and not twin.finished:
                legal = twin.legal_moves()
                move = legal[moves.randrange(len(legal))]
                twin.apply(move)
                trace.append((move, snapshot(twin)))
            probe.require(snapshot(now) == before, "the clone's moves changed the original")
            again = now.clone(random.Random(step))
            for i, (move, seen) in enumerate(trace):
                again.apply(move)
                probe.require(snapshot(again) == seen, f"a second clone differs after move {i}")


def records_replay(name: str, probe: Probe) -> None:
    for choose, state in each_game(name, probe):
        for step, now in decisions(state, choose, probe):
            if step in (17, 71, 173):
                _check_record(now, probe)
        _check_record(state, probe)


def _check_record(state: State, probe: Probe) -> None:
    record = state.record(players=[f"p{s}" for s in range(state.game.num_players)])
    text = records.dumps(record)
    probe.require(records.loads(text) == record, "the record reads back from its text differently")
    outcome = replay(text)
    again = outcome.state
    if outcome.error is not None or again is None:
        probe.fail(f"the record does not replay: {outcome.error}")
    probe.require(again.record(players=record["players"]) == record, "the replay records otherwise")
    probe.require(again.finished == state.finished, "the replay's end differs")
    probe.require(again.scores == state.scores, "the replay's scores differ")
    if not state.awaiting_deal:
        same = [again.view(s) for s in seats(state)] == [state.view(s) for s in seats(state)]
        probe.require(same, "the replay's views differ")
        probe.require(again.legal_moves() == state.legal_moves(), "the replay's moves differ")


def resampled_views(name: str, probe: Probe) -> None:
    determinize = manifest(name).part("determinize")
    differ = 0
    for choose, state in each_game(name, probe):
        for step, now in decisions(state, choose, probe):
            if step % 5:
                continue
            seat = now.to_move
            probe.require(seat is not None, "nobody to move before the end")
            view = now.view(seat)
            one = determinize(now.game, view, random.Random(step))
            two = determinize(now.game, view, random.Random(step + 1))
            probe.require(one.view(seat) == view == two.view(seat), f"seat {seat} sees otherwise")
            same = one.legal_moves() == now.legal_moves() == two.legal_moves()
            probe.require(same, "a resampled state's legal moves differ")
            differ += any(one.view(s) != two.view(s) for s in range(now.game.num_players))
    probe.require(differ > 0, "two resamplings never differed: hidden cards were not swapped")
