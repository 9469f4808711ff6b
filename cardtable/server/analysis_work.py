"""The analysis of a finished table's seat, as work for the worker processes.

A job is one decision (or a few) of one seat: plain, picklable data (the
game's record as JSON text, the seat, which of its decisions, budget and
seed). A worker walks the record (once a seat: it keeps the walk for the
next job) and judges those decisions with
:class:`cardtable.analysis.Analyzer`, the same evaluation ``cardtable
analyze`` runs; the analysis package's seeds are derived per decision, so
any split of the decisions gives the values one ``cardtable analyze --seat S
--json`` run gives. The fair evaluation reads only the seat's view; the
hindsight one the true state, which is public once the game is over.

:func:`seat_result` turns a seat's judged decisions into what is stored:
``cardtable analyze --json``'s document for that seat, plus *notes* a
browser needs beside it (the replay step of each decision and the moves in
record notation).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardtable.analysis import Analyzer, DecisionAnalysis
from cardtable.analysis.decisions import Decision, walk
from cardtable.analysis.estimate import Evaluation
from cardtable.analysis.report import analysis_json
from cardtable.core.game import JSON, Move
from cardtable.core.registry import load
from cardtable.core.replay import parse_record
from cardtable.server.journal import Event

__all__ = ["AnalysisJob", "analyse_part", "merge_results", "round_starts", "seat_result"]


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    record: str  # the finished game's cardtable-record/1, as JSON text
    seat: int
    indices: tuple[int, ...]  # which of the seat's decisions (0 = its first)
    budget: float  # nominal seconds per decision
    seed: int


@lru_cache(maxsize=8)
def _analyser(game: str, options: str) -> Analyzer:
    # One per game and options in each worker: the win model is fitted once
    # (with its fixed seed, so every worker fits the same one).
    return Analyzer(load(game, **json.loads(options)))


@lru_cache(maxsize=2)
def _walked(record: str, seat: int) -> tuple[Analyzer, tuple[Decision, ...]]:
    # A seat's jobs come one after another with the same record: walking it
    # once, not once a job, keeps the work linear in the game's length.
    parsed = parse_record(record)
    game = parsed.game
    analyser = _analyser(game.name, json.dumps(game.options_json, sort_keys=True))
    return analyser, tuple(walk(parsed, [seat]))


def analyse_part(job: AnalysisJob) -> list[DecisionAnalysis]:
    """The seat's decisions at ``job.indices``, judged (runs in a worker)."""
    analyser, decisions = _walked(job.record, job.seat)
    return [analyser.analyze(decisions[i], budget=job.budget, seed=job.seed) for i in job.indices]


def round_starts(events: Sequence[Event]) -> list[int]:
    """The replay step (moves played before it) at which each round begins."""
    starts, moves = [], 0
    for kind, _ in events:
        if kind == "deal":
            starts.append(moves)
        else:
            moves += 1
    return starts


def _texts(evaluation: Evaluation | None, legal: Sequence[Move]) -> list[list[str]] | None:
    if evaluation is None:
        return None
    return [[str(legal[i]) for i in group.moves] for group in evaluation.groups]


def seat_result(
    analyses: Sequence[DecisionAnalysis],
    names: Sequence[str],
    *,
    game: str,
    seed: int,
    budget: float,
    starts: Sequence[int],
) -> dict[str, JSON]:
    """``{"analysis": …, "notes": […]}``: ``analysis`` is exactly what
    ``cardtable analyze --seat S --json`` prints; ``notes[i]`` belongs to
    ``analysis["decisions"][i]``: its replay ``step`` (the moves played
    before it) and its moves as the record's notation writes them (the move
    played, and those of each alternative, fair and in hindsight, in the
    document's order)."""
    notes: list[JSON] = []
    for a in analyses:
        d = a.decision
        notes.append(
            {
                "step": starts[d.round - 1] + d.move - 1,
                "played": str(d.legal[d.played]),
                "fair": _texts(a.fair, d.legal),
                "hindsight": _texts(a.hindsight, d.legal),
            }
        )
    document = analysis_json(analyses, names, game=game, seed=seed, budget=budget)
    return {"analysis": document, "notes": notes}


def merge_results(results: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """Several seats' results as one: players by seat, decisions (and their
    notes) in game order, as one ``cardtable analyze --json`` over those
    seats would list them; ``None`` for none."""
    if not results:
        return None
    if len(results) == 1:
        return results[0]
    first = results[0]["analysis"]
    players = sorted(
        (p for r in results for p in r["analysis"]["players"]), key=lambda p: p["seat"]
    )
    pairs = sorted(
        (
            (note["step"], decision, note)
            for r in results
            for decision, note in zip(r["analysis"]["decisions"], r["notes"], strict=True)
        ),
        key=lambda item: item[0],
    )
    return {
        "analysis": {
            **first,
            "players": players,
            "decisions": [decision for _, decision, _ in pairs],
        },
        "notes": [note for _, _, note in pairs],
    }
