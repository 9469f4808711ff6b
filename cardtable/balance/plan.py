"""What a balance run plays: its configurations, and every game of each.

A configuration is one player count with one value of every swept option.
A mixed lineup plays the arena's schedule (:func:`cardtable.arena.schedule`):
duplicate deals, the lineup rotated one seat per game of a deal, so every bot
holds every seat's cards. One bot at every seat plays every game on its own
deal instead: rotating identical bots would replay the same deal to the same
seats (the figures would count one deal several times). Every
configuration uses the same run seed, so configurations with the same player
count are played on the same deal seeds (common random numbers: a swept
option's effect is not hidden under different luck).

The games are cut into resume chunks of :data:`CHUNK` games, fixed whatever
``--jobs`` is, so a run saved with one number of jobs resumes with another.

>>> split_values("[12,14],[14,12],13")
['[12,14]', '[14,12]', '13']
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cardtable.arena.runner import GameTask, schedule
from cardtable.bots import Budget
from cardtable.core.errors import CardtableError
from cardtable.core.game import JSON, Game, max_decisions
from cardtable.core.numbers import NumberTooLongError, loads_json

# Games per saved chunk: small enough that an interrupted run loses little,
# large enough that a long run writes a few hundred files, not thousands.
CHUNK = 50

# A game still unfinished after the decisions its rules allow is a rule hole
# (turn_limit): the bound is ``--max-decisions`` where given, else the game's
# own (``Game.max_decisions()``, per configuration), else this guard for a
# game that declares none: far beyond any real game of the built-in games
# (hundreds of decisions).
MAX_DECISIONS = 20_000


class BalanceError(CardtableError):
    """A request the balance lab cannot run, said in one line."""


@dataclass(frozen=True, slots=True)
class Sweep:
    """``--sweep KEY=V1,V2,…``: one option and the values it takes."""

    key: str
    values: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Config:
    """One configuration: the game options (players included) and what varies."""

    options: tuple[tuple[str, Any], ...]
    varied: tuple[tuple[str, Any], ...]  # players and the swept options, as given

    @property
    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def label(self) -> str:
        """``players=4 target=30``: how tables and charts name it."""
        return " ".join(f"{key}={json.dumps(value)}" for key, value in self.varied)


@dataclass(frozen=True, slots=True)
class BalanceSpec:
    """What every game of one run shares; small and picklable for workers."""

    game_name: str
    configs: tuple[Config, ...]
    bots: tuple[str, ...] | None  # None: ``default_bot`` at every seat
    default_bot: str
    budget: Budget | None
    max_decisions: int | None  # --max-decisions; None: each game's own (decision_limit)
    keep_holes: bool  # return the record of every game that shows a rule hole
    fixed_seats: bool = False  # each entry keeps its seat: per-seat handicaps stay with a bot

    def decision_limit(self, game: Game) -> int:
        """The decisions after which a game of ``game`` (one configuration's)
        is a rule hole: ``--max-decisions`` where given, else the most the game
        declares (``Game.max_decisions()``), else :data:`MAX_DECISIONS`."""
        if self.max_decisions is not None:
            return self.max_decisions
        declared = max_decisions(game)
        return MAX_DECISIONS if declared is None else declared

    def lineup(self, config: int) -> tuple[str, ...]:
        """The entries (one bot per seat, in ``--bots`` order) of a configuration."""
        if self.bots is not None:
            return self.bots
        return (self.default_bot,) * int(self.configs[config].options_dict["players"])


@dataclass(frozen=True, slots=True)
class BalanceTask:
    """One game of the run: its configuration and its place in the arena schedule."""

    config: int
    game: GameTask

    @property
    def key(self) -> tuple[int, int]:
        return (self.config, self.game.index)


def split_values(text: str) -> list[str]:
    """Split at the commas outside brackets and quotes (``[12,14]`` is one value)."""
    values, depth, quoted, start = [], 0, False, 0
    for at, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "[{":
            depth += 1
        elif not quoted and char in "]}":
            depth -= 1
        elif not quoted and depth == 0 and char == ",":
            values.append(text[start:at])
            start = at + 1
    values.append(text[start:])
    return [v.strip() for v in values]


def parse_value(raw: str, where: str) -> Any:
    """A value as ``-o`` reads it: JSON where it parses as JSON, else the text."""
    try:
        return loads_json(raw)
    except NumberTooLongError as exc:
        inside = f" ({exc.where})" if exc.where else ""
        raise BalanceError(f"{where}{inside}: {exc.reason}") from None
    except json.JSONDecodeError:
        return raw


def parse_sweep(text: str) -> Sweep:
    """``KEY=V1,V2,…`` as a :class:`Sweep`, or :class:`BalanceError` in words."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key or not raw.strip():
        raise BalanceError(f"--sweep {text!r}: write it as KEY=V1,V2,…, e.g. --sweep target=20,30")
    values = split_values(raw)
    if any(not v for v in values):
        raise BalanceError(f"--sweep {key}: an empty value in {raw!r}")
    parsed = tuple(parse_value(v, f"--sweep {key}") for v in values)
    if len(set(map(json.dumps, parsed))) != len(parsed):
        raise BalanceError(f"--sweep {key}: a value is given twice in {raw!r}")
    return Sweep(key, parsed)


def configurations(
    players: Sequence[int] | Callable[[Mapping[str, Any]], int],
    options: Mapping[str, Any],
    sweeps: Sequence[Sweep],
) -> list[Config]:
    """Every player count × every combination of the swept values, in the
    order given (the first sweep varies slowest). ``players`` is either the
    counts asked for (``-p``) or what the game makes of each combination's
    options, as ``-o`` alone does: sweeping ``hand_sizes=[12,12],[12,14,13]``
    plays two players, then three."""
    keys = [s.key for s in sweeps]
    if "players" in keys:
        raise BalanceError("--sweep players: give the player counts with -p N, repeatable")
    if len(set(keys)) != len(keys):
        raise BalanceError("--sweep: each option may be swept once")
    for key in keys:
        if key in options:
            raise BalanceError(f"--sweep {key}: the option is also set with -o; give it once")
    combinations = [
        dict(zip(keys, values, strict=True))
        for values in itertools.product(*(s.values for s in sweeps))
    ]
    if callable(players):
        pairs = [(players({**options, **chosen}), chosen) for chosen in combinations]
    else:
        pairs = [(count, chosen) for count in players for chosen in combinations]
    configs = []
    for count, chosen in pairs:
        full = {**options, "players": count, **chosen}
        varied = (("players", count), *chosen.items())
        configs.append(Config(tuple(full.items()), tuple(varied)))
    return configs


def tasks_of(spec: BalanceSpec, seed: int, games: int) -> list[BalanceTask]:
    """Every game of the run, configuration by configuration, in schedule order."""
    tasks = []
    for c in range(len(spec.configs)):
        lineup = spec.lineup(c)
        if len(set(lineup)) > 1 and not spec.fixed_seats:
            tasks += [BalanceTask(c, task) for task in schedule(seed, games, len(lineup))]
        else:
            # A schedule of one seat is one game per deal; every entry keeps its seat.
            seating = tuple(range(len(lineup)))
            tasks += [
                BalanceTask(c, replace(task, seating=seating)) for task in schedule(seed, games, 1)
            ]
    return tasks


def chunk_of(task: BalanceTask) -> tuple[int, int]:
    """(configuration, chunk number): the saved file a game's measurement goes to."""
    return (task.config, task.game.index // CHUNK)


def describe(spec: BalanceSpec, seed: int, games: int) -> dict[str, JSON]:
    """The run as ``DIR/plan.json`` holds it: a resumed run must ask for exactly this."""
    return {
        "game": spec.game_name,
        "configs": [dict(c.options) for c in spec.configs],
        "bots": None if spec.bots is None else list(spec.bots),
        "default_bot": spec.default_bot,
        "budget": None
        if spec.budget is None
        else {"seconds": spec.budget.seconds, "iterations": spec.budget.iterations},
        "max_decisions": spec.max_decisions,
        "fixed_seats": spec.fixed_seats,
        "seed": seed,
        "games": games,
        "chunk": CHUNK,
    }
