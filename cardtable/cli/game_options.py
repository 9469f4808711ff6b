"""What the games' manifests add to the commands that take a GAME.

``play`` and ``arena`` know no game. When they run or show their help, the
manifests are read (never at import, so a plugin game is found like a
built-in one) and give:

- ``--<option> FILE`` for every rules option a manifest can read from a file
  (``OptionHelp.from_file``), e.g. ``--symbols FILE``;
- the ``--players/-p`` help, with each game's player counts and default;
- the epilog of ``--help``: each game's ``-o`` options with their defaults
  (``OptionHelp.default``).
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from cardtable.cli.commands import Command, Context
from cardtable.cli.common import fail
from cardtable.core.errors import CardtableError
from cardtable.core.manifest import Derived, GameManifest, OptionHelp, resolve
from cardtable.core.registry import manifest, manifests

FILE_VALUES = "cardtable.file_options"  # key in ``ctx.meta``: option name -> Path or None
_PREFIX = "from_file__"  # the parameters' names: no command parameter is called so


@dataclass(frozen=True)
class FileOption:
    """``--<flag> FILE``, offered by the games in ``games``."""

    name: str  # the rules option, e.g. ``symbols``
    games: tuple[str, ...]
    help: str

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


def file_options() -> list[FileOption]:
    """Every option some game reads from a file, in registry order."""
    found: dict[str, FileOption] = {}
    for game in manifests().values():
        for option in game.options:
            if option.from_file is None:
                continue
            seen = found.get(option.name)
            games = (*seen.games, game.name) if seen else (game.name,)
            text = f"{game.title}: read from FILE, {option.help}"
            found[option.name] = FileOption(
                option.name, games, f"{seen.help}; {text}" if seen else text
            )
    return list(found.values())


def default_text(option: OptionHelp) -> str | None:
    """The option's default as ``-o`` reads it (strings bare, other values as
    JSON), the words of a derived default, or ``None`` where none is stated.

    >>> default_text(OptionHelp("trump_after_ruff", "…", default="may"))
    'may'
    >>> default_text(OptionHelp("rounds", "…", default=None))
    'null'
    """
    if isinstance(option.default, Derived):
        return option.default.how
    if not option.has_default:
        return None
    return option.default if isinstance(option.default, str) else json.dumps(option.default)


def players_range(game: GameManifest) -> str:
    low, high = min(game.players), max(game.players)
    return str(low) if low == high else f"{low} to {high}"


def players_help() -> str:
    per_game = ", ".join(
        f"{g.name} {players_range(g)} (default {g.default_players})" for g in manifests().values()
    )
    return f"number of players; {per_game}"


def epilog() -> str:
    """Each game's options, one paragraph per game (rich prints one per line)."""
    paragraphs = ["Game options (`cardtable games` explains them):"]
    for game in manifests().values():
        words = [_with_default(f"-o {o.name}", o) for o in game.options]
        words += [f"{f.flag} FILE" for f in file_options() if game.name in f.games]
        paragraphs.append(f"{game.name}: {', '.join(words)}")
    return "\n\n".join(paragraphs)


def _with_default(words: str, option: OptionHelp) -> str:
    """``-o target=20``: the default as one would type it, or in words."""
    default = default_text(option)
    if default is None:
        return words
    return f"{words} ({default})" if isinstance(option.default, Derived) else f"{words}={default}"


def _typer_option(option: FileOption) -> Any:
    """The click parameter typer would build for ``--<flag> FILE``, made by
    typer itself from a stand-in function (so it looks like every other option)."""

    def stand_in(**values: Any) -> None:
        del values

    annotation = Annotated[Path | None, typer.Option(option.flag, metavar="FILE", help=option.help)]
    name = _PREFIX + option.name
    parameter = inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
    )
    stand_in.__signature__ = inspect.Signature([parameter])  # type: ignore[attr-defined]
    stand_in.__annotations__ = {name: annotation}
    app = typer.Typer()
    app.command()(stand_in)
    (param,) = (p for p in typer.main.get_command(app).params if p.name == name)
    return param


class GameCommand(Command):
    """A command with a GAME argument: adds the manifests' file options and epilog."""

    explain_players = False

    def get_params(self, ctx: Context) -> list[Any]:
        params = super().get_params(ctx)
        if self.explain_players:
            for param in params:
                if param.name == "players":
                    param.help = players_help()
        # A game option spelled like one of the command's own flags stays -o only.
        taken = {flag for p in params for flag in p.opts}
        extra = [_typer_option(o) for o in file_options() if o.flag not in taken]
        # keep --help last
        cut = len(params) - (params[-1].name == "help")
        return [*params[:cut], *extra, *params[cut:]]

    def invoke(self, ctx: Context) -> Any:
        ctx.meta[FILE_VALUES] = {
            key.removeprefix(_PREFIX): ctx.params.pop(key)
            for key in list(ctx.params)
            if key.startswith(_PREFIX)
        }
        return super().invoke(ctx)

    def format_help(self, ctx: Context, formatter: Any) -> None:
        self.epilog = epilog()
        super().format_help(ctx, formatter)


class PlayCommand(GameCommand):
    """``play``: its ``-p`` defaults to each game's own player count."""

    explain_players = True


def read_file_options(ctx: typer.Context, game_name: str) -> dict[str, Any]:
    """The options given as files, read by the game's own readers; exits 2 with
    one line naming the flag and the file when one is wrong."""
    given: dict[str, Path | None] = ctx.meta.get(FILE_VALUES, {})
    chosen = [(o, given[o.name]) for o in file_options() if given.get(o.name) is not None]
    if not chosen:
        return {}
    try:
        game = manifest(game_name)
    except CardtableError as exc:
        raise fail(str(exc)) from None
    values: dict[str, Any] = {}
    for option, path in chosen:
        spec = game.option(option.name)
        if spec is None or spec.from_file is None:
            raise fail(f"{option.flag} is an option of {', '.join(option.games)} only")
        try:
            values[option.name] = resolve(spec.from_file)(path)
        except CardtableError as exc:
            raise fail(f"{option.flag} {path}: {exc}") from None
    return values
