"""The games as OpenSpiel (``pyspiel``) games.

``import cardtable.adapters.openspiel`` registers one Python game with pyspiel
for every registered game whose manifest names an OpenSpiel layout
(:mod:`cardtable.adapters.openspiel_layout`); :func:`register_games` does it
again for games found later (a plugin). The names, parameters and chance
layout of each game are its layout's (``cardtable/games/<game>/openspiel.py``,
listed in ``docs/research.md``)::

    game = pyspiel.load_game(layout.short_name, {"players": 3})

**Parameters** are the game's options, as the layout maps them (pyspiel
parameters hold only ints, floats, bools and strings), with the layout's
defaults except ``players``, which defaults to the manifest's
``default_players`` as everywhere else; the game string always
writes the layout's canonical form, which survives OpenSpiel's
``name(a=1,b=2)`` syntax. One adapter parameter: ``max_moves`` (``0`` =
automatic), see *Length* below.

**Chance.** Every deal is chance nodes, one card at a time (outcome ``i`` is
the card ``layout.deck[i]``, uniform over the cards not yet dealt), in the
layout's order. A move that must reshuffle cards first (the layout says
which) becomes chance nodes too: the move is held, the new order is drawn
card by card (top first), then the move is applied with it. One chance node
per card because OpenSpiel enumerates a chance node's outcomes: a node over
permutations (up to ~100! of them) cannot be listed, while one card at a time
keeps at most ``len(deck)`` outcomes (``max_chance_outcomes``) with exact
uniform probabilities.

**Information.** ``information_state_string(p)`` is canonical JSON (sorted
keys) of the engine's ``view(p)`` — the only door for hidden cards — plus the
deal in progress as ``p`` sees it. States ``p`` cannot tell apart give equal
strings, which is what ISMCTS keys on. The view holds the whole current round
and the scores of earlier rounds (not their cards: they no longer matter for
play), so it is a sufficient statistic rather than a literal perfect-recall
history. ``observation_string`` is the same (the view is what a seat observes);
an observer with ``private_info=NONE`` uses the spectator view ``view(None)``.
Tensors (both kinds) are the game's observation encoding
(:mod:`cardtable.adapters.observations`) of the same view, through
``make_py_observer`` as OpenSpiel's Python games do.

**Returns.** Points: at the terminal, ``returns()`` is each seat's final
score. The reward model is ``TERMINAL`` (OpenSpiel's ``MCTSBot`` requires it),
so before the end ``returns()`` and ``rewards()`` are zero -- OpenSpiel checks
that returns are the sum of rewards so far; the running scores are in
``state.engine.scores``. Utility is general-sum, from 0 to the layout's
``max_utility``.

**Length.** ``max_game_length`` counts decisions: ``max_moves``, or the
layout's automatic bound (generous where a game has no true bound, e.g. when
a round may pay nobody). A game stopped at ``max_moves`` is terminal with the
scores so far (``state.truncated`` says so); at the automatic values that
happens only in astronomically unlikely games (the layouts say when).

**Serialization.** ``serialize``/``deserialize_state`` (and so
``serialize_game_and_state`` and pickling) go through pyspiel's Python-game
mechanism: the state's ``__dict__`` is pickled; here that is one
:class:`_Core`, which pickles the engine state itself, so states built by
:func:`state_from_engine` (determinizations) serialize too.

**Search.** :func:`make_resampler` is the callback for
``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``: it
determinizes the player's view (:mod:`.openspiel_determinize`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from cardtable.adapters import observations
from cardtable.adapters.openspiel_determinize import determinize
from cardtable.adapters.openspiel_layout import OpenSpielLayout, Param
from cardtable.core.game import Game, Move, State, View
from cardtable.core.manifest import GameManifest
from cardtable.core.registry import load as load_game
from cardtable.core.registry import manifest, manifests

__all__ = [
    "CardtableGame",
    "CardtableState",
    "cardtable_game",
    "info_state_string",
    "layout_of",
    "load",
    "make_resampler",
    "register_games",
    "state_from_engine",
]

ADAPTER_PARAMETERS: dict[str, Param] = {"max_moves": 0}


def layout_of(game_name: str) -> OpenSpielLayout:
    """The OpenSpiel layout of a registered game; MissingPartError if it has none."""
    layout: OpenSpielLayout = manifest(game_name).part("openspiel")
    return layout


@lru_cache(maxsize=64)
def _cardtable_game(game_name: str, key: tuple[tuple[str, Param], ...]) -> Game:
    return load_game(game_name, **layout_of(game_name).options(dict(key)))


def cardtable_game(ps_game: pyspiel.Game) -> Game:
    """The cardtable game behind one of these pyspiel games."""
    game: Game = ps_game.ct_game
    return game


def load(game: Game, max_moves: int = 0) -> pyspiel.Game:
    """The pyspiel game with the options of the cardtable ``game``."""
    layout = layout_of(game.name)
    register_games()
    return pyspiel.load_game(
        layout.short_name, {**layout.parameters_of(game), "max_moves": max_moves}
    )


# ------------------------------------------------------------------ games
class CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """One registered game; :func:`register_games` makes a subclass per layout."""

    layout: OpenSpielLayout
    game_name: str
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        layout = self.layout
        spec = _parameters(layout, manifest(self.game_name))
        full = {**spec, **(params or {})}
        unknown = set(full) - set(spec)
        if unknown:
            raise ValueError(f"unknown parameters {sorted(unknown)}; known: {sorted(spec)}")
        ct = _cardtable_game(self.game_name, tuple(sorted(full.items())))
        self.ct_game: Game = ct
        full = layout.canonical(full, ct)
        self.params = full
        self.max_moves = int(full["max_moves"]) or layout.auto_max_moves(ct)
        self.obs_size = (
            observations.observation_size(ct)
            if manifest(self.game_name).has("observation_encoder")
            else 0
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=ct.num_actions,
            max_chance_outcomes=len(layout.deck),
            num_players=ct.num_players,
            min_utility=0.0,
            max_utility=float(layout.max_utility(ct)),
            utility_sum=None,
            max_game_length=self.max_moves,
        )
        super().__init__(self.game_type, info, full)

    def new_initial_state(self) -> CardtableState:
        return CardtableState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> _Observer:
        return _Observer(self, iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        return self.layout.max_chance_nodes(self.ct_game, self.max_moves)


def _game_type(layout: OpenSpielLayout, game: GameManifest) -> pyspiel.GameType:
    tensors = game.has("observation_encoder")
    return pyspiel.GameType(
        short_name=layout.short_name,
        long_name=layout.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.players),
        min_num_players=min(game.players),
        provides_information_state_string=True,
        provides_information_state_tensor=tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification=_parameters(layout, game),
    )


def _parameters(layout: OpenSpielLayout, game: GameManifest) -> dict[str, Param]:
    """Every parameter with its default: the layout's, but ``players`` the
    manifest's (the game's own default, as in the other adapters), and the
    adapter's own."""
    players = {"players": game.default_players} if "players" in layout.parameters else {}
    return {**layout.parameters, **players, **ADAPTER_PARAMETERS}


