"""The games as OpenSpiel (``pyspiel``) games.

``import cardtable.adapters.openspiel`` registers two Python games::

    pyspiel.load_game("python_cardtable_marshmallow_test", {"players": 3, "target": 10})
    pyspiel.load_game("python_cardtable_myrummy_111", {"players": 2, "turn_limit": 40})

**Parameters** are the game's options (MT-10, MR-9). pyspiel parameters hold
only ints, floats, bools and strings, so: ``hand_sizes`` is a string of sizes
(``"12/13/12"``; commas, spaces, ``/`` or ``;`` separate, ``""`` = 12 each),
``symbols`` a string of 110 digits 1-4 (separators allowed, ``""`` = default
deck), and ``rounds``/``turn_limit`` are ``0`` for "off". The game string
always writes the canonical form (``/`` and bare digits), which survives
OpenSpiel's ``name(a=1,b=2)`` syntax. One adapter parameter: ``max_moves``
(``0`` = automatic), see *Length* below.

**Chance.** Every deal is chance nodes, one card at a time (the outcome is the
card: MT ``0-59``, MyRummy ``card - 2``, uniform over the cards not yet dealt).
Marshmallow Test deals 12 cards to seat 0, then 12 to seat 1, ... (hands are
sets, so the order only names the outcomes); the cards left over are set aside.
MyRummy deals all 110: each hand left to right (MR-3.1 "the order dealt"), the
three middle slots, then the draw pile top first. A refresh that needs MR-4.6
becomes chance nodes too: the player's ``Take`` is held, the discard pile's new
order is drawn card by card (top first), then the take is applied with that
``reshuffle``. One chance node per card because OpenSpiel enumerates a chance
node's outcomes: a node over permutations (up to ~100! of them) cannot be
listed, while one card at a time keeps at most 110 outcomes
(``max_chance_outcomes``) with exact uniform probabilities.

**Information.** ``information_state_string(p)`` is canonical JSON (sorted
keys) of the engine's ``view(p)`` — the only door for hidden cards — plus the
deal in progress as ``p`` sees it. States ``p`` cannot tell apart give equal
strings, which is what ISMCTS keys on. The view holds the whole current round
and the scores of earlier rounds (not their cards: they no longer matter for
play), so it is a sufficient statistic rather than a literal perfect-recall
history. ``observation_string`` is the same (the view is what a seat observes);
an observer with ``private_info=NONE`` uses the spectator view ``view(None)``.
Tensors (both kinds) are :func:`cardtable.adapters.observations.encode` of the
same view, through ``make_py_observer`` as OpenSpiel's Python games do.

**Returns.** Points: at the terminal, ``returns()`` is each seat's final score
(marshmallows; MyRummy symbols). The reward model is ``TERMINAL`` (OpenSpiel's
``MCTSBot`` requires it), so before the end ``returns()`` and ``rewards()`` are
zero -- OpenSpiel checks that returns are the sum of rewards so far; the
running scores are in ``state.engine.scores``. Utility is general-sum, from 0 to
the largest score possible (MT: ``target - 1 +`` the most one going-out can pay;
MyRummy: ``target - 1`` (or ``rounds - 1`` rounds) plus the best possible round).

**Length.** ``max_game_length`` counts decisions. Marshmallow Test has no
bound (a round may pay nobody), so the adapter stops a game after
``max_moves`` decisions: automatic = ``(12·players + 1)·(10·target + 10)``,
~10 times the rounds a game takes even if each paid only one point. MyRummy:
every round pays every non-declarer at least 2 (a run of two cards), so a game
has at most ``rounds`` or ``ceil(target·n / (2(n-1)))`` rounds; a round is
bounded by ``turn_limit`` (2 decisions a turn) or, when that is off, by the
adapter's cap of 500 turns. A game stopped at ``max_moves`` is terminal with
the scores so far (``state.truncated`` says so); at the automatic values that
happens only in astronomically unlikely games, or in MyRummy without
``turn_limit`` when nobody declares.

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
import math
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from cardtable.adapters import observations
from cardtable.adapters.openspiel_determinize import determinize
from cardtable.core.game import Game, State, View
from cardtable.games.marshmallow_test import MarshmallowTest
from cardtable.games.marshmallow_test.cards import CARD_NAMES, NUM_CARDS
from cardtable.games.marshmallow_test.codec import Deal as MTDeal
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT
from cardtable.games.myrummy_111 import MyRummy111, Take
from cardtable.games.myrummy_111 import Options as MROptions
from cardtable.games.myrummy_111.cards import LOWEST
from cardtable.games.myrummy_111.cards import NUM_CARDS as MR_NUM_CARDS
from cardtable.games.myrummy_111.codec import deal_from_cards

__all__ = [
    "MR_NAME",
    "MT_NAME",
    "cardtable_game",
    "info_state_string",
    "load",
    "make_resampler",
    "state_from_engine",
]

MT_NAME = "python_cardtable_marshmallow_test"
MR_NAME = "python_cardtable_myrummy_111"
MR_TURN_CAP = 500  # turns per round when turn_limit is off (see Length)

_MT_PARAMS: dict[str, Any] = {
    "players": 2,
    "target": 20,
    "trump_after_ruff": "may",
    "first_dealer": 0,
    "max_moves": 0,
}
_MR_PARAMS: dict[str, Any] = {
    "players": 2,
    "hand_sizes": "",
    "target": 60,
    "rounds": 0,
    "turn_limit": 0,
    "symbols": "",
    "first_player": 0,
    "max_moves": 0,
}


def _game_type(short_name: str, long_name: str, params: dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_MT_TYPE = _game_type(MT_NAME, "cardtable Marshmallow Test", _MT_PARAMS)
_MR_TYPE = _game_type(MR_NAME, "cardtable MyRummy 111", _MR_PARAMS)


# ------------------------------------------------------------------ parameters
def _split_ints(text: str, name: str) -> list[int]:
    words = text.replace(",", " ").replace("/", " ").replace(";", " ").split()
    if len(words) == 1 and name == "symbols":
        words = list(words[0])  # 110 bare digits
    try:
        return [int(w) for w in words]
    except ValueError:
        raise ValueError(f"{name}: {text!r} is not a list of integers") from None


def _mt_options(params: dict[str, Any]) -> dict[str, Any]:
    return {k: params[k] for k in ("players", "target", "trump_after_ruff", "first_dealer")}


def _mr_options(params: dict[str, Any]) -> dict[str, Any]:
    hand_sizes = params["hand_sizes"]
    symbols = params["symbols"]
    return {
        "players": params["players"],
        "hand_sizes": _split_ints(hand_sizes, "hand_sizes") if hand_sizes else None,
        "target": params["target"],
        "rounds": params["rounds"] or None,
        "turn_limit": params["turn_limit"] or None,
        "symbols": _split_ints(symbols, "symbols") if symbols else None,
        "first_player": params["first_player"],
    }


def _canonical_mr(params: dict[str, Any], game: MyRummy111) -> dict[str, Any]:
    """Parameters written so that the game string parses back (no commas)."""
    out = dict(params)
    opts = game.options
    out["hand_sizes"] = "/".join(map(str, opts.hand_sizes)) if params["hand_sizes"] else ""
    out["symbols"] = "".join(map(str, opts.symbols)) if params["symbols"] else ""
    return out


@lru_cache(maxsize=64)
def _cardtable_game(short_name: str, key: tuple[tuple[str, Any], ...]) -> Game:
    params = dict(key)
    if short_name == MT_NAME:
        return MarshmallowTest(**_mt_options(params))
    return MyRummy111(**_mr_options(params))


def cardtable_game(ps_game: pyspiel.Game) -> Game:
    """The cardtable game behind one of these pyspiel games."""
    game: Game = ps_game.ct_game
    return game


def load(game: Game, max_moves: int = 0) -> pyspiel.Game:
    """The pyspiel game with the options of the cardtable ``game``."""
    opts = game.options_json
    if isinstance(game, MarshmallowTest):
        return pyspiel.load_game(MT_NAME, {**opts, "max_moves": max_moves})
    if isinstance(game, MyRummy111):
        default = MyRummy111(players=game.num_players)
        params: dict[str, Any] = {
            "players": opts["players"],
            "target": opts["target"],
            "rounds": opts["rounds"] or 0,
            "turn_limit": opts["turn_limit"] or 0,
            "first_player": opts["first_player"],
            "hand_sizes": "/".join(map(str, opts["hand_sizes"])),
            "symbols": "".join(map(str, opts["symbols"])),
            "max_moves": max_moves,
        }
        if opts["hand_sizes"] == default.options_json["hand_sizes"]:
            params["hand_sizes"] = ""
        if opts["symbols"] == default.options_json["symbols"]:
            params["symbols"] = ""
        return pyspiel.load_game(MR_NAME, params)
    raise TypeError(f"no OpenSpiel adapter for {game!r}")


# ------------------------------------------------------------------ games
class _CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """Shared by both games: options, sizes, the observer factory."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = _MT_PARAMS if self.short_name == MT_NAME else _MR_PARAMS
        full = {**spec, **(params or {})}
        unknown = set(full) - set(spec)
        if unknown:
            raise ValueError(f"unknown parameters {sorted(unknown)}; known: {sorted(spec)}")
        key = tuple(sorted(full.items()))
        self.ct_game: Game = _cardtable_game(self.short_name, key)
        if isinstance(self.ct_game, MyRummy111):
            full = _canonical_mr(full, self.ct_game)
        self.params = full
        self.max_moves = full["max_moves"] or self._auto_max_moves()
        self.obs_size = observations.observation_size(self.ct_game)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ct_game.num_actions,
            max_chance_outcomes=NUM_CARDS if self.short_name == MT_NAME else MR_NUM_CARDS,
            num_players=self.ct_game.num_players,
            min_utility=0.0,
            max_utility=float(self._max_utility()),
            utility_sum=None,
            max_game_length=self.max_moves,
        )
        super().__init__(_MT_TYPE if self.short_name == MT_NAME else _MR_TYPE, info, full)

    def _auto_max_moves(self) -> int:
        raise NotImplementedError

    def _max_utility(self) -> int:
        raise NotImplementedError

    def new_initial_state(self) -> CardtableState:
        return CardtableState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> _Observer:
        return _Observer(self, iig_obs_type, params)

    def max_chance_nodes_in_history(self) -> int:
        return self._max_chance_nodes()

    def _max_chance_nodes(self) -> int:
        raise NotImplementedError


