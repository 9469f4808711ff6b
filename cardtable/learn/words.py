"""The words lessons and puzzles share across games, per language (``words/<lang>.json``).

Each language's file has the same keys as English (a test keeps them
alike); a value is a ``str.format`` template with named fields.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

__all__ = ["WORD_LANGUAGES", "words"]

WORD_LANGUAGES = ("de", "en", "fr")


@cache
def words(language: str) -> dict[str, str]:
    """The shared words in ``language`` (English for a language without them)."""
    name = f"{language if language in WORD_LANGUAGES else 'en'}.json"
    text = resources.files("cardtable.learn").joinpath("words", name).read_text(encoding="utf-8")
    loaded: dict[str, str] = json.loads(text)
    return loaded
