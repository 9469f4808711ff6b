"""Bots for MyRummy 111: :mod:`.heuristic` (rules of thumb, and the hand
quality every bot shares), :mod:`.pimc` (one-card lookahead plus flat
determinized search), with :mod:`.lookahead` and :mod:`.playout` as its parts.
The manifest names them; nothing here is imported until a bot is asked for."""
