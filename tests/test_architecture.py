"""The layer rules of ``docs/architecture.md``, read from the doc and the source.

The doc's layer table ("Which layer may import which") is the rule: this
file parses it (:func:`layer_table`: the backquoted names of its cells), so
the doc and the checks cannot drift apart. Every module of ``cardtable/``
is parsed (``ast``, nothing imported) and its imports, string literals and
attribute reads are checked; a failure names the file, the line and the
offending import or name.

Layers, lowest first::

    core           cardtable/core, and the top-level cardtable/__init__
    games          cardtable/games/<game>/ : everything about one game
    bots           cardtable/bots/ : the bot protocol, budgets, levels (machinery)
    adapters, arena, balance, tournament, conformance, server, analysis, learn : generic
                   machinery over the registry
    cli            the terminal faces (may use any generic layer)

The rules:

1. ``core`` and each generic layer import only the layers its row of the
   table names (besides itself, the standard library and third-party
   packages); where a row says "`layer` through `module` only", that module
   is the one door into the layer (the server reaches the analysis only
   through ``cardtable.analysis``).
2. A game imports only ``core`` and its own package. Its *rules modules*
   (the table's list) import nothing else at all beyond the standard
   library: no numpy, no optional extra. Its *optional parts* (bots,
   terminal drawing, observation encoder, OpenSpiel layout) may also import
   third-party packages and the generic protocols they implement (the
   table's list), and only those. A game never imports another game.
3. The generic layers import no game module (``cardtable.games.<game>``) and
   hold no game's name in a string (docstrings aside): they reach games through
   the registry and manifests.
4. No module reads or writes another object's underscore name
   (``state._hands``) unless that name belongs to a class of the same module
   (``clone`` copying its own slots); ``self._x``/``cls._x`` are always fine.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cardtable"
DOC = ROOT / "docs" / "architecture.md"

GENERIC = (
    "bots",
    "adapters",
    "arena",
    "balance",
    "tournament",
    "conformance",
    "server",
    "analysis",
    "learn",
    "cli",
)
_TICKED = re.compile(r"`([^`]+)`")
_ALLOWED = re.compile(r"`([\w.]+)`(?: through `([\w.]+)`)?")


@dataclass(frozen=True)
class LayerTable:
    """What the doc's layer table says."""

    rules_modules: frozenset[str]
    protocols: frozenset[str]  # dotted modules a game's optional parts may import
    allowed: dict[str, frozenset[str]]  # layer -> the other layers it may import
    doors: dict[tuple[str, str], str]  # (layer, layer it imports) -> the one module open


@cache
def layer_table() -> LayerTable:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    first = lines.index("| layer | may import |") + 2  # past the header and its rule
    rules: frozenset[str] = frozenset()
    protocols: frozenset[str] = frozenset()
    allowed: dict[str, frozenset[str]] = {}
    doors: dict[tuple[str, str], str] = {}
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        who, may = (cell.strip() for cell in line.strip().strip("|").split("|"))
        if who.startswith("a game's rules modules"):
            rules = frozenset(_TICKED.findall(who))
        elif who.startswith("a game's optional parts"):
            protocols = frozenset(f"cardtable.{name}" for name in _TICKED.findall(may))
        else:
            if may == "every generic layer":
                layers = {"core", *GENERIC}
            else:
                layers = set()
                for layer, door in _ALLOWED.findall(may):
                    layers.add(layer)
                    for each in _TICKED.findall(who):
                        if door:
                            doors[(each, layer)] = door
            for each in _TICKED.findall(who):
                allowed[each] = frozenset(layers - {each})
    return LayerTable(rules, protocols, allowed, doors)


SERVER_DOC = ROOT / "docs" / "server.md"
SERVER = PACKAGE / "server"


@cache
def server_floors() -> dict[str, frozenset[str]]:
    """The floors table of ``docs/server.md``: floor -> the other floors it may import."""
    lines = SERVER_DOC.read_text(encoding="utf-8").splitlines()
    first = lines.index("| floor | may import |") + 2
    rows: dict[str, set[str]] = {}
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        who, may = (cell.strip() for cell in line.strip().strip("|").split("|"))
        for floor in _TICKED.findall(who):
            rows[floor] = set(_TICKED.findall(may))
    every = set(rows)
    return {
        floor: frozenset((every if may == set() and floor == "app" else may) - {floor})
        for floor, may in rows.items()
    }


def floor_of(dotted: str) -> str | None:
    """A server module's floor: its folder, ``app``, or ``base`` (the other top-level
    modules); None outside the server."""
    parts = dotted.split(".")
    if parts[:2] != ["cardtable", "server"] or len(parts) < 3:
        return None
    if (SERVER / parts[2]).is_dir():
        return parts[2]
    return "app" if parts[2] == "app" else "base"


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


