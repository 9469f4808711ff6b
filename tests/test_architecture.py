"""The layer rules of ``shared/design/architecture.md``, read from the source.

Every module of ``cardtable/`` is parsed (``ast``, nothing imported) and its
imports, string literals and attribute reads are checked; a failure names the
file, the line and the offending import or name.

Layers, lowest first::

    core           cardtable/core, and the top-level cardtable/__init__
    games          cardtable/games/<game>/ : everything about one game
    bots           cardtable/bots/ : the bot protocol, budgets, levels (machinery)
    adapters, arena, server, analysis, learn : generic machinery over the registry
    cli            the terminal faces (may use any generic layer)

The rules:

1. ``core`` imports only ``core``.
2. A game imports only ``core`` and its own package. Its *rules modules*
   (``RULES_MODULES``: cards, moves, options, state, view, codec, scoring,
   tricks, game, manifest, determinize, ``__init__``) import nothing else at
   all beyond the standard library: no numpy, no optional extra. Its *optional
   parts* (bots, terminal drawing, observation encoder, OpenSpiel layout) may
   also import third-party packages and the generic protocols they implement,
   and only those (``PROTOCOLS``): the bot protocol (``cardtable.bots.base``,
   ``cardtable.bots``), the observation encoder protocol
   (``cardtable.adapters.observations``), the OpenSpiel layout protocol
   (``cardtable.adapters.openspiel_layout``) and the terminal UI protocol
   (``cardtable.cli.ui``). A game never imports another game.
3. The generic layers import no game module (``cardtable.games.<game>``) and
   hold no game's name in a string (docstrings aside): they reach games through
   the registry and manifests.
4. Imports go downwards or sideways only where the picture allows: ``bots``
   imports no adapters, arena, cli, server or analysis; ``adapters`` and
   ``arena`` import neither each other nor ``cli``/``server``; ``server``
   imports no ``cli``.
5. No module reads or writes another object's underscore name
   (``state._hands``) unless that name belongs to a class of the same module
   (``clone`` copying its own slots); ``self._x``/``cls._x`` are always fine.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cardtable"

RULES_MODULES = frozenset(
    {
        "__init__",
        "cards",
        "moves",
        "options",
        "state",
        "view",
        "codec",
        "scoring",
        "tricks",
        "game",
        "manifest",
        "determinize",
    }
)
PROTOCOLS = frozenset(
    {
        "cardtable.bots",
        "cardtable.bots.base",
        "cardtable.adapters.observations",
        "cardtable.adapters.openspiel_layout",
        "cardtable.cli.ui",
    }
)
GENERIC = ("bots", "adapters", "arena", "server", "analysis", "learn", "cli")
FORBIDDEN = {  # layer -> layers it may not import (besides games, rule 3)
    "bots": {"adapters", "arena", "cli", "server", "analysis"},
    "adapters": {"arena", "cli", "server"},
    "arena": {"adapters", "cli", "server"},
    "server": {"cli"},
    "analysis": {"cli", "server"},
    "learn": {"adapters", "arena", "cli", "server"},
    "cli": set(),
}
# Underscore names that are public API of the standard library.
PUBLIC_UNDERSCORE = frozenset({"_replace", "_asdict", "_fields", "_make", "_exit", "_getframe"})


@dataclass(frozen=True)
class Module:
    name: str  # dotted
    path: Path
    tree: ast.Module

    @property
    def where(self) -> str:
        return str(self.path.relative_to(ROOT))

    @property
    def layer(self) -> str:
        return layer_of(self.name)


@cache
def modules() -> tuple[Module, ...]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append(Module(name, path, ast.parse(path.read_text(encoding="utf-8"), str(path))))
    return tuple(found)


def is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def layer_of(dotted: str) -> str:
    """``core``, ``game:<name>``, ``games``, a generic layer, or ``other``."""
    parts = dotted.split(".")
    if parts[0] != "cardtable":
        return "other"
    if len(parts) == 1 or parts[1] in ("core", "__main__"):
        return "core" if len(parts) == 1 or parts[1] == "core" else "cli"
    if parts[1] == "games":
        return f"game:{parts[2]}" if len(parts) > 2 else "games"
    return parts[1] if parts[1] in GENERIC else "other"


def imports(module: Module) -> Iterator[tuple[int, str]]:
    """(line, dotted module) for every import, relative ones resolved."""
    package = module.name if module.path.name == "__init__.py" else module.name.rpartition(".")[0]
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield node.lineno, sub if is_module(sub) else base


def docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def game_words() -> set[str]:
    """The built-in games' names and package names, as a generic layer must not spell them."""
    words = set()
    for path in (PACKAGE / "games").iterdir():
        if (path / "manifest.py").is_file():
            words.add(path.name.split("_")[0].lower())
    return words


