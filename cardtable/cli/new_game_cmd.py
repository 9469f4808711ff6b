"""``cardtable new-game NAME``: write the skeleton of a game package.

The skeleton is a small but whole game (the highest card takes the trick)
from the template that ships inside cardtable (``cardtable/templates/new_game``,
package data): a ``pyproject.toml`` whose entry point names the manifest, the
package (options with maxima, moves, codec, view, engine, manifest, two bots,
``rules.md``) and a README with the next steps. It installs, is listed by
``cardtable games`` and keeps every promise of ``cardtable conformance NAME``
before its author changes a line (``docs/plugins.md``).

Exit 0 when written; 2 for a bad name or a directory that exists already
(nothing is overwritten).
"""

from __future__ import annotations

import importlib.util
import keyword
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated

import typer

from cardtable.cli.common import fail
from cardtable.core.registry import game_names

#: A new game's name: lowercase words of letters and digits joined by single
#: hyphens or underscores, starting with a letter (a command-line word, a URL
#: segment, and, with underscores, the Python package's name).
NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
SUFFIX = ".tmpl"
PACKAGE_FOLDER = "package"  # the template's folder that becomes the package


@dataclass(frozen=True)
class Words:
    """What the template's ``{{…}}`` marks become for one game."""

    name: str  # my-game: the registry's name, the entry point's
    package: str  # my_game: the import name
    title: str  # My Game
    prefix: str  # MG: the letters of the rule numbers (MG-2.1)
    dist: str  # cardtable-my-game: the distribution

    @classmethod
    def of(cls, name: str) -> Words:
        words = re.split(r"[-_]", name)
        letters = [re.sub(r"[^a-z]", "", w) for w in words]
        initials = "".join(w[0] for w in letters if w)
        prefix = (initials if len(initials) >= 2 else "".join(letters)[:2]).upper().ljust(2, "G")
        return cls(
            name=name,
            package=name.replace("-", "_"),
            title=" ".join(w.capitalize() for w in words),
            prefix=prefix[:2],
            dist=f"cardtable-{name}",
        )

    def fill(self, text: str) -> str:
        for key, value in vars(self).items():
            text = text.replace("{{" + key + "}}", value)
        return text


def form_problem(name: str) -> str | None:
    """Why ``name`` cannot be written as a game's name, or ``None``."""
    if not NAME.fullmatch(name):
        return (
            f"{name!r} is not a game name: use lowercase letters and digits, words joined"
            " by '-' or '_', starting with a letter (e.g. my-game)"
        )
    package = name.replace("-", "_")
    if keyword.iskeyword(package):
        return f"{name!r} is not a game name: {package!r} is a Python keyword"
    return None


def taken_problem(name: str) -> str | None:
    """Why a well-formed ``name`` is taken already, or ``None``."""
    package = name.replace("-", "_")
    if name in game_names():
        return f"{name!r} is taken: a game of that name is installed (`cardtable games`)"
    if importlib.util.find_spec(package) is not None:
        return f"{name!r} is taken: a module named {package!r} is importable already"
    return None


def template() -> Traversable:
    return resources.files("cardtable").joinpath("templates", "new_game")


def write_skeleton(words: Words, target: Path) -> list[Path]:
    """The template filled in for ``words``, written under ``target`` (which
    must not exist); the files written, in order."""
    written: list[Path] = []

    def copy(folder: Traversable, into: Path) -> None:
        into.mkdir(parents=True)
        for item in sorted(folder.iterdir(), key=lambda i: i.name):
            if item.is_dir():
                name = words.package if item.name == PACKAGE_FOLDER else item.name
                copy(item, into / name)
            elif item.name.endswith(SUFFIX):
                path = into / item.name.removesuffix(SUFFIX)
                path.write_text(words.fill(item.read_text(encoding="utf-8")), encoding="utf-8")
                written.append(path)

    copy(template(), target)
    return written


def new_game(
    name: Annotated[str, typer.Argument(metavar="NAME", help="the game's name, e.g. my-game")],
    directory: Annotated[
        Path | None,
        typer.Option(
            "--dir", help="where to write it (default: ./NAME with '_' for '-'); must not exist"
        ),
    ] = None,
) -> None:
    """Write a new game's package: a small playable game to change into yours."""
    problem = form_problem(name)
    words = Words.of(name)
    target = directory if directory is not None else Path(words.package)
    if problem is None and target.exists():
        problem = f"{target}: exists already; choose another --dir (nothing was written)"
    problem = problem or taken_problem(name)
    if problem is not None:
        raise fail(problem)
    written = write_skeleton(words, target)
    print(f"wrote {words.title} ({name}) to {target}/: {len(written)} files")
    print("next, in the environment where cardtable is installed:")
    print(f"  python3 -m pip install -e {target} --no-deps")
    print(f"  cardtable conformance {name}")
    print(f"  cardtable play {name}")
    print(f"then read {target / 'README.md'} and cardtable's docs/plugins.md")