class MarshmallowGame(_CardtableGame):
    short_name = MT_NAME

    def _auto_max_moves(self) -> int:
        n, target = int(self.params["players"]), int(self.params["target"])
        return (12 * n + 1) * (10 * target + 10)

    def _max_utility(self) -> int:
        # MT-6.2/8.1: below target before the last going-out, which pays at
        # most the tricks of the others: 12 minus the tricks needed.
        return int(self.params["target"]) - 1 + 12 - TRICKS_TO_GO_OUT[self.params["players"]]

    def _max_chance_nodes(self) -> int:
        rounds = self.max_moves // 2 + 1  # every round has at least 2 decisions
        return rounds * 12 * int(self.params["players"])


class MyRummyGame(_CardtableGame):
    short_name = MR_NAME

    @property
    def _opts(self) -> MROptions:
        game = self.ct_game
        assert isinstance(game, MyRummy111)
        return game.options

    def _rounds_bound(self) -> int:
        n, opts = int(self.params["players"]), self._opts
        if opts.rounds is not None:
            return opts.rounds
        return math.ceil(opts.target * n / (2 * (n - 1)))

    def _best_round(self) -> int:
        opts = self._opts
        top = sorted(opts.symbols, reverse=True)
        return sum(top[: max(opts.hand_sizes)]) + 5  # MR-6.2

    def _auto_max_moves(self) -> int:
        limit = self._opts.turn_limit or MR_TURN_CAP
        return self._rounds_bound() * 2 * limit

    def _max_utility(self) -> int:
        opts = self._opts
        best = self._best_round()
        if opts.rounds is not None:
            return opts.rounds * best
        return opts.target - 1 + best

    def _max_chance_nodes(self) -> int:
        # Each round's deal, plus reshuffles: at most one per 3 turns' refresh.
        turns = self.max_moves // 2
        return self._rounds_bound() * MR_NUM_CARDS + (turns // 3 + 1) * MR_NUM_CARDS


# ------------------------------------------------------------------ states
class _Core:
    """Everything a state holds, in one object, so that pyspiel's ``Clone``
    (a deepcopy of the state's ``__dict__``) is one cheap engine ``clone``."""

    __slots__ = ("ct", "kind", "max_moves", "moves", "pending", "pending_take", "s", "truncated")

    def __init__(self, ct: Game, kind: str, max_moves: int, s: State) -> None:
        self.ct = ct
        self.kind = kind
        self.max_moves = max_moves
        self.s: Any = s  # MarshmallowState or MyRummyState
        self.moves = 0  # decisions so far (for max_moves)
        self.pending: list[int] = []  # cards of the deal or reshuffle in progress
        self.pending_take: Take | None = None  # a refresh waiting for MR-4.6
        self.truncated = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core.__new__(_Core)
        c.ct = self.ct
        c.kind = self.kind
        c.max_moves = self.max_moves
        c.s = self.s.clone()
        c.moves = self.moves
        c.pending = self.pending[:]
        c.pending_take = self.pending_take
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
        return not self.terminal and (self.s.awaiting_deal or self.pending_take is not None)

    def current_player(self) -> int:
        if self.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.chance:
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.s.to_move)

    def legal_actions(self) -> list[int]:
        return sorted(m.index for m in self.s.legal_moves())

    def _chance_cards(self) -> list[int]:
        """The cards (engine ints) the next chance outcome may be."""
        done = set(self.pending)
        if self.pending_take is not None:
            pile = (*self.s.discard_pile, *self.s.middle)
            return [c for c in sorted(pile) if c not in done]
        if self.kind == MT_NAME:
            return [c for c in range(NUM_CARDS) if c not in done]
        return [c for c in range(LOWEST, LOWEST + MR_NUM_CARDS) if c not in done]

    def _offset(self) -> int:
        return 0 if self.kind == MT_NAME else LOWEST

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self._chance_cards()
        p = 1.0 / len(cards)
        off = self._offset()
        return [(c - off, p) for c in cards]

    def apply(self, action: int) -> None:
        if self.chance:
            self._apply_chance(action + self._offset())
            return
        s = self.s
        move = self.ct.move_from_index(action)
        if (
            isinstance(move, Take)
            and move.refresh
            and len(s.draw_pile) < 3  # MR-4.6: the refresh needs a reshuffle
        ):
            self.pending_take = move
        else:
            s.apply(move)
        self.moves += 1
        if self.moves >= self.max_moves and not s.finished:
            self.truncated = True

    def _apply_chance(self, card: int) -> None:
        pending = self.pending
        pending.append(card)
        if self.pending_take is not None:
            if len(pending) == len(self.s.discard_pile) + 3:
                take, self.pending_take = self.pending_take, None
                self.pending = []
                self.s.apply(take, reshuffle=tuple(pending))
            return
        if self.kind == MT_NAME:
            n = self.ct.num_players
            if len(pending) == 12 * n:  # MT-3.1: 12 each, seat 0 first
                self.pending = []
                self.s.deal(
                    MTDeal(tuple(tuple(sorted(pending[12 * i : 12 * i + 12])) for i in range(n)))
                )
            return
        if len(pending) == MR_NUM_CARDS:
            self.pending = []
            self.s.deal(deal_from_cards(pending, self.ct.options.hand_sizes))  # type: ignore[attr-defined]

    def returns(self) -> list[float]:
        if not self.terminal:
            return [0.0] * self.ct.num_players  # TERMINAL reward model
        return [float(x) for x in self.s.scores]

    # ---- information
    def view(self, player: int | None) -> View:
        view: View = self.s.view(player)
        return view

    def pending_json(self, player: int | None) -> dict[str, Any] | None:
        """The chance phase in progress as ``player`` sees it (None: none)."""
        if self.pending_take is not None:
            return {"reshuffle": len(self.pending), "take": self.pending_take.index}
        if not self.chance:
            return None
        own: list[int] = []
        if player is not None:
            if self.kind == MT_NAME:
                own = sorted(self.pending[12 * player : 12 * player + 12])
            else:
                sizes = self.ct.options.hand_sizes  # type: ignore[attr-defined]
                start = sum(sizes[:player])
                own = self.pending[start : start + sizes[player]]
        return {"dealt": len(self.pending), "own": own}

    def info_string(self, player: int | None) -> str:
        obj = self.view(player).to_json()
        obj.pop("options", None)  # MyRummy: constant for the game, and long
        pending = self.pending_json(player)
        if pending is not None:
            obj["pending"] = pending
        if self.truncated:
            obj["truncated"] = True
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))

    def debug_string(self) -> str:
        """Everything, hidden cards included (OpenSpiel's ``str(state)``)."""
        s = self.s
        obj: dict[str, Any] = json.loads(self.info_string(None))
        if self.kind == MT_NAME:
            obj["hands"] = [[CARD_NAMES[c] for c in s.hand(p)] for p in range(self.ct.num_players)]
        else:
            obj["hands"] = [list(h) for h in s.hands]
            obj["middle_cards"] = list(s.middle)
            obj["draw"] = list(s.draw_pile)
        obj["pending_cards"] = list(self.pending)
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))


