"""Compiled builds of the engines' hottest modules, used only while they
match the source they were built from.

An editable install (the README's commands) compiles
the modules in :data:`COMPILED` with mypyc into ``cardtable/_compiled/<digest>/``
(``build_support/backend.py``). The digest covers every source the build
was type-checked against, so an edited engine is never shadowed by a stale
build: the import falls back to the ``.py`` file until the next install
compiles again. Set ``CARDTABLE_PURE_PYTHON=1`` to import the source
regardless (a debugger's breakpoints, mutation testing).

This module imports only the standard library: the build backend loads it
by path, before the package can be imported.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# The modules compiled, as their dotted names: the hottest loops of the
# engines and of the searches' playouts (profiled: docs/strength.md). Each
# is a module whose classes nothing subclasses or patches at run time
# (mypyc's native classes forbid both).
COMPILED = (
    "cardtable.games.marshmallow_test.state",
    "cardtable.games.myrummy_111.bots.heuristic",
)
# The folders, relative to the package root, whose sources the build depends
# on: the compiled modules' own packages and what they import.
DEPENDS_ON = (
    "core",
    "bots",
    "games/marshmallow_test",
    "games/myrummy_111",
    "games/myrummy_111/bots",
)
PURE_PYTHON_VARIABLE = "CARDTABLE_PURE_PYTHON"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
BUILDS = PACKAGE_ROOT / "_compiled"
# mypyc puts each compiled module's code in a helper module of this suffix:
# a build is every compiled module and its helper.
HELPER_SUFFIX = "__mypyc"
BUILT_MODULES = tuple(m + suffix for m in COMPILED for suffix in ("", HELPER_SUFFIX))


def source_digest(package_root: Path = PACKAGE_ROOT) -> str:
    """A digest of every source a build depends on and of the interpreter
    it was built for: a build is used only under the same digest."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for folder in DEPENDS_ON:
        for path in sorted((package_root / folder).glob("*.py")):
            digest.update(path.relative_to(package_root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build_file(build_dir: Path, module: str) -> Path:
    """Where a build keeps one compiled module (or its helper)."""
    return build_dir / (module + importlib.machinery.EXTENSION_SUFFIXES[0])


def current_build(package_root: Path = PACKAGE_ROOT) -> Path | None:
    """The folder of the build that matches today's source, if one is there
    whole; None when the engines import as Python source."""
    builds = package_root / "_compiled"
    if os.environ.get(PURE_PYTHON_VARIABLE) or not builds.is_dir():
        return None
    build_dir = builds / source_digest(package_root)
    whole = all(build_file(build_dir, name).is_file() for name in BUILT_MODULES)
    return build_dir if whole else None


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and their helpers) in one build folder;
    every other import goes on to the next finder."""

    def __init__(self, build_dir: Path) -> None:
        self.build_dir = build_dir

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in BUILT_MODULES:
            return None
        location = build_file(self.build_dir, fullname)
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(location))
        return importlib.util.spec_from_file_location(fullname, location, loader=loader)


def install() -> Path | None:
    """Put the current build, if any, ahead of the source on the import
    path; returns its folder. Called once, as the package is imported."""
    build_dir = current_build()
    if build_dir is not None and not any(isinstance(f, CompiledFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, CompiledFinder(build_dir))
    return build_dir


def is_compiled(module: ModuleType) -> bool:
    """Whether a module was loaded from a compiled build."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def in_use() -> bool:
    """Whether every module of :data:`COMPILED` runs from a compiled build
    (``cardtable --version`` says so)."""
    return all(is_compiled(importlib.import_module(name)) for name in COMPILED)
