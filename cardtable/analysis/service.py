"""The analysis as the browser server asks for it: one function.

:func:`analyze_decisions` judges some decisions of one seat of a finished
game's record (the same evaluation ``cardtable analyze`` runs) and returns
a :class:`SeatAnalysis`: plain, picklable data, so the server can judge
each decision in a worker process of its own and add the parts up (``+``)
in any order. Seeds are derived per decision, so any split of a seat's
decisions gives the values one ``cardtable analyze --seat S --json`` run
gives. :meth:`SeatAnalysis.to_json` writes that run's document, with the
notes a browser needs beside it.

The fair evaluation reads only the seat's view; the hindsight one the true
state, which is public once the game is over.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from cardtable.analysis.decisions import Decision, walk
from cardtable.analysis.estimate import Evaluation
from cardtable.analysis.report import analysis_json
from cardtable.analysis.run import Analyzer, DecisionAnalysis
from cardtable.core.game import JSON, Move
from cardtable.core.registry import load
from cardtable.core.replay import parse_record

__all__ = ["SeatAnalysis", "analyze_decisions"]


@dataclass(frozen=True, slots=True)
class SeatAnalysis:
    """Judged decisions of one seat of one game, each with its replay step
    (the moves played before it), in game order."""

    game: str
    seat: int
    names: tuple[str, ...]  # the record's players, by seat
    budget: float
    seed: int
    judged: tuple[tuple[int, DecisionAnalysis], ...]

    def __add__(self, other: SeatAnalysis) -> SeatAnalysis:
        """Both parts' decisions, in game order (parts of the same analysis only)."""
        mine = (self.game, self.seat, self.names, self.budget, self.seed)
        if (other.game, other.seat, other.names, other.budget, other.seed) != mine:
            raise ValueError("only parts of one seat's analysis add up")
        judged = sorted(self.judged + other.judged, key=lambda pair: pair[0])
        return dataclasses.replace(self, judged=tuple(judged))

    def to_json(self) -> dict[str, JSON]:
        """``{"analysis": …, "notes": […]}``: ``analysis`` is exactly what
        ``cardtable analyze --seat S --json`` prints; ``notes[i]`` belongs to
        ``analysis["decisions"][i]``: its replay ``step`` and its moves as the
        record's notation writes them (the move played, and those of each
        alternative, fair and in hindsight, in the document's order)."""
        analyses = [a for _, a in self.judged]
        notes: list[JSON] = [
            {
                "step": step,
                "played": str(a.decision.legal[a.decision.played]),
                "fair": _texts(a.fair, a.decision.legal),
                "hindsight": _texts(a.hindsight, a.decision.legal),
            }
            for step, a in self.judged
        ]
        document = analysis_json(
            analyses, self.names, game=self.game, seed=self.seed, budget=self.budget
        )
        return {"analysis": document, "notes": notes}


def analyze_decisions(
    record: str, seat: int, decisions: Sequence[int], *, budget: float, seed: int
) -> SeatAnalysis:
    """The decisions of ``seat`` at ``decisions`` (0: its first) in
    ``record`` (a finished game's ``cardtable-record/1`` as JSON text, with
    its players), judged with ``budget`` nominal seconds each."""
    walked = _walked(record, seat)
    judged = []
    if decisions:
        analyzer = _analyzer(walked.game, walked.options)
        for i in decisions:
            step, decision = walked.decisions[i]
            judged.append((step, analyzer.analyze(decision, budget=budget, seed=seed)))
    return SeatAnalysis(walked.game, seat, walked.names, budget, seed, tuple(judged))


@dataclass(frozen=True, slots=True)
class _Walk:
    game: str
    options: str  # canonical JSON text: one cached analyzer per game and options
    names: tuple[str, ...]
    decisions: tuple[tuple[int, Decision], ...]  # (replay step, decision) of the seat


@lru_cache(maxsize=8)
def _analyzer(game: str, options: str) -> Analyzer:
    # One per game and options in each worker: the win model is fitted once
    # (with its fixed seed, so every worker fits the same one).
    return Analyzer(load(game, **json.loads(options)))


@lru_cache(maxsize=2)
def _walked(record: str, seat: int) -> _Walk:
    # A seat's parts come one after another with the same record: walking it
    # once, not once a part, keeps the work linear in the game's length.
    parsed = parse_record(record)
    game = parsed.game
    names = tuple(parsed.players or (f"seat {s}" for s in range(game.num_players)))
    before = [0]  # moves played before each round
    for round_ in parsed.rounds:
        before.append(before[-1] + len(round_.moves))
    decisions = tuple((before[d.round - 1] + d.move - 1, d) for d in walk(parsed, [seat]))
    options = json.dumps(game.options_json, sort_keys=True)
    return _Walk(game.name, options, names, decisions)


def _texts(evaluation: Evaluation | None, legal: Sequence[Move]) -> list[list[str]] | None:
    if evaluation is None:
        return None
    return [[str(legal[i]) for i in group.moves] for group in evaluation.groups]
