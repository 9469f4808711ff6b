"""Marshmallow Test (Reiner Knizia): trick taking where going out second to last pays.

Modules, as in every game package: :mod:`.game` (the game object),
:mod:`.cards`, :mod:`.moves`, :mod:`.options` (MT-10), :mod:`.state` (every
rule), :mod:`.tricks` (the rules of one trick, defined once), :mod:`.view`
(MT-9), :mod:`.codec` (records), :mod:`.determinize` (hidden cards from a
view), :mod:`.bots`, :mod:`.terminal` and :mod:`.manifest`. This module only
re-exports.

>>> import random
>>> game = MarshmallowTest(players=4)
>>> state = game.new_game(random.Random(7))
>>> state.to_move, state.round_number, len(state.legal_moves())
(0, 1, 12)
"""

from cardtable.games.marshmallow_test.codec import Deal
from cardtable.games.marshmallow_test.game import MarshmallowTest
from cardtable.games.marshmallow_test.moves import NameTrump, Play
from cardtable.games.marshmallow_test.options import Options
from cardtable.games.marshmallow_test.state import MarshmallowState
from cardtable.games.marshmallow_test.view import MarshmallowView

__all__ = [
    "Deal",
    "MarshmallowState",
    "MarshmallowTest",
    "MarshmallowView",
    "NameTrump",
    "Options",
    "Play",
]
