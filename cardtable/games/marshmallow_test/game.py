"""The Marshmallow Test game object: options, the state factory and the record codec."""

from __future__ import annotations

import random
from typing import Any

from cardtable.core.errors import RecordError
from cardtable.games.marshmallow_test.cards import HAND_SIZE, NUM_CARDS
from cardtable.games.marshmallow_test.codec import Deal, deal_from_json, move_from_json
from cardtable.games.marshmallow_test.moves import NUM_ACTIONS, MTMove, move_from_index, parse_move
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT, Options, make_options
from cardtable.games.marshmallow_test.state import MarshmallowState
from cardtable.games.marshmallow_test.view import MarshmallowView, view_from_json


class MarshmallowTest:
    """The game with fixed options (MT-10); a factory of states and the record codec.

    Two games are equal when their options are: equal games play by the same
    rules and read the same records.

    >>> game = MarshmallowTest(players=4)
    >>> state = game.new_game(random.Random(7))
    >>> state.to_move, state.round_number, len(state.legal_moves())
    (0, 1, 12)
    >>> game == MarshmallowTest(players=4, target=20)
    True
    """

    name = "marshmallow-test"
    num_actions = NUM_ACTIONS  # 60 cards + 5 trump colours
    num_cards = NUM_CARDS

    def __init__(self, **options: Any) -> None:
        self.options: Options = make_options(**options)
        self.num_players: int = self.options.players

    @property
    def options_json(self) -> dict[str, Any]:
        return self.options.to_json()

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.options_json.items())
        return f"MarshmallowTest({args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MarshmallowTest) and other.options == self.options

    def __hash__(self) -> int:
        return hash(self.options)

    def max_decisions(self) -> int:
        """The most decisions one whole game with these options takes
        (:class:`cardtable.core.game.BoundedGame`), from the rules.

        A round is at most ``12 · players`` card plays (MT-3.1: 12 cards each,
        one a trick, MT-5.1) and one trump naming (MT-4.2).

        Rounds, 3 to 5 players: ``m`` players always go out of a round, ``m =
        players - 1`` (MT-7.1; the hands cannot run out first, MT-7.3), with
        5 players at least 2 (MT-7.2: beside the first one's 3 tricks, the
        other four cannot hold the 9 tricks left at 2 each). The ``j``-th out
        scores the tricks of the ``j - 1`` out before them at least (MT-6.2),
        so a round pays at least ``tricks · m(m - 1)/2`` points in all (4 with
        3 players, 9 with 4, 3 with 5; tricks: MT-6.1). Before the last round
        every total is below the target (MT-8.1), so a game has at most
        ``players · (target - 1) // that + 1`` rounds: 15, 9 and 32 at target 20.

        With 2 players a round may pay nobody (6 tricks to none: MT-6.2 pays
        the loser's 0), so the rules put no bound on a game. At most ``2 ·
        target - 1`` rounds pay (at least 1 point each); the bound allows
        ``10 · target + 10`` rounds (as the OpenSpiel layout's ``max_moves``),
        about 5 times that, so that only ``8 · target + 11`` rounds paying
        nobody reach it, where 1 round in 17 pays nobody in random play and
        1 in 40 between heuristic bots.

        >>> [MarshmallowTest(players=n).max_decisions() for n in (2, 3, 4, 5)]
        [5250, 555, 441, 1952]
        """
        opts = self.options
        players, target = opts.players, opts.target
        per_round = HAND_SIZE * players + 1
        if players == 2:
            return per_round * (10 * target + 10)
        out = 2 if players == 5 else players - 1
        least = TRICKS_TO_GO_OUT[players] * out * (out - 1) // 2
        return per_round * (players * (target - 1) // least + 1)

    def new_game(self, rng: random.Random) -> MarshmallowState:
        """A game whose deals draw only on ``rng``."""
        if not isinstance(rng, random.Random):
            raise TypeError(f"new_game needs a random.Random, not {rng!r}")
        return MarshmallowState(self, self.options, rng)

    def new_state(self, rng: random.Random | None = None) -> MarshmallowState:
        """A game; without ``rng`` it waits for ``state.deal(deal)`` each round."""
        if rng is not None and not isinstance(rng, random.Random):
            raise TypeError(f"new_state needs a random.Random or None, not {rng!r}")
        return MarshmallowState(self, self.options, rng)

    def move_from_index(self, index: int) -> MTMove:
        return move_from_index(index)

    def parse_move(self, text: str) -> MTMove:
        return parse_move(text)

    def deal_from_json(self, obj: Any, where: str) -> Deal:
        return deal_from_json(obj, where, self.num_players)

    def move_from_json(self, obj: Any, where: str) -> tuple[int, MTMove, dict[str, Any]]:
        return move_from_json(obj, where, self.num_players)

    def view_from_json(self, obj: Any) -> MarshmallowView:
        """A view from its JSON (:meth:`MarshmallowView.to_json`), checked:
        RecordError says where it is malformed, and a view of another game
        (other options) is refused too."""
        view = view_from_json(obj)
        mine = (self.num_players, self.options.target, self.options.trump_after_ruff)
        for key, want in zip(("players", "target", "trump_after_ruff"), mine, strict=True):
            seen = getattr(view, key)
            if seen != want:
                raise RecordError(
                    f"view.{key}", f"{seen!r}, not {want!r}: a view of a game with other options"
                )
        return view
