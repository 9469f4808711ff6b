"""Account names compared as they look: ``Dave``, ``Ｄave`` and ``Dаve`` are one.

A new name is refused when its :func:`skeleton` is that of a name already
taken (the accounts table keeps each name's skeleton, unique), and when it
mixes Latin, Greek and Cyrillic letters (:func:`mixed_script`): ``Дave``
starts with a Cyrillic De, which Unicode does not list as confusable with
a D, but no one writes a name that way except to pass for ``Dave``.

The skeleton follows Unicode Technical Standard #39 (section 4): the name in
NFKC (``Ｄ`` becomes ``D``), each character replaced by the prototype it is
confusable with (``а`` Cyrillic becomes ``a``; ``1`` and ``I`` become
``l``), case-folded (names are one whatever their case). The confusables
and the scripts are Unicode's own data, as the ``confusable-homoglyphs``
package ships them (``confusables.json``, ``categories.json``).
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables

# Scripts whose letters pass for each other's (A, Α, А): a name uses one of them.
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC"})
_ROUNDS = 4  # of normalizing and mapping: Unicode's data settles in two


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype.

    The package's table is symmetric: a character's entry lists its
    prototype, or, for a prototype, the characters confusable with it. A
    prototype is never itself mapped (TR39's mapping is idempotent), so an
    entry of one character points to its prototype, unless that character's
    entry points back: then the two are each other's only match, and the
    smaller stands for both.
    """
    # Right-to-left letters come wrapped in left-to-right marks: not part of the glyph.
    table = {
        _unmarked(char): [_unmarked(m["c"]) for m in matches]
        for char, matches in confusables.confusables_data.items()
    }
    out: dict[str, str] = {}
    for char, matches in table.items():
        if len(char) != 1 or len(matches) != 1:
            continue  # a sequence, or a prototype of several characters
        target = matches[0]
        if table.get(target) == [char]:
            target = min(char, target)
        out[char] = target
    return out


def _unmarked(text: str) -> str:
    return text.replace("\u200e", "")


def skeleton(name: str) -> str:
    """The form in which two names that look alike are equal."""
    prototypes = _prototypes()
    shown = name
    for _ in range(_ROUNDS):  # a prototype may normalize to a character that maps on
        mapped = "".join(
            prototypes.get(char, char) for char in unicodedata.normalize("NFKC", shown)
        )
        if mapped == shown:
            break
        shown = mapped
    return shown.casefold()


def mixed_script(name: str) -> bool:
    """Whether ``name`` has letters of more than one of :data:`LOOKALIKE_SCRIPTS`."""
    scripts = {categories.alias(char) for char in unicodedata.normalize("NFKC", name)}
    return len(scripts & LOOKALIKE_SCRIPTS) > 1
