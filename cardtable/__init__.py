"""cardtable: Marshmallow Test and MyRummy 111, with exact rules.

>>> import random, cardtable
>>> game = cardtable.load("marshmallow-test", players=4)
>>> state = game.new_game(rng=random.Random(7))
>>> rng = random.Random(1)
>>> while not state.finished:
...     moves = state.legal_moves()
...     _ = state.apply(moves[rng.randrange(len(moves))])
>>> max(state.scores) >= 20
True
>>> cardtable.load_record(state.record()).scores == state.scores
True
"""

from cardtable.core import compiled

# Before any engine is imported: the compiled build, where one matches the source.
compiled.install()

from cardtable.core.errors import (  # noqa: E402  (after the compiled build is in place)
    CardtableError,
    IllegalMoveError,
    OptionError,
    RecordError,
)
from cardtable.core.registry import UnknownGameError, game_names, load  # noqa: E402
from cardtable.core.replay import RuleBreakError, load_record, replay  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "CardtableError",
    "IllegalMoveError",
    "OptionError",
    "RecordError",
    "RuleBreakError",
    "UnknownGameError",
    "game_names",
    "load",
    "load_record",
    "replay",
]