def report(violations: list[str]) -> str:
    unique = sorted(set(violations), key=lambda v: (v.split(":")[0], int(v.split(":")[1]), v))
    return f"{len(unique)} violation(s):\n" + "\n".join(unique)


# ---------------------------------------------------------------- the rules


def test_core_imports_only_core() -> None:
    bad = [
        f"{m.where}:{line}: core imports {target} ({layer_of(target)})"
        for m in modules()
        if m.layer == "core"
        for line, target in imports(m)
        if layer_of(target) not in ("core", "other")
    ]
    assert not bad, report(bad)


def test_games_import_only_core_their_own_package_and_protocols() -> None:
    stdlib = sys.stdlib_module_names
    bad = []
    for m in modules():
        if not m.layer.startswith("game:"):
            continue
        rules = m.path.stem in RULES_MODULES and m.path.parent.parent.name == "games"
        for line, target in imports(m):
            kind = layer_of(target)
            top = target.split(".")[0]
            if kind in ("core", m.layer) or top in stdlib or top == "__future__":
                continue
            if rules:
                bad.append(f"{m.where}:{line}: rules module imports {target}")
            elif kind != "other" and target not in PROTOCOLS:
                bad.append(f"{m.where}:{line}: {m.layer} imports {target} ({kind})")
    assert not bad, report(bad)


def test_generic_layers_import_no_game() -> None:
    bad = [
        f"{m.where}:{line}: {m.layer} imports {target}"
        for m in modules()
        if m.layer in GENERIC
        for line, target in imports(m)
        if layer_of(target).startswith("game:")
    ]
    assert not bad, report(bad)


def test_generic_layers_name_no_game() -> None:
    words = game_words()
    assert words >= {"marshmallow", "myrummy"}  # the check looks for something real
    bad = []
    for m in modules():
        if m.layer not in GENERIC:
            continue
        skip = docstrings(m.tree)
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                hits = sorted(w for w in words if w in node.value.lower())
                if hits and id(node) not in skip:
                    bad.append(f"{m.where}:{node.lineno}: names {hits[0]}: {node.value[:60]!r}")
    assert not bad, report(bad)


def test_layers_import_downwards() -> None:
    bad = [
        f"{m.where}:{line}: {m.layer} imports {target} ({layer_of(target)})"
        for m in modules()
        if m.layer in FORBIDDEN
        for line, target in imports(m)
        if layer_of(target) in FORBIDDEN[m.layer]
    ]
    assert not bad, report(bad)


def own_private_names(tree: ast.Module) -> set[str]:
    """Underscore names a module's own classes define: slots, attributes set
    on ``self``/``cls``, methods and class attributes."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                    names.update(t.id for t in targets if isinstance(t, ast.Name))
                    if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets):
                        names.update(
                            c.value
                            for c in ast.walk(item)
                            if isinstance(c, ast.Constant) and isinstance(c.value, str)
                        )
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            names.add(node.attr)
    return {n for n in names if n.startswith("_") and not n.endswith("__")}


def test_no_underscore_access_into_other_modules_objects() -> None:
    bad = []
    for m in modules():
        own = own_private_names(m.tree)
        for node in ast.walk(m.tree):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            name = node.attr
            if name.endswith("__") or name in own or name in PUBLIC_UNDERSCORE:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            bad.append(f"{m.where}:{node.lineno}: reads or writes {ast.unparse(node)}")
    assert not bad, report(bad)


# ---------------------------------------------------------------- the checker itself


def test_the_checks_see_real_imports_and_names() -> None:
    by_name = {m.name: m for m in modules()}
    registry = dict(imports(by_name["cardtable.core.registry"]))
    assert "cardtable.core.manifest" in registry.values()
    assert layer_of("cardtable.games.myrummy_111.state") == "game:myrummy_111"
    assert layer_of("cardtable.bots.base") == "bots" and layer_of("numpy") == "other"
    tree = ast.parse("class S:\n    __slots__ = ('_a',)\n    def f(self, o):\n        o._b\n")
    assert own_private_names(tree) == {"_a"}