def test_layers_import_only_what_the_doc_table_allows() -> None:
    table = layer_table()
    bad = []
    for m in modules():
        allowed = table.allowed.get(m.layer)
        if allowed is None:
            continue  # games: the next test
        for line, target in imports(m):
            kind = layer_of(target)
            if kind in ("other", m.layer) or kind.startswith("game"):
                continue  # games: test_generic_layers_import_no_game
            door = table.doors.get((m.layer, kind))
            if kind not in allowed:
                bad.append(f"{m.where}:{line}: {m.layer} imports {target} ({kind})")
            elif door is not None and target != door:
                bad.append(f"{m.where}:{line}: {m.layer} imports {target}; only {door} is open")
    assert not bad, report(bad)


def test_games_import_only_core_their_own_package_and_protocols() -> None:
    table = layer_table()
    stdlib = sys.stdlib_module_names
    bad = []
    for m in modules():
        if not m.layer.startswith("game:"):
            continue
        rules = m.path.stem in table.rules_modules and m.path.parent.parent.name == "games"
        for line, target in imports(m):
            kind = layer_of(target)
            top = target.split(".")[0]
            if kind in ("core", m.layer) or top in stdlib or top == "__future__":
                continue
            if rules:
                bad.append(f"{m.where}:{line}: rules module imports {target}")
            elif kind != "other" and target not in table.protocols:
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


def test_server_modules_import_only_their_floor_and_the_floors_below() -> None:
    floors = server_floors()
    bad = []
    for m in modules():
        mine = floor_of(m.name)
        if mine is None:
            continue
        for line, target in imports(m):
            theirs = floor_of(target)
            if theirs is None or theirs == mine or theirs in floors[mine]:
                continue
            bad.append(f"{m.where}:{line}: the {mine} floor imports {target} ({theirs})")
    assert not bad, report(bad)


def test_the_server_floors_table_names_every_folder_and_runs_one_way() -> None:
    floors = server_floors()
    folders = {p.name for p in SERVER.iterdir() if (p / "__init__.py").is_file()}
    assert set(floors) == folders | {"base", "app"}
    assert floors["app"] == set(floors) - {"app"} and floors["base"] == frozenset()
    # No circle between floors: each may import only floors that may not import it back.
    for floor, below in floors.items():
        for other in below:
            assert floor not in floors[other], (floor, other)


def test_no_two_server_modules_differ_only_by_a_plural_or_a_prefix() -> None:
    """``schema`` beside ``schemas``, or ``account_schema`` beside ``schema``, says
    nothing of which is which. The one prefix allowed is a Redis twin's:
    ``redis_store`` beside ``store``, in the same folder."""
    paths = [p for p in SERVER.rglob("*.py") if p.stem != "__init__" and "versions" not in p.parts]
    stems = {p.stem: p.parent for p in paths}
    assert len(stems) == len(paths), "two server modules share a name"
    clashes = []
    for a, folder in stems.items():
        for b in stems:
            if a == b:
                continue
            if a.rstrip("s") == b.rstrip("s"):
                clashes.append(f"{a} / {b}: only a plural apart")
            elif a.endswith("_" + b):
                if a != "redis_" + b:
                    clashes.append(f"{a} / {b}: only a prefix apart")
                elif stems[b] != folder:
                    clashes.append(f"{a} is {b}'s Redis twin but lives in another folder")
    assert not clashes, clashes


def test_the_doc_table_names_every_layer_and_real_modules() -> None:
    table = layer_table()
    assert set(table.allowed) == {"core", *GENERIC}
    assert table.allowed["core"] == frozenset() and table.allowed["bots"] == {"core"}
    assert table.allowed["cli"] == {"core", *GENERIC} - {"cli"}
    assert table.doors == {("server", "analysis"): "cardtable.analysis"}
    games = [p for p in (PACKAGE / "games").iterdir() if (p / "manifest.py").is_file()]
    for name in table.rules_modules:  # each a module some game has
        assert any((g / f"{name}.py").is_file() for g in games), name
    assert {"state", "view", "codec", "__init__"} <= table.rules_modules
    for dotted in (*table.protocols, *table.doors.values()):
        assert is_module(dotted), dotted


def test_the_checks_see_real_imports_and_names() -> None:
    by_name = {m.name: m for m in modules()}
    registry = dict(imports(by_name["cardtable.core.registry"]))
    assert "cardtable.core.manifest" in registry.values()
    assert layer_of("cardtable.games.myrummy_111.state") == "game:myrummy_111"
    assert layer_of("cardtable.bots.base") == "bots" and layer_of("numpy") == "other"
    tree = ast.parse("class S:\n    __slots__ = ('_a',)\n    def f(self, o):\n        o._b\n")
    assert own_private_names(tree) == {"_a"}
