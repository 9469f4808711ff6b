"""MyRummy 111 (Steffen Benndorf, Schmidt Spiele): rules in ``shared/spec/myrummy-111.md``.

Rules: :mod:`.cards` (cards and symbols), :mod:`.moves` (moves and action
indices), :mod:`.options` (MR-9), :mod:`.exchange` (MR-4.3/4.4),
:mod:`.state` (every rule, and the views it hands out), :mod:`.scoring`
(MR-6/7), :mod:`.view` (MR-5, a plain value), :mod:`.codec` (records),
:mod:`.game` (the game object). Around them: :mod:`.determinize` (hidden
cards resampled from a view), :mod:`.bots`, :mod:`.terminal` and
:mod:`.manifest`, which names them all for the generic layers.
"""

from cardtable.games.myrummy_111.cards import DEFAULT_SYMBOLS, load_symbols
from cardtable.games.myrummy_111.codec import Deal
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.moves import Place, Take
from cardtable.games.myrummy_111.options import Options
from cardtable.games.myrummy_111.state import MyRummyState
from cardtable.games.myrummy_111.view import MyRummyView, PlaceEvent, RoundEnd, TakeEvent

__all__ = [
    "DEFAULT_SYMBOLS",
    "Deal",
    "MyRummy111",
    "MyRummyState",
    "MyRummyView",
    "Options",
    "Place",
    "PlaceEvent",
    "RoundEnd",
    "Take",
    "TakeEvent",
    "load_symbols",
]
