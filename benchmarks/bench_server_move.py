"""The server's cost per move, at move 10 and move 100 of each game: the
events to store (the journal) and the view-derived part of every seat's
message (``game_part`` for each seat and a spectator), the way the server
does it now beside the way it did before, measured in the same run.

    python benchmarks/bench_server_move.py [--moves 10 100] [--repeat 200]

*now*: the move is applied on a clone (as ``Table.prepare`` does), the
journal takes the events ``apply`` returned, and the seat to move's
refusals come from ``cardtable.core.engine.explain``.
*before*: the same clone and apply, then the whole record rebuilt to diff
out its new tail (``Journal.pending``), and every action not legal tried
on a clone of the state to collect its refusal.

Positions are counted in moves across rounds from a seeded uniform-random
game (MyRummy 111 plays to 200 points so that a game reaches move 100);
each figure is the best of five batches of ``--repeat`` moves, in
microseconds. The two must agree: every position's messages are compared
byte for byte before they are timed.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import cardtable
from cardtable.core.errors import IllegalMoveError
from cardtable.core.game import Game, Move, State
from cardtable.server.tables.journal import Journal
from cardtable.server.tables.messages import game_part

OPTIONS: dict[str, dict[str, Any]] = {"myrummy-111": {"target": 200}}  # long enough for move 100


def part_by_trial(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """``game_part`` as the server built it before ``explain`` (its code then):
    each action not legal now tried on a clone of the state."""
    view = state.view(seat).to_json()
    to_move = state.to_move
    legal: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    if seat is not None and seat == to_move:
        moves = state.legal_moves()
        legal = [m.to_json() for m in moves]
        allowed = {m.index for m in moves}
        for index in range(game.num_actions):
            if index in allowed:
                continue
            move = game.move_from_index(index)
            trial = state.clone()
            try:
                trial.apply_as(seat, move)
            except IllegalMoveError as exc:
                refused.append(
                    {
                        "move": move.to_json(),
                        "reason": exc.reason,
                        "rule": exc.rule,
                        "key": exc.key,
                        "params": exc.params or {},
                    }
                )
    return {
        "seat": seat,
        "view": view,
        "to_move": to_move,
        "legal": legal,
        "refused": refused,
        "finished": state.finished,
        "scores": list(state.scores),
        "winners": list(state.winners),
    }


def position(game: Game, moves: int, seed: int) -> tuple[State, Journal, Move]:
    """The state before move ``moves`` + 1 of a seeded random game, its
    journal so far and the move played next."""
    for attempt in range(100):
        rng = random.Random(seed + attempt)
        state = game.new_game(random.Random(seed + attempt))
        journal = Journal()
        journal.new_events(state)
        while not state.finished and journal.moves < moves:
            move = rng.choice(state.legal_moves())
            journal.commit(journal.applied(state.apply(move), state))
        if not state.finished:
            return state, journal, rng.choice(state.legal_moves())
    raise SystemExit(f"{game.name}: no game of 100 seeds reached move {moves}")


def journal_now(game: Game, state: State, journal: Journal, move: Move) -> Any:
    after = state.clone()  # as Table.prepare: applied on a clone, adopted once stored
    return journal.applied(after.apply_as(seat_of(state), move), after)


def journal_before(game: Game, state: State, journal: Journal, move: Move) -> Any:
    after = state.clone()
    after.apply_as(seat_of(state), move)
    return journal.pending(after)


def messages_now(game: Game, after: State) -> Any:
    return [game_part(game, after, s) for s in (*range(game.num_players), None)]


def messages_before(game: Game, after: State) -> Any:
    return [part_by_trial(game, after, s) for s in (*range(game.num_players), None)]


def seat_of(state: State) -> int:
    seat = state.to_move
    assert seat is not None
    return seat


def best_us(step: Callable[..., Any], args: tuple[Any, ...], repeat: int) -> float:
    """Microseconds per call, the best of five batches (as ``timeit`` advises:
    the others measure the machine's other work)."""
    batches = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            step(*args)
        batches.append((time.perf_counter() - start) / repeat * 1e6)
    return min(batches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'game':<18}{'move':>5} | {'journal µs':>16} | {'messages µs':>16} |"
        f" {'per move µs':>16} | ratio"
    )
    print(
        f"{'':<23} | {'before':>8}{'now':>8} | {'before':>8}{'now':>8} | {'before':>8}{'now':>8} |"
    )
    for name in cardtable.game_names():
        game = cardtable.load(name, **OPTIONS.get(name, {}))
        for moves in args.moves:
            state, journal, move = position(game, moves, args.seed)
            at = (game, state, journal, move)
            after = state.clone()
            after.apply_as(seat_of(state), move)
            if journal_now(*at) != journal_before(*at) or json.dumps(
                messages_now(game, after)
            ) != json.dumps(messages_before(game, after)):
                raise SystemExit(f"{name} at move {moves}: the two ways disagree")
            j_old = best_us(journal_before, at, args.repeat)
            j_new = best_us(journal_now, at, args.repeat)
            m_old = best_us(messages_before, (game, after), args.repeat)
            m_new = best_us(messages_now, (game, after), args.repeat)
            old, new = j_old + m_old, j_new + m_new
            print(
                f"{name:<18}{moves:>5} | {j_old:>8.1f}{j_new:>8.1f} | {m_old:>8.1f}{m_new:>8.1f} |"
                f" {old:>8.1f}{new:>8.1f} | {old / new:.1f}×"
            )


if __name__ == "__main__":
    main()
