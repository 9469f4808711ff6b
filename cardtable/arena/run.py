"""One arena run from start to end: check the request, play, save, count.

The command line is a thin layer over :func:`run_arena`; tests and notebooks
call it directly. Everything that can be wrong with a request is found here,
before a single game is played, and raised as :class:`ArenaError`.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.arena.pool import run_games
from cardtable.arena.report import RunInfo
from cardtable.arena.runner import ArenaSpec, GameResult, GameTask, schedule
from cardtable.arena.stats import ArenaStats, aggregate
from cardtable.bots import Budget, make_bot
from cardtable.core import records
from cardtable.core.errors import CardtableError
from cardtable.core.game import Game
from cardtable.core.registry import UnknownGameError, game_names, load, manifest


class ArenaError(CardtableError):
    """A request the arena cannot run (unknown game or bot, bad counts or options)."""


@dataclass(frozen=True, slots=True)
class ArenaRun:
    info: RunInfo
    stats: ArenaStats
    played: list[tuple[GameTask, GameResult]]


def record_path(directory: Path, task: GameTask) -> Path:
    """``DIR/game-00001.json`` for the first game: numbered from 1 in game order."""
    return directory / f"game-{task.index + 1:05d}.json"


def check_game(game_name: str, options: Mapping[str, Any]) -> Game:
    """The game with these options, or :class:`ArenaError` saying what is wrong."""
    if game_name not in game_names():
        raise ArenaError(str(UnknownGameError(game_name)))  # says why a plugin was left out
    try:
        return load(game_name, **options)
    except CardtableError as exc:
        raise ArenaError(str(exc)) from None


def check_bots(game: Game, names: Sequence[str], where: str = "--bots") -> None:
    """:class:`ArenaError` naming ``where`` if a bot cannot be seated in ``game``."""
    for name in dict.fromkeys(names):
        try:
            make_bot(name, game, 0, random.Random(0))
        except CardtableError as exc:
            raise ArenaError(f"{where}: {exc}") from None
        except ImportError as exc:
            raise ArenaError(f"{where}: bot {name!r} is not available here: {exc}") from None


def check_request(
    game_name: str, bots: Sequence[str], options: Mapping[str, Any], games: int
) -> Game:
    """The game to play, or :class:`ArenaError` saying what is wrong."""
    game = check_game(game_name, options)
    if games < 1:
        raise ArenaError(f"--games {games}: play at least 1 game")
    if not bots or any(not name for name in bots):
        raise ArenaError("--bots: give one bot name per seat, comma-separated")
    if len(bots) != game.num_players:
        raise ArenaError(
            f"--bots: {len(bots)} bots for {game.num_players} players; give one bot per seat"
        )
    check_bots(game, bots)
    return game


def run_arena(
    game_name: str,
    bots: Sequence[str],
    *,
    games: int,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    budget: Budget | None = None,
    jobs: int = 1,
    ray_address: str | None = None,
    save_dir: Path | None = None,
    on_result: Callable[[GameTask, GameResult], None] | None = None,
) -> ArenaRun:
    """Play ``games`` games with duplicate deals and rotated seats, and count.

    ``options`` must hold ``players``; without ``seed`` one is drawn from the
    system and reported in ``run.info.seed``. With ``save_dir`` every game is
    written there as a record as soon as it arrives.
    """
    options = dict(options or {})
    game = check_request(game_name, bots, options, games)
    if jobs < 1:
        raise ArenaError(f"--jobs {jobs}: use at least 1 job")
    if seed is None:
        seed = secrets.randbits(63)
    if save_dir is not None:
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArenaError(f"--save {save_dir}: {exc.strerror}") from None
    spec = ArenaSpec(
        game_name=game_name,
        options=tuple(options.items()),
        bots=tuple(bots),
        budget=budget,
        keep_records=save_dir is not None,
    )
    tasks = schedule(seed, games, game.num_players)

    def arrived(task: GameTask, result: GameResult) -> None:
        if save_dir is not None and result.record is not None:
            with record_path(save_dir, task).open("w", encoding="utf-8") as fp:
                records.dump(result.record, fp)
        if on_result is not None:
            on_result(task, result)

    results = run_games(
        spec, tasks, jobs=jobs, ray_address=ray_address, on_result=arrived, keep_records=False
    )
    played = list(zip(tasks, results, strict=True))
    info = RunInfo(
        game=game_name,
        options=game.options_json,
        seed=seed,
        games=games,
        seats=game.num_players,
        budget=budget,
    )
    lowest_wins = manifest(game_name).lowest_wins
    return ArenaRun(info, aggregate(list(bots), played, lowest_wins=lowest_wins), played)
