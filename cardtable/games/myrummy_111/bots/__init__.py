"""Bots for MyRummy 111, beside its rules (the manifest names them).

:mod:`.heuristic` (rules of thumb, and the hand quality every bot shares),
:mod:`.pimc` (one-card lookahead plus flat determinized search), with
:mod:`.lookahead` and :mod:`.playout` as its parts. All pure Python; only the
heuristic is re-exported.
"""

from cardtable.games.myrummy_111.bots.heuristic import HeuristicBot

__all__ = ["HeuristicBot"]
