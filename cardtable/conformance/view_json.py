"""Promises about views read from JSON: taken exactly as written, or refused
saying where.

The view format (``view.to_json()`` / ``game.view_from_json()``) comes from a
network message or a file, so every malformed field gets the game's
:class:`~cardtable.core.errors.RecordError` naming it, never a traceback and
never a silently different view. Real views (every seat and the spectator, in
both phases of the first turns, mid-game and after the end, at the smallest
and largest table) are corrupted field by field: a value of the wrong type, a
negative or far too large number, a list one entry short or long, a missing or
an unknown key. Each corrupted view must be

- refused with a RecordError whose ``where`` is the corrupted field's path
  (``view.history[0].seat``), a path inside the corrupted value (an entry of
  a replaced list), or an object below the whole view that holds the field
  (a check of a value as a whole, like a list of options); a missing or
  unknown key is refused at the object that misses it or has it; or
- accepted, and the view read writes back exactly the JSON it was read from.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from cardtable.conformance.probe import Probe
from cardtable.core.errors import RecordError
from cardtable.core.game import Game
from cardtable.core.registry import load, manifest

Path = tuple[str | int, ...]


def path_text(path: Path) -> str:
    """The path as errors write it: ``view.history[0].seat``."""
    return "view" + "".join(f".{k}" if isinstance(k, str) else f"[{k}]" for k in path)


def sample_views(name: str, probe: Probe) -> Iterator[tuple[Game, bool, dict[str, Any]]]:
    """Views of random games of ``name`` as JSON (every seat and the
    spectator), with their game and whether the game is over."""
    sizes = manifest(name).players
    for players in sorted({min(sizes), max(sizes)}):
        for seed in probe.seeds:
            probe.at(players=players, seed=seed + players)
            game = load(name, players=players)
            rng = random.Random(seed + players)
            state = game.new_game(random.Random(seed + players))
            for step in range(100_000):
                probe.at(decision=step)
                if state.finished or step in (0, 1, 2, 41):
                    for seat in [None, *range(players)]:
                        yield game, state.finished, state.view(seat).to_json()
                if state.finished:
                    break
                legal = state.legal_moves()
                state.apply(legal[rng.randrange(len(legal))])
    probe.at(players=None, seed=None, decision=None)


def fields(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every field under ``value`` with its path; of a list, its first and last
    entry only (the entries of a list are read alike)."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from fields(item, (*path, key))
    elif isinstance(value, list) and value:
        for i in sorted({0, len(value) - 1}):
            yield from fields(value[i], (*path, i))


def wrong_values(value: Any) -> list[Any]:
    """Replacements for ``value``: of another type, out of any range, resized."""
    if isinstance(value, bool):
        return [0, 1, "true", None]
    if isinstance(value, int):
        return ["7", True, 1.5, None, -1, 10**9]
    if isinstance(value, str):
        return [7, "", "no such value", None]
    if value is None:
        return ["x", -1, 10**9, [], {}]
    if isinstance(value, list):
        resized = [value[:-1], value + value[-1:]] if value else [[0]]
        return ["x", {}, *resized]
    return [[], "x"]


DROP = object()  # as the value to put: remove the key instead


def replaced(doc: Any, path: Path, value: Any) -> Any:
    """``doc`` with ``value`` at ``path``; the containers on the path are
    copied, the rest is shared (the parsers only read)."""
    if not path:
        return value
    key, rest = path[0], path[1:]
    new: Any = dict(doc) if isinstance(doc, dict) else list(doc)
    if rest:
        new[key] = replaced(doc[key], rest, value)
    elif value is DROP:
        del new[key]
    else:
        new[key] = value
    return new


def corruptions(doc: dict[str, Any]) -> Iterator[tuple[Path, str, Any]]:
    """``(path, how, corrupted doc)``: each field of ``doc`` made wrong in turn."""
    for path, value in fields(doc):
        for wrong in wrong_values(value):
            resized = isinstance(value, list) and isinstance(wrong, list)
            how = f"resized to {len(wrong)}" if resized else f"set to {wrong!r}"
            yield path, how, replaced(doc, path, wrong)
        if isinstance(value, dict):
            for key in value:
                yield path, f"key {key!r} dropped", replaced(doc, (*path, key), DROP)
            yield path, "key added", replaced(doc, (*path, "no_such_key"), 0)


def well_placed(where: str, path: Path, how: str) -> bool:
    """Does an error at ``where`` name the field at ``path`` (see the module doc)?"""
    field = path_text(path)
    if where == field:
        return True
    if how.startswith("key "):
        return False
    if how.startswith("resized") and parent(where) == parent(field):
        return True  # a field whose length must agree with the resized list
    inside = where.startswith((field + ".", field + "["))
    holder = where != "view" and field.startswith((where + ".", where + "["))
    return inside or holder


def parent(where: str) -> str:
    return where[: max(where.rfind("."), where.rfind("["))]


def check(game: Game, doc: dict[str, Any]) -> tuple[int, list[str]]:
    """How many corruptions of ``doc`` were refused, and what went wrong."""
    refused, found = 0, []
    for path, how, bad in corruptions(doc):
        field = path_text(path)
        try:
            view = game.view_from_json(bad)
        except RecordError as exc:
            refused += 1
            says = isinstance(exc.reason, str) and exc.reason and exc.where in str(exc)
            if not (says and well_placed(exc.where, path, how)):
                found.append(f"{field} {how}: refused at {exc.where!r}: {exc.reason!r}")
            continue
        written = json.dumps(view.to_json(), sort_keys=True)
        if written != json.dumps(bad, sort_keys=True):
            found.append(f"{field} {how}: read, but written back as {written[:300]}")
    return refused, found


def read_back(name: str, probe: Probe) -> None:
    """The views themselves, finished games included, write back unchanged."""
    over = set()
    for game, finished, doc in sample_views(name, probe):
        view = game.view_from_json(doc)
        probe.require(view.to_json() == doc, "a view read from its JSON writes other JSON")
        again = game.view_from_json(json.loads(json.dumps(doc)))
        probe.require(again == view, "a view read from its JSON text differs")
        over.add(finished)
    probe.require(over == {True, False}, "no view of both a game going on and one finished")


def refusals(name: str, probe: Probe) -> None:
    found: list[str] = []
    refused, first = 0, ""
    for game, _, doc in sample_views(name, probe):
        some, wrong = check(game, doc)
        refused += some
        if wrong and not found:
            first = probe.where()
        found += wrong
    if found:
        shown = "; ".join(sorted(set(found))[:5])
        probe.fail(f"{len(set(found))} corrupted views, first at {first}: {shown}")
    probe.require(refused, "no corruption was refused: the checks were not reached")
