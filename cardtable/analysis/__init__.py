"""Game analysis: the value of every alternative of a decision, judged from
what the deciding seat could see, and what the move played cost.

Generic: a game takes part through its manifest (``determinize``, and
optionally ``evaluator``); nothing here knows a game by name. The pieces:

- :mod:`.evaluator`: the playout policy a game offers (or its heuristic bot);
- :mod:`.playout`: one playout to the end of a round, and what it yields;
- :mod:`.winmodel`: the chance to win the game from the standings a round leaves;
- :mod:`.estimate`: paired playouts, successive halving, cross-fitted losses;
- :mod:`.classify`: best / good / inaccuracy / mistake / blunder, accuracy;
- :mod:`.decisions`: a record's decisions, each with the view of its seat;
- :mod:`.run`: fair and hindsight evaluations of decisions, over processes;
- :mod:`.report`: per-player summaries, JSON and text;
- :mod:`.service`: the one function the browser server calls,
  :func:`analyze_decisions`.

``docs/analysis.md`` says what the numbers mean and how they are measured.
"""

from cardtable.analysis.run import DEFAULT_BUDGET, Analyzer, DecisionAnalysis, analyze_record
from cardtable.analysis.service import SeatAnalysis, analyze_decisions

__all__ = [
    "DEFAULT_BUDGET",
    "Analyzer",
    "DecisionAnalysis",
    "SeatAnalysis",
    "analyze_decisions",
    "analyze_record",
]