_REGISTERED: dict[str, type[CardtableGame]] = {}


def register_games() -> tuple[str, ...]:
    """Register with pyspiel every registered game that has a layout and is
    not registered yet (run at import; again after installing a plugin).
    Returns the short names of every game registered so far."""
    for game in manifests().values():
        if not game.has("openspiel"):
            continue
        layout = layout_of(game.name)
        if layout.short_name in _REGISTERED:
            continue
        game_type = _game_type(layout, game)
        cls = type(
            f"CardtableGame_{layout.short_name}",
            (CardtableGame,),
            {"layout": layout, "game_name": game.name, "game_type": game_type},
        )
        pyspiel.register_game(game_type, cls)
        _REGISTERED[layout.short_name] = cls
    return tuple(_REGISTERED)


# ------------------------------------------------------------------ states
class _Core:
    """Everything a state holds, in one object, so that pyspiel's ``Clone``
    (a deepcopy of the state's ``__dict__``) is one cheap engine ``clone``."""

    __slots__ = ("ct", "held", "layout", "max_moves", "moves", "pending", "s", "truncated")

    def __init__(self, ct: Game, layout: OpenSpielLayout, max_moves: int, s: State) -> None:
        self.ct = ct
        self.layout = layout
        self.max_moves = max_moves
        self.s = s
        self.moves = 0  # decisions so far (for max_moves)
        self.pending: list[int] = []  # cards of the deal or reshuffle in progress
        self.held: Move | None = None  # a move waiting for its reshuffle
        self.truncated = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core.__new__(_Core)
        c.ct = self.ct
        c.layout = self.layout
        c.max_moves = self.max_moves
        c.s = self.s.clone()
        c.moves = self.moves
        c.pending = self.pending[:]
        c.held = self.held
        c.truncated = self.truncated
        return c

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in _Core.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    # ---- structure
    @property
    def terminal(self) -> bool:
        return bool(self.s.finished) or self.truncated

    @property
    def chance(self) -> bool:
        return not self.terminal and (self.s.awaiting_deal or self.held is not None)

    def current_player(self) -> int:
        if self.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.chance:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.s.to_move
        assert seat is not None
        return seat

    def legal_actions(self) -> list[int]:
        return sorted(m.index for m in self.s.legal_moves())

    def _reshuffled(self) -> tuple[int, ...]:
        """The cards the held move reshuffles."""
        assert self.held is not None
        cards = self.layout.reshuffle_before(self.s, self.held)
        assert cards is not None
        return cards

    def chance_outcomes(self) -> list[tuple[int, float]]:
        done = set(self.pending)
        deck = self.layout.deck
        if self.held is not None:
            outcome = _outcome_index(deck)
            cards = sorted(outcome[c] for c in self._reshuffled() if c not in done)
        else:
            cards = [i for i, c in enumerate(deck) if c not in done]
        p = 1.0 / len(cards)
        return [(i, p) for i in cards]

    def apply(self, action: int) -> None:
        if self.chance:
            self._apply_chance(self.layout.deck[action])
            return
        s = self.s
        move = self.ct.move_from_index(action)
        if self.layout.reshuffle_before(s, move) is not None:
            self.held = move
        else:
            s.apply(move)
        self.moves += 1
        if self.moves >= self.max_moves and not s.finished:
            self.truncated = True

    def _apply_chance(self, card: int) -> None:
        pending = self.pending
        pending.append(card)
        held = self.held
        if held is not None:
            if len(pending) == len(self._reshuffled()):
                self.held, self.pending = None, []
                self.layout.apply_reshuffled(self.s, held, tuple(pending))
            return
        if len(pending) == self.layout.deal_size(self.ct):
            self.pending = []
            self.s.deal(self.layout.deal(self.ct, pending))

    def returns(self) -> list[float]:
        if not self.terminal:
            return [0.0] * self.ct.num_players  # TERMINAL reward model
        return [float(x) for x in self.s.scores]

    # ---- information
    def view(self, player: int | None) -> View:
        return self.s.view(player)

    def pending_json(self, player: int | None) -> dict[str, Any] | None:
        """The chance phase in progress as ``player`` sees it (None: none)."""
        if self.held is not None:
            return {"reshuffle": len(self.pending), "move": self.held.index}
        if not self.chance:
            return None
        own = [] if player is None else self.layout.dealt_to(self.ct, self.pending, player)
        return {"dealt": len(self.pending), "own": own}

    def info_string(self, player: int | None) -> str:
        obj = self.view(player).to_json()
        obj.pop("options", None)  # constant for the game, and may be long
        pending = self.pending_json(player)
        if pending is not None:
            obj["pending"] = pending
        if self.truncated:
            obj["truncated"] = True
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))

    def debug_string(self) -> str:
        """Everything, hidden cards included (OpenSpiel's ``str(state)``)."""
        obj: dict[str, Any] = json.loads(self.info_string(None))
        obj.update(self.layout.hidden_json(self.s))
        obj["pending_cards"] = list(self.pending)
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=16)
def _outcome_index(deck: tuple[int, ...]) -> dict[int, int]:
    """Card to chance outcome: the inverse of a layout's ``deck``."""
    return {card: i for i, card in enumerate(deck)}


