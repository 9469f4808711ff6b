"""The balance lab: a game designer's questions answered by self-play.

``cardtable balance GAME -p 3 -p 4 --sweep target=20,30 --games 2000`` plays
each configuration (player count × swept option values) with the chosen bots
(default: the game's heuristic at every seat) on the arena's duplicate deals,
measures every game from what any game offers (legal moves, rounds, scores,
winners; no game is named, so a plugin game gets it too) and reports, each
figure with its 95% interval and, where a fair value exists, a test against it:
seat and order advantage, length, decisiveness, per-round scores, choice,
skill gradient in mixed tables, and rule holes (saved as records).

Modules: :mod:`~cardtable.balance.plan` (configurations and games),
:mod:`~cardtable.balance.measure` (one game, measured),
:mod:`~cardtable.balance.stats` (intervals and tests),
:mod:`~cardtable.balance.figures` (one configuration's numbers),
:mod:`~cardtable.balance.store` (``--save DIR``, resuming),
:mod:`~cardtable.balance.run` (one run end to end),
:mod:`~cardtable.balance.report` (terminal) and
:mod:`~cardtable.balance.html` (``report.html``; matplotlib, the ``arena`` extra).

JSON schema (``--json`` and ``DIR/balance.json``), ``cardtable-balance/1``::

    {
      "schema": "cardtable-balance/1", "game": "<name>", "title": "<title>",
      "seed": 1, "games": 2000,             # games per configuration
      "max_decisions": null, "fixed_seats": false, "budget": null,   # --max-decisions
      "varied": ["players", "target"],      # what differs between configurations
      "configs": [{
        "label": "players=4 target=30", "varied": {"players": 4, "target": 30},
        "options": {...},                   # every option, as in a record
        "bots": ["heuristic", ...],         # the lineup, rotated over each deal's games
        "max_decisions": 637,               # past it a game is a rule hole: --max-decisions,
                                            # else the game's max_decisions(), else 20000
        "games": 2000, "finished": 2000,
        "seats" | "positions": {            # position 0 made the first decision
          "fair_share": 0.25, "chi_square": {"statistic": 3.1, "df": 3, "p": 0.37},
          "rows": [{"count": 512.5, "of": 2000, "share": 0.256, "ci95": [lo, hi],
                    "p_fair": 0.54, "points_per_game": 10.5, "points_ci95": [lo, hi]}]},
        "length": {"rounds": SPREAD, "decisions": SPREAD, "turn_limit": SHARE},
        "decisiveness": {"ties": SHARE, "margin": SPREAD, "winner_trailed": SHARE,
                         "winner_trailed_after_round": [SHARE, ...], "lead_changes": SPREAD},
        "scores": {"per_seat": [SPREAD, ...], "overall": SPREAD},   # points in one round
        "choice": {"phases": {"opening" | "middle" | "ending": CHOICE}, "overall": CHOICE},
        "skill": null | {"fair_share": 0.25, "levels": [{"bot": "random", "seats": 2, **SHARE,
                         "p_fair": 0.01}], "ahead": [{"bot": "a", "against": "b", **SHARE}]},
        "holes": {"turn_limit": 0, "no_legal_move": 0, "error": 0,
                  "games": [{"game": 17, "end": "error", "detail": "...", "record": "holes/…"}]}
      }]
    }
    SHARE  = {"count": k, "of": n, "share": k / n, "ci95": [lo, hi]}   (Wilson)
    SPREAD = {"n", "mean", "ci95", "sd", "percentiles": {"5", "25", "50", "75", "95"},
              "min", "max", "histogram": {"edges", "counts"}}
    CHOICE = {"decisions", "branching", "branching_ci95", "forced_share", "forced_ci95"}

The JSON holds only what the seed determines (no timings, no ``--jobs``), so
a run gives the same JSON with any number of jobs, and a resumed run the same
as an uninterrupted one.
"""

from cardtable.balance.plan import BalanceError, Sweep, parse_sweep
from cardtable.balance.run import BalanceRun, plan_run, run_balance

__all__ = ["BalanceError", "BalanceRun", "Sweep", "parse_sweep", "plan_run", "run_balance"]
