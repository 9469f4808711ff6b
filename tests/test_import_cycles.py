"""No import circle among cardtable's modules (issue 19).

A circle (``a`` imports ``b``, which imports ``a``) works only while some
import in it stays inside a function or below the names the other side needs,
and breaks when someone tidies the imports; it also says two modules are one
job split in two. The modules are read with ``ast`` as
``tests/test_architecture.py`` reads them (nothing is imported), every import
counted, those inside functions and ``TYPE_CHECKING`` blocks too. An edge goes
to the module named; importing ``a.b.c`` also runs the packages ``a`` and
``a.b``, but those are not counted as imports of the package: otherwise every
module would sit in a circle with any ``__init__`` that re-exports it.
"""

from __future__ import annotations

from collections.abc import Mapping

from tests.test_architecture import imports, modules

Graph = Mapping[str, frozenset[str]]


def import_graph() -> dict[str, frozenset[str]]:
    """Each cardtable module and the cardtable modules it imports."""
    names = {m.name for m in modules()}
    return {
        m.name: frozenset(t for _, t in imports(m) if t in names and t != m.name) for m in modules()
    }


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan), each as one
    circle through the group, written ``a → b → … → a``'s list ``[a, b, …]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                group.append(w)
            if group:
                found.append(circle_through({v, *group}, graph, start=v))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def circle_through(group: set[str], graph: Graph, start: str) -> list[str]:
    """One path ``start → … → start`` inside ``group`` (breadth first: the shortest)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & group):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return path[::-1]
                if w not in came_from:
                    came_from[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"{start} is in a strongly connected group but on no circle")


def named(circle: list[str]) -> str:
    short = [m.removeprefix("cardtable.").replace(".", "/") for m in circle]
    return " → ".join([*short, short[0]])


def test_the_circle_finder_names_a_circle_and_only_circles() -> None:
    graph = {
        "a": frozenset({"b"}),
        "b": frozenset({"c", "d"}),
        "c": frozenset({"a"}),
        "d": frozenset({"e"}),
        "e": frozenset({"d"}),
        "f": frozenset({"a"}),
    }
    assert [named(c) for c in circles(graph)] == ["a → b → c → a", "d → e → d"]
    assert circles({"a": frozenset({"b"}), "b": frozenset()}) == []


def test_the_graph_holds_the_imports_read_from_the_source() -> None:
    graph = import_graph()
    assert "cardtable.core.errors" in graph["cardtable.core.registry"]  # at the top
    assert "cardtable.server.app" in graph["cardtable.cli.serve_cmd"]  # inside a function
    # ``from package import name`` is an import of the package's __init__.
    assert "cardtable.bots" in graph["cardtable.cli.play"]


def test_no_import_circles() -> None:
    found = circles(import_graph())
    assert not found, f"{len(found)} import circle(s):\n" + "\n".join(map(named, found))
