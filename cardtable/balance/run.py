"""One balance run from start to end: check the request, play what is missing, count.

The command line is a thin layer over :func:`run_balance`; tests and notebooks
call it directly. Everything that can be wrong with a request is found before
a single game is played, and raised as :class:`BalanceError` in one line.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.arena.pool import run_chunks
from cardtable.arena.run import ArenaError, check_request
from cardtable.balance.figures import config_figures
from cardtable.balance.measure import GameMeasure, measure_chunk
from cardtable.balance.plan import (
    CHUNK,
    BalanceError,
    BalanceSpec,
    Config,
    Sweep,
    chunk_of,
    configurations,
    describe,
    tasks_of,
)
from cardtable.balance.store import RunStore
from cardtable.bots import LEVELS, Budget, bot_names
from cardtable.core.errors import CardtableError
from cardtable.core.game import JSON
from cardtable.core.registry import UnknownGameError, game_names, load, manifest

SCHEMA = "cardtable-balance/1"

OnProgress = Callable[[int], None]  # called with the number of games just counted


@dataclass(frozen=True, slots=True)
class BalanceRun:
    results: dict[str, JSON]  # the ``cardtable-balance/1`` object
    resumed: int  # games read back from ``--save`` instead of played


def default_bot(game_name: str) -> str:
    """The game's rules-of-thumb bot where it has one, else ``random``."""
    easy = LEVELS["easy"].bot
    return easy if easy is not None and easy in bot_names(game_name) else "random"


def plan_run(
    game_name: str,
    *,
    players: Sequence[int] = (),
    options: Mapping[str, Any] | None = None,
    sweeps: Sequence[Sweep] = (),
    bots: Sequence[str] | None = None,
    games: int,
    budget: Budget | None = None,
    max_decisions: int | None = None,
    keep_holes: bool = False,
    fixed_seats: bool = False,
) -> BalanceSpec:
    """The run's spec, every configuration checked against the game (one line if not).

    ``max_decisions`` overrides the decisions after which a game is a rule
    hole; by default each configuration's game says (``Game.max_decisions()``,
    else a guard: :meth:`BalanceSpec.decision_limit`)."""
    if game_name not in game_names():
        raise BalanceError(str(UnknownGameError(game_name)))  # says why a plugin was left out
    if games < 1:
        raise BalanceError(f"--games {games}: play at least 1 game per configuration")
    if max_decisions is not None and max_decisions < 1:
        raise BalanceError(f"--max-decisions {max_decisions}: allow at least 1 decision")
    options = dict(options or {})
    if len(set(players)) != len(players):
        raise BalanceError(f"-p: a player count is given twice in {list(players)}")
    if players:
        options.pop("players", None)
        configs = configurations(players, options, sweeps)
    else:  # what the game makes of each configuration's options, as -o alone does
        given = options.pop("players", None)

        def players_of(combination: Mapping[str, Any]) -> int:
            extra = {} if given is None else {"players": given}
            try:
                return _players_of(game_name, {**combination, **extra})
            except BalanceError:  # _check_config says which swept value is wrong
                return _players_of(game_name, {**options, **extra})

        configs = configurations(players_of, options, sweeps)
    fallback = default_bot(game_name)
    for config in configs:
        _check_config(game_name, config, sweeps, options)
        lineup = (
            list(bots) if bots is not None else [fallback] * int(config.options_dict["players"])
        )
        try:
            check_request(game_name, lineup, config.options_dict, games)
        except ArenaError as exc:
            raise BalanceError(f"{config.label}: {exc}" if len(configs) > 1 else str(exc)) from None
    return BalanceSpec(
        game_name=game_name,
        configs=tuple(configs),
        bots=None if bots is None else tuple(bots),
        default_bot=fallback,
        budget=budget,
        max_decisions=max_decisions,
        keep_holes=keep_holes,
        fixed_seats=fixed_seats,
    )


def _players_of(game_name: str, options: Mapping[str, Any]) -> int:
    """The player count when ``-p`` is not given: what the game makes of the options."""
    try:
        return load(game_name, **options).num_players
    except CardtableError as exc:
        raise BalanceError(str(exc)) from None


