"""The analysis of a finished table's seat, as work for the worker processes.

A job is one decision (or a few) of one seat: plain, picklable data (the
game's record as JSON text, the seat, which of its decisions, budget and
seed). A worker judges those decisions with the analysis package's one
function for the server, :func:`cardtable.analysis.analyze_decisions` (it
keeps the record's walk for the seat's next job); the parts it returns add
up to the seat's result in any split, which is what is stored:
``cardtable analyze --json``'s document for that seat, plus *notes* a
browser needs beside it (the replay step of each decision and the moves in
record notation). :func:`merge_results` joins stored seats' results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.analysis import SeatAnalysis, analyze_decisions

__all__ = ["AnalysisJob", "analyze_part", "merge_results"]


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    record: str  # the finished game's cardtable-record/1 with its players, as JSON text
    seat: int
    indices: tuple[int, ...]  # which of the seat's decisions (0 = its first)
    budget: float  # nominal seconds per decision
    seed: int


def analyze_part(job: AnalysisJob) -> SeatAnalysis:
    """The seat's decisions at ``job.indices``, judged (runs in a worker)."""
    return analyze_decisions(job.record, job.seat, job.indices, budget=job.budget, seed=job.seed)


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
