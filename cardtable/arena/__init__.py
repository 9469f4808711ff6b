"""The arena: many bot-vs-bot games, played fairly and fast, counted with error bars.

``cardtable arena GAME --bots A,B,C,D --games N`` plays duplicate deals (each
deal once per seat rotation, so every bot holds every seat's cards), in this
process, in ``--jobs`` local processes or on a Ray cluster (``--ray``), and
reports per bot entry: wins (a shared win is ``1/k`` to each of ``k``
winners), win rate with a 95% Wilson interval, points per round and per game,
a head-to-head matrix and OpenSkill Plackett-Luce ratings. A seed fixes
everything: the same seed gives the same JSON with any ``--jobs`` or backend.

Modules: :mod:`~cardtable.arena.runner` (schedule and one game, pure),
:mod:`~cardtable.arena.pool` (where games run), :mod:`~cardtable.arena.stats`
(the numbers), :mod:`~cardtable.arena.report` (JSON, tables, chart),
:mod:`~cardtable.arena.run` (one run end to end), :mod:`~cardtable.arena.duplicate`
(two bots on the same round starts, in pairs) and :mod:`~cardtable.arena.paired`
(its numbers: paired intervals, correlation, games a claim needs; run by
``benchmarks/bench_strength.py``). The statistics need the
``arena`` extra (openskill, matplotlib); ``--ray`` needs the ``ray`` extra.

JSON schema (``--json`` and ``DIR/results.json``), ``cardtable-arena/1``::

    {
      "schema": "cardtable-arena/1",
      "game": "<name>",                   # as cardtable.game_names() lists it
      "options": {"players": 4, ...},     # every option, as in a record
      "seed": 1,                          # replays the run exactly
      "games": 2000,
      "deals": 500,                       # ceil(games / players)
      "budget": {"seconds": 0.05, "iterations": null} | null,
      "bots": [                           # one per entry, in --bots order
        {"entry": 0, "bot": "heuristic", "label": "heuristic#1",
         "games": 2000, "wins": 512.5,    # shared wins count 1/k
         "win_rate": 0.256, "win_rate_ci95": [0.237, 0.276],
         "points": 21000, "rounds": 7000,
         "points_per_round": 3.0, "points_per_game": 10.5,
         "rating": {"mu": 26.1, "sigma": 0.9, "ordinal": 23.4}}
      ],
      "head_to_head": {
        "labels": ["heuristic#1", ...],
        "ahead": [[0, 1100, ...], ...],   # ahead[i][j]: games i finished ahead of j
        "games": [[0, 2000, ...], ...],   # games i and j both played
        "rate":  [[null, 0.55, ...], ...] # ahead / games; null on the diagonal
      }
    }

"Ahead" follows the game's finishing order: the winners first, then by total
score; the ratings rate each game by the same ranks.

>>> from cardtable import game_names
>>> run = run_arena(game_names()[0], ["random", "random"], games=4, seed=1,
...                 options={"players": 2})
>>> [e.games for e in run.stats.entries]
[4, 4]
>>> sum(e.wins for e in run.stats.entries)
4.0
"""

from cardtable.arena.run import ArenaError, ArenaRun, run_arena
from cardtable.arena.runner import GameResult, GameTask, play_one, schedule
from cardtable.arena.stats import wilson_interval

__all__ = [
    "ArenaError",
    "ArenaRun",
    "GameResult",
    "GameTask",
    "play_one",
    "run_arena",
    "schedule",
    "wilson_interval",
]
