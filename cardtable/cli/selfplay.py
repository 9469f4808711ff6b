"""What the commands that play many bot games (``arena``, ``balance``) share.

Their common options are declared once here, so that the two commands keep
the same flags with the same help; so are the search-budget check, the
progress bar, the mapping of a run's errors to ``error:`` lines, and the
notes they print on stderr (so that ``--json`` output stays one object).
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cardtable.bots import Budget
from cardtable.cli.common import fail
from cardtable.core.errors import CardtableError

GameArgument = Annotated[
    str, typer.Argument(metavar="GAME", help="the game (`cardtable games` lists them)")
]
Seed = Annotated[
    int | None, typer.Option(help="seed for every deal and bot: a run replays exactly")
]
Jobs = Annotated[int, typer.Option("--jobs", "-j", help="local worker processes")]
RayAddress = Annotated[
    str | None,
    typer.Option("--ray", metavar="ADDRESS", help="run on a Ray cluster ('local' starts one)"),
]
Iterations = Annotated[int | None, typer.Option(help="search iterations per decision")]
JsonOutput = Annotated[bool, typer.Option("--json", help="print one JSON object")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")]


def search_budget(budget_ms: float | None, iterations: int | None) -> Budget | None:
    """The search bots' budget from ``--budget-ms`` and ``--iterations``; ``None``
    (each bot's own default) when neither is given. A bad value is an ``error:``."""
    if budget_ms is not None and not 0 < budget_ms < math.inf:
        raise fail(f"--budget-ms {budget_ms:g}: give a positive time")
    if iterations is not None and iterations < 1:
        raise fail(f"--iterations {iterations}: give at least 1")
    if budget_ms is None and iterations is None:
        return None
    return Budget(None if budget_ms is None else budget_ms / 1000, iterations)


def installed(*modules: str) -> bool:
    """Whether every module can be imported, without the cost of importing it."""
    return all(importlib.util.find_spec(name) is not None for name in modules)


@contextmanager
def run_errors(user_errors: tuple[type[Exception], ...], stopped: str) -> Iterator[None]:
    """Turn what can stop a run into one ``error:`` line: the user's mistakes
    (``user_errors``) exit 2, anything else the games or bots raise exits 1
    (not the user's fault), and Ctrl-C exits 130 with ``stopped``."""
    try:
        yield
    except user_errors as exc:
        raise fail(str(exc)) from None
    except CardtableError as exc:
        raise fail(str(exc), code=1) from None
    except KeyboardInterrupt:
        raise fail(stopped, code=130) from None


def write_failed(exc: OSError) -> typer.Exit:
    """The ``error:`` exit (code 1) for a result file that could not be written."""
    return fail(f"cannot write {exc.filename}: {exc.strerror}", code=1)


def note(text: str) -> None:
    """A line for the person on stderr, like the progress bar, so that stdout
    holds only the results."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(text)


@contextmanager
def progress_bar(console: Console, total: int, quiet: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar of games on stderr with the time left (nothing when
    quiet); the caller advances it by the games just finished."""
    bar = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
        transient=True,
    )
    task_id = bar.add_task("games", total=total)

    def advance(count: int) -> None:
        bar.advance(task_id, count)

    with bar:
        yield advance
