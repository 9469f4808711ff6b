"""Every refusal a game with a browser board can give is worded in English, German and French.

The keys are not listed by hand: seeded games of every game are walked, and at
every position each seat's ``explain`` names the refusal of every action of
the action space (plus a state awaiting its first deal and each finished
game). Each key seen must have ``refusal.<key>`` in the game's three
catalogs, each catalog's placeholders must be facts the refusal gives, and a
catalog words no refusal that the engine never gives.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.core import registry
from cardtable.core.game import Move, State
from cardtable.games.myrummy_111.moves import Take

LANGUAGES = ("en", "de", "fr")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Options that reach refusals the defaults never give (MT-5.4's "must" variant).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "marshmallow-test": [{}, {"trump_after_ruff": "must"}],
    "myrummy-111": [{}],
}
# Moves outside the action space that a message may still name (a take from slot 3).
OUTSIDE: dict[str, list[Callable[[State], Move]]] = {"myrummy-111": [lambda _: Take(3)]}


def refusal_words(game: str, lang: str) -> dict[str, str]:
    m = registry.manifest(game)
    folder = Path(str(files(m.package or ""))) / Path(m.web_client or "").parent
    words = json.loads((folder / f"i18n.{lang}.json").read_text("utf-8"))
    return {k[len("refusal.") :]: v for k, v in words.items() if k.startswith("refusal.")}


def seen_refusals(name: str) -> dict[str, set[str]]:
    """Each refusal key the engine gave in seeded games, with its parameters' names."""
    seen: dict[str, set[str]] = {}

    def note(state: State) -> None:
        for seat in range(state.game.num_players):
            for e in state.explain(seat):  # type: ignore[attr-defined]
                if not e.legal:
                    assert e.key is not None, (name, e)
                    seen.setdefault(e.key, set()).update(e.params or {})
            for make in OUTSIDE.get(name, []):
                refused = state.refusal(seat, make(state))  # type: ignore[attr-defined]
                if refused is not None:
                    seen.setdefault(refused.key, set()).update(refused.params)

    sizes = registry.manifest(name).players
    for options in VARIANTS.get(name, [{}]):
        game = cardtable.load(name, players=3 if 3 in sizes else min(sizes), **options)
        note(game.new_state())  # awaiting the first deal
        for seed in range(3):
            rng = random.Random(seed)
            state = game.new_game(random.Random(seed))
            while not state.finished:
                note(state)
                state.apply(rng.choice(state.legal_moves()))
            note(state)
    return seen


@pytest.mark.parametrize("name", cardtable.game_names())
def test_every_refusal_a_game_gives_is_worded_in_every_language(name: str) -> None:
    if not registry.manifest(name).has("web_client"):
        pytest.skip(f"{name} has no browser board: no catalog words its refusals")
    seen = seen_refusals(name)
    assert len(seen) >= 10  # out of turn, every rule of a move, a deal due, the game over
    for lang in LANGUAGES:
        words = refusal_words(name, lang)
        assert sorted(words) == sorted(seen), (lang, set(words) ^ set(seen))
        for key, text in words.items():
            # A list of cards gives "count" too (for plural forms).
            given = seen[key] | ({"count"} if "cards" in seen[key] else set())
            assert set(PLACEHOLDER.findall(text)) <= given, (lang, key, text)
