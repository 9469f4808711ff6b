"""Rigged Table (RT): every seat chooses ``a`` or ``b`` once a round, then the
round's point goes to a seat fixed by ``mode``, known in advance:

- RT-1 ``seat0``: seat 0 takes every round, so seat 0 wins every game;
- RT-2 ``coin``: the deal draws the round's winner uniformly (the fair share);
- RT-3 ``skill``: a seat that chose ``a`` at random among those that did (or
  among all seats if none did), so a bot that always chooses ``a`` beats one
  that chooses at random: 3/4 of the games at two players;
- RT-4 ``endless``: the round never ends (a turn-limit hole);
- RT-5 ``stuck``: after the first decision nobody has a legal move;
- RT-6 ``crash``: the engine fails at the third decision.

The game ends after ``rounds`` rounds; the highest total wins, ties shared.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.engine import NO_CHANCE, Engine, Refusal
from cardtable.core.errors import IllegalMoveError, OptionError
from cardtable.core.game import Applied

MODES = ("seat0", "coin", "skill", "endless", "stuck", "crash")


@dataclass(frozen=True, slots=True)
class Choice:
    index: int

    def to_json(self) -> dict[str, Any]:
        return {"choice": "ab"[self.index]}


CHOICES = (Choice(0), Choice(1))


@dataclass(frozen=True, slots=True)
class Coin:
    """RT-2: a round's deal, the seat its coin names."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"coin": self.seat}


@dataclass(frozen=True, slots=True)
class RiggedView:
    seat: int | None
    to_move: int | None
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "to_move": self.to_move, "scores": list(self.scores)}


class RiggedGame:
    name = "rigged-table"
    num_actions = 2

    def __init__(
        self, players: object = 2, mode: object = "coin", rounds: object = 1, first: object = 0
    ) -> None:
        if type(players) is not int or players not in (2, 3, 4):
            raise OptionError("players", f"must be 2, 3 or 4, not {players!r}")
        if mode not in MODES:
            raise OptionError("mode", f"must be one of {', '.join(MODES)}, not {mode!r}")
        if type(rounds) is not int or rounds < 1:
            raise OptionError("rounds", f"must be a positive int, not {rounds!r}")
        if type(first) is not int or not 0 <= first < players:
            raise OptionError("first", f"must be a seat from 0 to {players - 1}, not {first!r}")
        self.num_players, self.mode, self.rounds, self.first = players, str(mode), rounds, first

    @property
    def options_json(self) -> dict[str, Any]:
        return {
            "players": self.num_players,
            "mode": self.mode,
            "rounds": self.rounds,
            "first": self.first,
        }

    def max_decisions(self) -> int:
        """One choice per seat a round (RT-1 to RT-3), ``rounds`` rounds: the
        game's declared length, which RT-4 ``endless`` breaks on purpose."""
        return self.rounds * self.num_players

    def new_game(self, rng: random.Random) -> RiggedState:
        return RiggedState(self, rng)

    def new_state(self, rng: random.Random | None = None) -> RiggedState:
        return RiggedState(self, rng or random.Random(0))

    def move_from_index(self, index: int) -> Choice:
        return CHOICES[index]

    def parse_move(self, text: str) -> Choice:
        return CHOICES["ab".index(text)]

    def deal_from_json(self, obj: Any, where: str) -> Any:
        return obj

    def move_from_json(self, obj: Any, where: str) -> tuple[int, Choice, dict[str, Any]]:
        return obj["seat"], self.parse_move(obj["choice"]), {}

    def view_from_json(self, obj: Any) -> RiggedView:
        return RiggedView(obj["seat"], obj["to_move"], tuple(obj["scores"]))


