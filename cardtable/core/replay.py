"""Replaying a ``cardtable-record/1`` document through a game's rules.

Two passes, as the record format demands: first every part of the record is
checked for form (a malformed record is reported even when an earlier move
breaks a rule), then the moves are applied one by one through the game's own
``apply_as``, so legality lives only in the game's rules module. The second
pass is :func:`cardtable.core.walk.walk`, the walk every reader of records
shares; the replay is one visitor of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.errors import CardtableError, OptionError, RecordError
from cardtable.core.game import JSON, Game, State
from cardtable.core.records import FORMAT, RESULT_KEYS, loads
from cardtable.core.registry import game_class, game_names
from cardtable.core.walk import (
    ParsedRecord,
    ParsedRound,
    RecordedMove,
    RuleBreakError,
    Visitor,
    walk,
)

__all__ = [
    "ParsedRecord",
    "ParsedRound",
    "ReplayOutcome",
    "RuleBreakError",
    "error_json",
    "load_record",
    "parse_record",
    "replay",
    "result_json",
]

TOP_REQUIRED = ("format", "game", "options", "rounds")
ROUND_KEYS = ("deal", "moves")


@dataclass(slots=True)
class ReplayOutcome:
    """What a replay found: the state reached and, if any, the error."""

    state: State | None
    error: CardtableError | None = None
    trace: list[dict[str, JSON]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.error is None:
            return 0
        return 1 if isinstance(self.error, RuleBreakError) else 2

    def summary(self) -> dict[str, JSON]:
        """The ``--json`` object of ``cardtable replay``."""
        if self.error is not None:
            return {"error": error_json(self.error)}
        assert self.state is not None
        return result_json(self.state)


def error_json(error: CardtableError) -> dict[str, JSON]:
    return {
        "round": getattr(error, "round", None),
        "move": getattr(error, "move", None),
        "message": str(error),
    }


def result_json(state: State) -> dict[str, JSON]:
    return {
        "finished": state.finished,
        "scores": list(state.scores),
        "round_scores": [list(r) for r in state.round_scores],
        "winners": list(state.winners),
    }


# --- pass 1: form -----------------------------------------------------------


def _expect(value: Any, kind: type, where: str, what: str) -> None:
    # bool is an int in Python but never a number in a record.
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(where, f"{what} must be {_kind_name(kind)}, not {_json_type(value)}")


def _kind_name(kind: type) -> str:
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        int: "an integer",
        bool: "true or false",
    }[kind]


def _json_type(value: Any) -> str:
    # A record built in Python may hold values JSON cannot: named by their type.
    return {
        type(None): "null",
        dict: "an object",
        list: "a list",
        str: "a string",
        int: "an integer",
        float: "a number",
        bool: "a boolean",
    }.get(type(value), type(value).__name__)


def parse_record(record: Mapping[str, JSON] | str | bytes) -> ParsedRecord:
    """Check a whole record for form; raise :class:`RecordError` at the first fault."""
    if isinstance(record, (str, bytes)):
        record = loads(record)
    _expect(record, dict, "", "a record")
    for key in TOP_REQUIRED:
        if key not in record:
            raise RecordError(key, "missing (required)")
    if record["format"] != FORMAT:
        raise RecordError("format", f"expected {FORMAT!r}, got {record['format']!r}")
    name = record["game"]
    if not isinstance(name, str) or name not in game_names():
        known = ", ".join(game_names())
        raise RecordError("game", f"unknown game {name!r}; known games: {known}")
    game = _parse_options(name, record["options"])
    players = _parse_players(record.get("players"), game.num_players)
    rounds_json = record["rounds"]
    _expect(rounds_json, list, "rounds", "rounds")
    rounds = [_parse_round(game, r, i) for i, r in enumerate(rounds_json)]
    result = record.get("result")
    if result is not None:
        _check_result(result, game.num_players)
    return ParsedRecord(game, players, rounds, result)


def _parse_options(name: str, options: JSON) -> Game:
    _expect(options, dict, "options", "options")
    if "players" not in options:
        raise RecordError("options.players", "missing (required)")
    try:
        return game_class(name)(**options)
    except OptionError as exc:
        raise RecordError(f"options.{exc.option}", exc.reason) from None


def _parse_players(players: JSON, n: int) -> list[str] | None:
    if players is None:
        return None
    _expect(players, list, "players", "players")
    if len(players) != n:
        raise RecordError("players", f"{len(players)} names for {n} seats")
    for i, p in enumerate(players):
        _expect(p, str, f"players[{i}]", "a player's name")
    return list(players)


def _parse_round(game: Game, obj: JSON, i: int) -> ParsedRound:
    where = f"rounds[{i}]"
    try:
        _expect(obj, dict, where, "a round")
        for key in obj:
            if key not in ROUND_KEYS:
                raise RecordError(f"{where}.{key}", "unknown field")
        for key in ROUND_KEYS:
            if key not in obj:
                raise RecordError(f"{where}.{key}", "missing (required)")
        deal = game.deal_from_json(obj["deal"], f"{where}.deal")
        _expect(obj["moves"], list, f"{where}.moves", "moves")
    except RecordError as exc:
        raise _located(exc, i + 1, None) from None
    moves = []
    for j, move in enumerate(obj["moves"]):
        try:
            moves.append(game.move_from_json(move, f"{where}.moves[{j}]"))
        except RecordError as exc:
            raise _located(exc, i + 1, j + 1) from None
    return ParsedRound(deal, moves)


def _located(exc: RecordError, round: int, move: int | None) -> RecordError:
    return RecordError(exc.where, exc.reason, round=round, move=move)


def _check_result(result: JSON, n: int) -> None:
    _expect(result, dict, "result", "result")
    for key in result:
        if key not in RESULT_KEYS:
            raise RecordError(f"result.{key}", "unknown field")
    if "finished" in result:
        _expect(result["finished"], bool, "result.finished", "finished")
    if "scores" in result:
        _check_int_list(result["scores"], "result.scores", n)
    if "round_scores" in result:
        _expect(result["round_scores"], list, "result.round_scores", "round_scores")
        for i, row in enumerate(result["round_scores"]):
            _check_int_list(row, f"result.round_scores[{i}]", n)
    if "winners" in result:
        _expect(result["winners"], list, "result.winners", "winners")
        for i, seat in enumerate(result["winners"]):
            _expect(seat, int, f"result.winners[{i}]", "a seat")
            if not 0 <= seat < n:
                raise RecordError(f"result.winners[{i}]", f"seat {seat} outside 0…{n - 1}")


def _check_int_list(value: JSON, where: str, n: int) -> None:
    _expect(value, list, where, "a list of points")
    if len(value) != n:
        raise RecordError(where, f"{len(value)} entries for {n} seats")
    for i, item in enumerate(value):
        _expect(item, int, f"{where}[{i}]", "points")


# --- pass 2: rules ----------------------------------------------------------


def replay(
    record: Mapping[str, JSON] | str | bytes,
    *,
    trace: bool = False,
    on_trace: Callable[[dict[str, JSON]], None] | None = None,
) -> ReplayOutcome:
    """Replay ``record``; never raises for a bad record (see ``outcome.error``).

    With ``trace`` each decision point is collected in ``outcome.trace`` (or
    passed to ``on_trace`` as it is reached) as the ``--trace`` lines.
    """
    try:
        parsed = parse_record(record)
    except RecordError as exc:
        return ReplayOutcome(None, exc)
    return walk(parsed, _Replay(parsed.result, trace=trace, on_trace=on_trace))


class _Replay(Visitor[ReplayOutcome]):
    """The replay's visitor: the ``--trace`` lines, the result's check, the error."""

    def __init__(
        self,
        expected: Mapping[str, JSON] | None,
        *,
        trace: bool,
        on_trace: Callable[[dict[str, JSON]], None] | None,
    ) -> None:
        self.expected = expected
        self.outcome = ReplayOutcome(None)
        self.emit: Callable[[dict[str, JSON]], None] | None = None
        if trace:
            self.emit = on_trace if on_trace is not None else self.outcome.trace.append

    def begin_game(self, state: State) -> None:
        self.outcome.state = state

    def before_move(self, move: RecordedMove, state: State) -> None:
        if self.emit is not None:
            self.emit(
                {
                    "round": move.round,
                    "move": move.move,
                    "seat": state.to_move,
                    "legal": [legal.to_json() for legal in state.legal_moves()],
                }
            )

    def end_game(self, state: State) -> None:
        if self.expected is not None:
            _compare_result(self.expected, state)

    def handle_error(self, error: RuleBreakError) -> None:
        self.outcome.error = error

    def result(self) -> ReplayOutcome:
        return self.outcome


def _compare_result(expected: Mapping[str, JSON], state: State) -> None:
    actual = result_json(state)
    for key in RESULT_KEYS:
        if key not in expected:
            continue
        want, got = expected[key], actual[key]
        same = set(want) == set(got) if key == "winners" else want == got
        if not same:
            raise RuleBreakError(
                f"result.{key} says {want}, but the moves give {got}", round=None, move=None
            )


def load_record(
    record: Mapping[str, JSON] | str | bytes,
    rng: random.Random | None = None,
    *,
    deal_next: bool = True,
) -> State:
    """The state a record describes; raises RecordError or RuleBreakError.

    Deals come from the record. Should the record stop at the end of a round,
    the next round is dealt with ``rng``, or, without one, a generator of its
    own seeded by the operating system (it is never the global ``random``);
    with ``deal_next=False`` the state stays at the round's end, awaiting
    the deal (a tournament's table plays one round: its game stops there).
    """
    outcome = replay(record)
    if outcome.error is not None:
        raise outcome.error
    state = outcome.state
    assert state is not None
    if state.awaiting_deal and not state.finished and deal_next:
        state = state.clone(rng if rng is not None else random.Random())
        state.deal(None)  # from the generator just given
    elif rng is not None:
        state = state.clone(rng)
    return state
