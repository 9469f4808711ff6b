"""Checks of the engine's answers against what the engine does, for any game.

:func:`play_and_check` plays a seeded random game and, at every position,
compares ``explain`` and ``refusal`` with trying each action on a clone (the
way the server found refusals before the engine answered), for every seat;
and after every move, compares the :class:`~cardtable.core.game.Applied`
that ``apply`` returned with the events the record gained.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.core import engine
from cardtable.core.errors import IllegalMoveError
from cardtable.core.game import Explanation, State


def trial(state: State, seat: int, move: Any) -> IllegalMoveError | None:
    """What ``apply_as(seat, move)`` raises on a clone with its own generator."""
    copy = state.clone(random.Random(0))
    try:
        copy.apply_as(seat, move)
    except IllegalMoveError as exc:
        return exc
    return None


def record_events(record: dict[str, Any]) -> list[tuple[str, Any]]:
    """A record's rounds as the flat events a journal stores."""
    events: list[tuple[str, Any]] = []
    for round_ in record["rounds"]:
        events.append(("deal", round_["deal"]))
        events.extend(("move", move) for move in round_["moves"])
    return events


def check_position(state: State) -> Counter[str]:
    """Assert that every seat's ``explain``/``refusal`` agree with trial at
    this position, and that asking changed nothing; counts what was seen
    (``"legal"``, ``"refused"`` and each rule cited)."""
    game = state.game
    before = state.record()
    seen: Counter[str] = Counter()
    for seat in range(game.num_players):
        explanations = state.explain(seat)  # type: ignore[attr-defined]
        assert engine.explain(state, seat) == explanations
        assert [e.move.index for e in explanations] == list(range(game.num_actions))
        for index, explanation in enumerate(explanations):
            move = game.move_from_index(index)
            expected = trial(state, seat, move)
            own: IllegalMoveError | None = state.refusal(seat, move)  # type: ignore[attr-defined]
            free = engine.refusal(state, seat, move)
            assert (own, free) == (expected, expected), (seat, move)
            if expected is None:
                assert explanation == Explanation(move, True, None, None)
                seen["legal"] += 1
            else:
                params = expected.params if expected.key is not None else None
                assert explanation == Explanation(
                    move, False, expected.reason, expected.rule, expected.key, params
                )
                seen["refused"] += 1
                seen[expected.rule] += 1
        if seat == state.to_move:
            legal = {m.index for m in state.legal_moves()}
            assert {e.move.index for e in explanations if e.legal} == legal
    assert state.record() == before  # nothing was applied or drawn
    return seen


def uniform(legal: Sequence[Any], rng: random.Random) -> Any:
    return legal[rng.randrange(len(legal))]


def play_and_check(
    state: State,
    seed: int,
    positions: int | None = None,
    choose: Callable[[Sequence[Any], random.Random], Any] = uniform,
) -> Counter[str]:
    """Play ``state`` to its end with seeded moves (``choose``, uniform by
    default), checking every position (or every ``positions``-th, and the
    last) and every move's Applied."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    events = record_events(state.record())
    step = 0
    while True:
        if positions is None or step % positions == 0 or state.finished:
            seen += check_position(state)
        if state.finished:
            return seen
        move = choose(state.legal_moves(), rng)
        applied = state.apply_as(state.to_move, move)  # type: ignore[arg-type]
        assert applied is not None and applied.move is move
        now = record_events(state.record())
        assert events + applied.events() == now, step
        if applied.deal is not None:
            seen["deal after a move"] += 1
        if applied.chance:
            seen["chance"] += 1
        events = now
        step += 1