class RiggedState(Engine[RiggedView]):
    """Builds on :class:`cardtable.core.engine.Engine`, as a plugin's state may:
    the base checks seats and assembles the record."""

    turn_rule = "RT-1"

    def __init__(self, game: RiggedGame, rng: random.Random) -> None:
        self.game = game
        # The options read without casts: the base types ``self.game`` as any Game.
        self._mode, self._first, self._last_round = game.mode, game.first, game.rounds
        self._rng = rng
        self._n = game.num_players
        self._scores = [0] * self._n
        self._round_scores: list[list[int]] = []
        self._rounds: list[dict[str, Any]] = []
        self._chosen: list[int] = []
        self._decisions = 0
        self._winners: tuple[int, ...] = ()
        self._to_move: int | None = game.first
        self.deal()

    def deal(self, deal: Any = None) -> Coin:
        # RT-2: the round's coin is drawn when it is dealt, from the deal's generator.
        coin = Coin(self._rng.randrange(self._n))
        self._rounds.append({"deal": coin.to_json(), "moves": []})
        self._round_scores.append([0] * self._n)
        self._chosen = []
        return coin

    @property
    def finished(self) -> bool:
        return bool(self._winners)

    @property
    def to_move(self) -> int | None:
        return None if self.finished else self._to_move

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def round_scores(self) -> list[list[int]]:
        return [r[:] for r in self._round_scores]

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    @property
    def round_number(self) -> int:
        return len(self._rounds)

    @property
    def moves_in_round(self) -> int:
        return len(self._rounds[-1]["moves"])

    @property
    def awaiting_deal(self) -> bool:
        return False

    def legal_moves(self) -> tuple[Choice, ...]:
        if self.finished or (self._mode == "stuck" and self._decisions >= 1):
            return ()  # RT-5
        return CHOICES

    def _move_refusal(self, move: Choice) -> Refusal | None:
        return None if move in self.legal_moves() else Refusal(f"{move} is not legal now", "RT-1")

    def apply(self, move: Choice, **chance: Any) -> Applied:
        refused = self._move_refusal(move)
        if refused is not None:
            raise IllegalMoveError.from_refusal(refused)
        self._decisions += 1
        if self._mode == "crash" and self._decisions == 3:
            raise RuntimeError("RT-6: the engine fails on purpose")
        seat = self._to_move
        assert seat is not None
        self._rounds[-1]["moves"].append({"seat": seat, **move.to_json()})
        self._chosen.append(move.index)
        self._to_move = (seat + 1) % self._n
        if len(self._chosen) < self._n or self._mode == "endless":  # RT-4
            if len(self._chosen) == self._n:
                self._chosen = []
            return Applied(seat, move, NO_CHANCE)
        winner = self._round_winner()
        self._scores[winner] += 1
        self._round_scores[-1][winner] += 1
        if len(self._rounds) == self._last_round:
            top = max(self._scores)
            self._winners = tuple(s for s in range(self._n) if self._scores[s] == top)
            return Applied(seat, move, NO_CHANCE)
        return Applied(seat, move, NO_CHANCE, self.deal())

    def _round_winner(self) -> int:
        coin: int = self._rounds[-1]["deal"]["coin"]
        if self._mode == "seat0":
            return 0  # RT-1
        if self._mode == "skill":  # RT-3
            order = [(self._first + k) % self._n for k in range(self._n)]
            chose_a = [s for s, c in zip(order, self._chosen, strict=True) if c == 0] or order
            return chose_a[coin % len(chose_a)]
        return coin  # RT-2

    def _view(self, seat: int | None) -> RiggedView:
        return RiggedView(seat, self.to_move, self.scores)

    def clone(self, rng: random.Random | None = None) -> RiggedState:
        new = copy.deepcopy(self)
        if rng is not None:
            new._rng = rng
        return new

    def _rounds_json(self) -> list[dict[str, Any]]:
        return copy.deepcopy(self._rounds)


class FirstBot:
    """Always chooses ``a`` (RT-3's skilled player)."""

    def __init__(self, seat: int, game: Any, rng: random.Random, budget: Any = None) -> None:
        self.seat = seat

    def choose(self, view: Any, legal: Sequence[Choice]) -> Choice:
        return legal[0]
