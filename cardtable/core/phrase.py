"""Words a game says to a person, for a reader in any language.

A game's code speaks English (the command line's words, and records'); where
a client words things in the reader's language, the game also names the kind
of thing said with a catalog key and gives the facts its words need, as a
:class:`~cardtable.core.errors.Refusal` does for a refused move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from cardtable.core.errors import RefusalParam

__all__ = ["Phrase"]


class Phrase(NamedTuple):
    """English ``text``, and the catalog ``key`` with the ``params`` its
    words need in another language (plain JSON: seats counted from 0, cards
    and colours by their names in the game's notation).

    >>> Phrase("lead the B8", "theme.lead", {"card": "B8"}).text
    'lead the B8'
    """

    text: str
    key: str
    params: Mapping[str, RefusalParam]