def _check_config(
    game_name: str, config: Config, sweeps: Sequence[Sweep], options: Mapping[str, Any]
) -> None:
    """Load the configuration's game; the error names the sweep value that broke it."""
    try:
        load(game_name, **config.options_dict)
    except CardtableError as exc:
        swept = [f"--sweep {k}={v!r}" for k, v in config.varied[1:]]
        try:
            load(game_name, **{**options, "players": config.options_dict["players"]})
        except CardtableError:
            swept = []  # the fixed options themselves are wrong: say it as play says it
        where = f"{' '.join(swept)}: " if swept else ""
        raise BalanceError(f"{where}{exc}") from None


def run_balance(
    spec: BalanceSpec,
    *,
    games: int,
    seed: int | None = None,
    jobs: int = 1,
    ray_address: str | None = None,
    save_dir: Path | None = None,
    on_progress: OnProgress | None = None,
) -> BalanceRun:
    """Play every configuration's ``games`` games (those not already saved in
    ``save_dir``) and compute the figures. Without ``seed`` one is drawn."""
    if jobs < 1:
        raise BalanceError(f"--jobs {jobs}: use at least 1 job")
    if seed is None:
        seed = secrets.randbits(63)
    tasks = tasks_of(spec, seed, games)
    store = RunStore(save_dir) if save_dir is not None else None
    done = store.open(describe(spec, seed, games)) if store is not None else {}
    measures: dict[tuple[int, int], GameMeasure] = {
        (m.config, m.index): m for chunk in done.values() for m in chunk
    }
    if on_progress is not None and measures:
        on_progress(len(measures))
    todo = [t for t in tasks if chunk_of(t) not in done]
    sizes: dict[tuple[int, int], int] = {}
    for task in todo:
        sizes[chunk_of(task)] = sizes.get(chunk_of(task), 0) + 1
    waiting: dict[tuple[int, int], list[GameMeasure]] = {}

    def collect(pairs: Sequence[tuple[GameMeasure, dict[str, JSON] | None]]) -> None:
        for measure, record in pairs:
            key = (measure.config, measure.index // CHUNK)
            if store is not None and record is not None:
                store.save_hole(measure.config, measure.index, record)
            measures[measure.config, measure.index] = measure
            waiting.setdefault(key, []).append(measure)
            if len(waiting[key]) == sizes[key] and store is not None:
                store.save_chunk(key, sorted(waiting.pop(key), key=lambda m: m.index))
        if on_progress is not None:
            on_progress(len(pairs))

    run_chunks(measure_chunk, spec, todo, jobs=jobs, ray_address=ray_address, collect=collect)
    holes = store.hole_paths() if store is not None else {}
    return BalanceRun(results_json(spec, seed, games, measures, holes), len(tasks) - len(todo))


def results_json(
    spec: BalanceSpec,
    seed: int,
    games: int,
    measures: Mapping[tuple[int, int], GameMeasure],
    holes: Mapping[tuple[int, int], str],
) -> dict[str, JSON]:
    """The ``cardtable-balance/1`` object (schema in :mod:`cardtable.balance`)."""
    configs: list[JSON] = []
    for c, config in enumerate(spec.configs):
        game = load(spec.game_name, **config.options_dict)
        lineup = spec.lineup(c)
        played = [measures[c, i] for i in range(games)]
        records = {index: path for (k, index), path in holes.items() if k == c}
        configs.append(
            {
                "label": config.label,
                "varied": dict(config.varied),
                "options": game.options_json,
                "bots": list(lineup),
                "max_decisions": spec.decision_limit(game),
                **config_figures(
                    game.num_players, lineup, played, records, manifest(game.name).lowest_wins
                ),
            }
        )
    return {
        "schema": SCHEMA,
        "game": spec.game_name,
        "title": manifest(spec.game_name).title,
        "seed": seed,
        "games": games,
        "max_decisions": spec.max_decisions,
        "fixed_seats": spec.fixed_seats,
        "budget": None
        if spec.budget is None
        else {"seconds": spec.budget.seconds, "iterations": spec.budget.iterations},
        "varied": list(dict.fromkeys(k for config in spec.configs for k, _ in config.varied)),
        "configs": configs,
    }
