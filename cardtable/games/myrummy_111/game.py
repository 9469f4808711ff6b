"""The MyRummy 111 game object: options, the state factory and the record codec."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardtable.core.errors import OptionError
from cardtable.games.myrummy_111 import codec, moves
from cardtable.games.myrummy_111.cards import symbol_lookup
from cardtable.games.myrummy_111.codec import Deal
from cardtable.games.myrummy_111.moves import Move, Place
from cardtable.games.myrummy_111.options import OPTION_NAMES, Options, make_options
from cardtable.games.myrummy_111.state import MyRummyState
from cardtable.games.myrummy_111.view import MyRummyView, view_from_json

#: Turns a round is taken to end within when ``turn_limit`` is off: nobody has
#: to declare (MR-4.5), so the rules put no bound on a round. The same cap as
#: the OpenSpiel layout's ``TURN_CAP``; the heuristic bots' longest round in
#: 20 games at each player count was 74 turns (5 players).
TURN_CAP = 500


class MyRummy111:
    """MyRummy 111 with fixed options (MR-9); bad options raise OptionError.

    >>> game = MyRummy111(players=3, rounds=3)
    >>> state = game.new_game(random.Random(7))
    >>> state.to_move, state.phase, len(state.legal_moves())
    (0, 'take', 3)
    """

    name = "myrummy-111"
    num_actions = moves.NUM_ACTIONS

    def __init__(
        self,
        players: object = None,
        hand_sizes: object = None,
        target: object = 60,
        rounds: object = None,
        turn_limit: object = None,
        symbols: object = None,
        first_player: object = 0,
        **unknown: object,
    ) -> None:
        for option in unknown:
            raise OptionError(option, f"unknown option; options are {', '.join(OPTION_NAMES)}")
        self.options: Options = make_options(
            players, hand_sizes, target, rounds, turn_limit, symbols, first_player
        )
        self.num_players: int = self.options.players
        self.symbol_lookup: tuple[int, ...] = symbol_lookup(self.options.symbols)
        # Legal placements per seat, precomputed (MR-4.3/4.4 depend on hand size only).
        self.places_by_seat: tuple[tuple[Place, ...], ...] = tuple(
            moves.legal_places(h) for h in self.options.hand_sizes
        )

    @property
    def options_json(self) -> dict[str, Any]:
        return self.options.to_json()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MyRummy111) and other.options == self.options

    def __hash__(self) -> int:
        return hash(self.options)

    def max_decisions(self) -> int:
        """The most decisions one whole game with these options takes
        (:class:`cardtable.core.game.BoundedGame`), from the rules.

        A turn is two decisions, a take and a place (MR-4). A round lasts at
        most ``turn_limit`` turns (MR-6.4); without it nobody ever has to
        declare (MR-4.5), so a round, and the game, can go on for ever, and
        the bound takes a round to end within :data:`TURN_CAP` turns.

        Rounds: exactly ``rounds`` (MR-7.2). Else every round pays each
        player but the declarer at least 2 (MR-6.3, MR-6.4: any two
        neighbouring cards are a run, every card has a symbol or more, MR-1.2),
        and before the last round every total is below the target (MR-7.1),
        so a game has at most ``players · (target - 1) // (2 · (players -
        1)) + 1`` rounds.

        >>> MyRummy111(players=3, rounds=2, turn_limit=30).max_decisions()
        120
        >>> MyRummy111(players=3).max_decisions()  # 45 rounds of 500 turns
        45000
        """
        opts, players = self.options, self.options.players
        rounds = opts.rounds
        if rounds is None:
            rounds = players * (opts.target - 1) // (2 * (players - 1)) + 1
        return rounds * 2 * (opts.turn_limit or TURN_CAP)

    def new_game(self, rng: random.Random) -> MyRummyState:
        """A game whose deals and MR-4.6 reshuffles draw only on ``rng``."""
        if not isinstance(rng, random.Random):
            raise TypeError(f"new_game needs a random.Random, not {rng!r}")
        return MyRummyState(self, self.options, self.symbol_lookup, self.places_by_seat, rng)

    def new_state(self, rng: random.Random | None = None) -> MyRummyState:
        """A game; without ``rng`` it waits for ``state.deal(deal)`` each round
        and for every MR-4.6 reshuffle to be given to ``apply``."""
        return MyRummyState(self, self.options, self.symbol_lookup, self.places_by_seat, rng)

    def move_from_index(self, index: int) -> Move:
        return moves.move_from_index(index)

    def parse_move(self, text: str) -> Move:
        return moves.parse_move(text)

    def deal_from_json(self, obj: Any, where: str) -> Deal:
        return codec.deal_from_json(obj, where, self.options)

    def move_from_json(self, obj: Any, where: str) -> tuple[int, Move, Mapping[str, Any]]:
        return codec.move_from_json(obj, where, self.options)

    def view_from_json(self, obj: Any) -> MyRummyView:
        return view_from_json(obj)

    def __repr__(self) -> str:
        return f"MyRummy111(**{self.options_json!r})"
