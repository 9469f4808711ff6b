"""What every game promises, checked over random games: the conformance suite.

Plain Python, so a game's author runs it against an installed game without
cardtable's tests (``cardtable conformance GAME``), and ``tests/conformance/``
runs the same checks over every registered game. ``docs/conformance.md``
states each promise under its anchor.

>>> from cardtable.conformance import check, promise
>>> check("marshmallow-test", promise("options-listed")).held
True
"""

from cardtable.conformance.probe import Probe, PromiseBroken
from cardtable.conformance.promises import (
    DOC,
    PROMISES,
    Outcome,
    Promise,
    check,
    promise,
    promises_of,
)

__all__ = [
    "DOC",
    "PROMISES",
    "Outcome",
    "Probe",
    "Promise",
    "PromiseBroken",
    "check",
    "promise",
    "promises_of",
]
