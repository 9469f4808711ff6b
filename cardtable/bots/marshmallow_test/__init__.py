"""Bots for Marshmallow Test."""

from cardtable.bots.marshmallow_test.heuristic import HeuristicBot

__all__ = ["HeuristicBot"]