class CardtableState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state: a thin shell around :class:`_Core`."""

    def __init__(self, game: _CardtableGame) -> None:
        super().__init__(game)
        self._core = _Core(game.ct_game, game.short_name, game.max_moves, game.ct_game.new_state())

    @property
    def engine(self) -> State:
        """The cardtable engine state (privileged: holds every hidden card)."""
        engine: State = self._core.s
        return engine

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
            if core.kind == MT_NAME:
                return f"deal {CARD_NAMES[action]}"
            return f"{'reshuffle' if core.pending_take is not None else 'deal'} {action + LOWEST}"
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
    spectator's) feeds :mod:`cardtable.adapters.observations`."""

    def __init__(
        self, game: _CardtableGame, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.ct = game.ct_game
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError(
                    "supported observations: public info with the player's own (default, "
                    "information state) or with none (private_info=NONE)"
                )
        self.own = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(game.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardtableState, player: int) -> None:
        view = state._core.view(player if self.own else None)
        self.tensor[:] = observations.encode(self.ct, view)

    def string_from(self, state: CardtableState, player: int) -> str:
        return state._core.info_string(player if self.own else None)


# ------------------------------------------------------------------ search helpers
def info_state_string(state: CardtableState, player: int) -> str:
    """The information-state string without the pyspiel round trip."""
    return state._core.info_string(player)


def state_from_engine(ps_game: _CardtableGame, engine: State, moves: int = 0) -> CardtableState:
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
        new = state_from_engine(state.get_game(), engine, core.moves)
        return new

    return resample


pyspiel.register_game(_MT_TYPE, MarshmallowGame)
pyspiel.register_game(_MR_TYPE, MyRummyGame)
