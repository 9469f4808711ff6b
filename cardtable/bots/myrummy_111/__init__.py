"""Bots for MyRummy 111."""

from cardtable.bots.myrummy_111.heuristic import HeuristicBot

__all__ = ["HeuristicBot"]
