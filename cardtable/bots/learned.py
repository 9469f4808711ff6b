"""Playing any game by a learned policy (:mod:`.policy_net`), and the
self-play it is learned from.

A game whose manifest names ``playout_policy`` (files inside its package,
``{players}`` in the name standing for the player count, written by
``benchmarks/train_policy_generic.py``) gets, at each player count with a
file:

- playouts by the policy for the generic search
  (:func:`cardtable.bots.playout.playouts_for`), each seat deciding from the
  encoder's vector of its own ``view(seat)``; the search then keeps the
  policy's move unless another is clearly better (:mod:`.search`);
- the bot ``learned``: the policy alone, its best-rated legal move.

:func:`self_play` makes the rows a policy is fitted to: every decision with
a choice that one of the game's bots makes in self-play, as the deciding
seat's observation, its legal actions and the action it took. Fitting a
policy to the search's choices and searching again with it is expert
iteration (Anthony, Tian and Barber 2017), the loop that
``benchmarks/train_policy_generic.py`` runs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.bots.base import Bot, Budget
from cardtable.bots.policy_net import PolicyFileError, PolicyNet
from cardtable.core.game import Game, Move, State, View
from cardtable.core.registry import manifest
from cardtable.core.seeds import derive_seed

__all__ = ["LearnedBot", "NetPlayouts", "Rows", "policy_for", "self_play"]

Policy = Callable[[State], Move]


def _encoder(game: Game) -> Any:
    """A new observation encoder of the game (encoders keep memos: one each)."""
    return manifest(game.name).part("observation_encoder")(game)


def policy_for(game: Game) -> PolicyNet | None:
    """The policy the game ships for its player count, or ``None`` where it
    ships none (:class:`PolicyFileError` for a file that is there but wrong)."""
    found = manifest(game.name)
    if found.playout_policy is None or found.package is None:
        return None
    file = found.playout_policy.format(players=game.num_players)
    inputs = _input_size(game)
    return _shipped(found.package, file, game.name, game.num_players, inputs, game.num_actions)


# The encoder's vector length by game name and options: an encoder is built
# once for them, not once per bot made (a game object is made per table).
_INPUT_SIZES: dict[tuple[str, str], int] = {}


def _input_size(game: Game) -> int:
    key = (game.name, json.dumps(game.options_json, sort_keys=True))
    size = _INPUT_SIZES.get(key)
    if size is None:
        size = _INPUT_SIZES[key] = _encoder(game).size
    return size


@cache  # one load per file: bots are made per seat and per game
def _shipped(
    package: str, file: str, name: str, players: int, inputs: int, actions: int
) -> PolicyNet | None:
    path = resources.files(package).joinpath(file)
    if not path.is_file():
        return None
    with path.open("rb") as source:
        return PolicyNet.load(source, name, players, inputs, actions)


class NetPlayouts:
    """Every seat of a playout plays the policy's best-rated legal move, as
    judged from its own view (the search's ``Playouts``)."""

    cutoff = None

    def __init__(self, game: Game, net: PolicyNet) -> None:
        self.game = game
        self.net = net
        self.encoder = _encoder(game)

    def policy(self, rng: random.Random) -> Policy:
        def choose(state: State) -> Move:
            seat = state.to_move
            assert seat is not None, "a playout state always has a seat to move"
            return _best(self.net, self.encoder, state.view(seat), state.legal_moves())

        return choose

    def groups(self, view: View, legal: Sequence[Move]) -> Sequence[Sequence[int]]:
        return [[i] for i in range(len(legal))]


class LearnedBot:
    """The game's shipped policy alone: its best-rated legal move, at once."""

    def __init__(
        self, seat: int, game: Game, rng: random.Random, budget: Budget | None = None
    ) -> None:
        net = policy_for(game)
        if net is None:
            raise PolicyFileError(
                f"{manifest(game.name).title} ships no learned policy for"
                f" {game.num_players} players"
            )
        self.seat = seat
        self.net = net
        self.encoder = _encoder(game)

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        return _best(self.net, self.encoder, view, legal)


def _best(net: PolicyNet, encoder: Any, view: View, legal: Sequence[Move]) -> Move:
    """The legal move the policy rates best from ``view`` (the only input)."""
    if len(legal) == 1:
        return legal[0]
    return legal[net.choice(encoder.encode(view), [move.index for move in legal])]


@dataclass(frozen=True)
class Rows:
    """Decisions to fit a policy to: observations, legal actions, choices."""

    x: npt.NDArray[np.float32]
    legal: npt.NDArray[np.bool_]
    chosen: npt.NDArray[np.int64]


BotMaker = Callable[[int, Game, random.Random], Bot]


def self_play(game: Game, make: BotMaker, games: int, seed: int) -> Rows:
    """Every decision with a choice in ``games`` games of ``make``'s bot in
    every seat, seeded: each game's deal and bots from ``seed`` and its number."""
    encoder = _encoder(game)
    xs: list[npt.NDArray[np.float32]] = []
    legal_rows: list[npt.NDArray[np.bool_]] = []
    chosen: list[int] = []
    for number in range(games):
        rng = random.Random(derive_seed(seed, "self-play", number))
        state = game.new_game(random.Random(rng.getrandbits(64)))
        bots = [make(s, game, random.Random(rng.getrandbits(64))) for s in range(game.num_players)]
        while not state.finished:
            seat = state.to_move
            assert seat is not None, "a game in play has a seat to move"
            legal = state.legal_moves()
            view = state.view(seat)
            move = bots[seat].choose(view, legal)
            if len(legal) > 1:
                xs.append(encoder.encode(view))
                legal_rows.append(encoder.mask(legal).astype(bool))
                chosen.append(move.index)
            state.apply(move)
    return Rows(np.array(xs, np.float32), np.array(legal_rows, bool), np.array(chosen, np.int64))
