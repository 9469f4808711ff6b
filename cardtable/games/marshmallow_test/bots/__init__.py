"""Bots for Marshmallow Test, beside its rules (the manifest names them).

:mod:`.heuristic` (rules of thumb, pure Python), :mod:`.pimc` (determinized
flat Monte Carlo, needs numpy) and :mod:`.playout` (its batched playouts on
numpy). Only the heuristic is re-exported, so importing this package loads no
numpy.
"""

from cardtable.games.marshmallow_test.bots.heuristic import HeuristicBot

__all__ = ["HeuristicBot"]
