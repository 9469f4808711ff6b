"""``cardtable replay``: check a record against the rules and print standings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO

from cardtable.core.errors import CardtableError, RecordError
from cardtable.core.game import JSON
from cardtable.core.records import loads
from cardtable.core.replay import ReplayOutcome, error_json, replay


def read_source(path: str) -> str:
    """The record's text from a file, or standard input for ``-``."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8-sig")  # a byte order mark is no fault
    except FileNotFoundError:
        raise RecordError("", f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError("", f"{path}: is a directory, not a record") from None
    except UnicodeDecodeError:
        raise RecordError("", f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise RecordError("", f"{path}: {exc.strerror}") from None


def run_replay(path: str, *, as_json: bool, trace: bool, out: IO[str], err: IO[str]) -> int:
    """Replay the record at ``path``; returns the exit code (0, 1 or 2)."""
    try:
        text = read_source(path)
    except CardtableError as exc:
        _report_error(exc, as_json or trace, out, err)
        return 2

    def print_trace(line: dict[str, JSON]) -> None:
        out.write(json.dumps(line) + "\n")

    outcome = replay(text, trace=trace, on_trace=print_trace if trace else None)
    if outcome.error is not None:
        _report_error(outcome.error, as_json or trace, out, err)
    elif as_json or trace:
        out.write(json.dumps(outcome.summary()) + "\n")
    else:
        out.write(standings_text(outcome, _player_names(text)))
    return outcome.exit_code


def _report_error(error: CardtableError, as_json: bool, out: IO[str], err: IO[str]) -> None:
    if as_json:
        out.write(json.dumps({"error": error_json(error)}) + "\n")
        return
    message = str(error)
    if isinstance(error, RecordError) and error.round is not None:
        place = f"round {error.round}" + (f", move {error.move}" if error.move is not None else "")
        message = f"{place}: {message}"
    kind = "rule break" if not isinstance(error, RecordError) else "malformed record"
    err.write(f"{kind}: {message}\n")


def _player_names(text: str) -> list[str] | None:
    # The record has been parsed successfully once already; names are optional.
    players = loads(text).get("players")
    return players if isinstance(players, list) else None


def standings_text(outcome: ReplayOutcome, names: list[str] | None) -> str:
    state = outcome.state
    assert state is not None
    n = state.game.num_players
    labels = names or [f"seat {i}" for i in range(n)]
    width = max(7, *(len(label) for label in labels)) + 2
    lines = [f"{state.game.name}, {n} players: every move is legal"]
    lines.append("round  " + "".join(f"{label:>{width}}" for label in labels))
    for i, row in enumerate(state.round_scores, start=1):
        lines.append(f"{i:<5}  " + "".join(f"{points:>{width}}" for points in row))
    lines.append("total  " + "".join(f"{points:>{width}}" for points in state.scores))
    if state.finished:
        won = ", ".join(f"{labels[s]} (seat {s})" for s in state.winners)
        lines.append(f"finished; winner{'s' if len(state.winners) > 1 else ''}: {won}")
    elif state.awaiting_deal:
        lines.append(
            f"in progress: round {state.round_number} is complete; the next round is not dealt yet"
        )
    else:
        lines.append(f"in progress: round {state.round_number}, seat {state.to_move} to move")
    return "\n".join(lines) + "\n"
