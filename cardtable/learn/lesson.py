"""A step of a tutorial against the engine: what a learner's move means there.

The faces (terminal, browser) draw the position and read a move; this says
whether it is the step's idea, a legal move that misses it, or a move the
rules refuse, with the engine's reason and rule. So both faces judge alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from cardtable.core.errors import RefusalParam
from cardtable.core.game import Move, State
from cardtable.learn.tutorial import Step, refusal

__all__ = ["Verdict", "judge"]


@dataclass(frozen=True, slots=True)
class Verdict:
    kind: Literal["right", "wrong", "illegal"]
    rule: str  # the engine's rule for an illegal move, else the step's
    reason: str | None = None  # the engine's words for an illegal move
    # For an illegal move, the refusal's kind and facts, for a page to word in its language.
    key: str | None = None
    params: Mapping[str, RefusalParam] = field(default_factory=dict)


def judge(step: Step, state: State, seat: int, move: Move) -> Verdict:
    """How ``move`` by the learner's ``seat`` answers ``step`` at ``state``."""
    if move in step.expect:
        return Verdict("right", step.rule)
    error = refusal(state, seat, move)
    if error is not None:
        return Verdict("illegal", error.rule, error.reason, error.key, error.params)
    return Verdict("wrong", step.rule)
