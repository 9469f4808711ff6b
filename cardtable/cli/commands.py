"""The command classes behind every ``cardtable`` command.

Two behaviours every command shares, kept out of the commands themselves:

- ``--help`` lists flags without a type beside them (typer labels a flag
  ``<bool>``, which reads as if it took a value);
- a closed output pipe (``cardtable replay --trace game.json | head``) ends
  the program quietly with status 141, as a Unix tool killed by SIGPIPE ends,
  instead of click's bare exit 1, which ``replay`` uses for "rule broken".
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

PIPE_CLOSED = 141  # 128 + SIGPIPE, what a shell reports for `yes | head`

# click's Context: typer vendors click in recent releases, under a private path
# that differs between releases, so these overrides take any context.
Context = Any


def hide_flag_types(params: list[Any]) -> list[Any]:
    """Give flags an empty type label; other parameters keep theirs."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
    def get_params(self, ctx: Context) -> list[Any]:
        return hide_flag_types(super().get_params(ctx))


class Group(TyperGroup):
    def get_params(self, ctx: Context) -> list[Any]:
        return hide_flag_types(super().get_params(ctx))

    def invoke(self, ctx: Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # a closed pipe shows here if nothing else wrote after
        except BrokenPipeError:
            _discard_stdout()
            raise typer.Exit(PIPE_CLOSED) from None


def _discard_stdout() -> None:
    """Point standard output at the null device, so that Python's own flush at
    exit finds nothing to complain about (the advice of Python's ``signal`` docs)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test runner's buffer): nothing will flush it at exit