class CardtableState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state: a thin shell around :class:`_Core`."""

    def __init__(self, game: CardtableGame) -> None:
        super().__init__(game)
        self._core = _Core(game.ct_game, game.layout, game.max_moves, game.ct_game.new_state())

    @property
    def engine(self) -> State:
        """The cardtable engine state (privileged: holds every hidden card)."""
        return self._core.s

    @property
    def decisions(self) -> int:
        """Decisions made so far (they count towards ``max_moves``)."""
        return self._core.moves

    @property
    def truncated(self) -> bool:
        """True when the game was stopped at ``max_moves`` (see module doc)."""
        return self._core.truncated

    def current_player(self) -> int:
        return self._core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE:
            card = core.layout.card_name(core.layout.deck[action])
            return f"{'reshuffle' if core.held is not None else 'deal'} {card}"
        return str(core.ct.move_from_index(action))

    def is_terminal(self) -> bool:
        return self._core.terminal

    def returns(self) -> list[float]:
        return self._core.returns()

    def __str__(self) -> str:
        return self._core.debug_string()


# ------------------------------------------------------------------ observer
class _Observer:
    """OpenSpiel's PyObserver contract: ``tensor``, ``dict``, ``set_from``,
    ``string_from``. The seat's view (or, for public-only observers, the
    spectator's) feeds the game's encoder (:mod:`cardtable.adapters.observations`)."""

    def __init__(
        self, game: CardtableGame, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError(
                    "supported observations: public info with the player's own (default, "
                    "information state) or with none (private_info=NONE)"
                )
        self.own = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        # An observer of its own: encoders keep memos that must not be shared.
        self.encoder = observations.encoder(game.ct_game) if game.obs_size else None
        self.tensor = np.zeros(game.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardtableState, player: int) -> None:
        if self.encoder is not None:
            self.tensor[:] = self.encoder.encode(state._core.view(player if self.own else None))

    def string_from(self, state: CardtableState, player: int) -> str:
        return state._core.info_string(player if self.own else None)


# ------------------------------------------------------------------ search helpers
def info_state_string(state: CardtableState, player: int) -> str:
    """The information-state string without the pyspiel round trip."""
    return state._core.info_string(player)


def state_from_engine(ps_game: CardtableGame, engine: State, moves: int = 0) -> CardtableState:
    """A pyspiel state around an engine state at a decision (e.g. a
    determinization); ``moves`` decisions count as already made."""
    state = ps_game.new_initial_state()
    core = state._core
    core.s = engine
    core.moves = moves
    return state


def make_resampler(
    rng: random.Random,
) -> Callable[[CardtableState, int], CardtableState]:
    """The callback for ``ISMCTSBot.set_resampler``: ``(state, player)`` to a
    state ``player`` cannot tell from ``state`` (same information-state
    string), with the unseen cards redrawn by :func:`determinize`."""

    def resample(state: CardtableState, player: int) -> CardtableState:
        core = state._core
        engine = determinize(core.ct, core.view(player), rng)
        return state_from_engine(state.get_game(), engine, core.moves)

    return resample


register_games()
