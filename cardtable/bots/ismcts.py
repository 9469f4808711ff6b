"""Single-observer information-set Monte Carlo tree search, for any game that resamples.

Seated as ``so-ismcts`` (``ismcts`` alone was the first name of the games'
``pimc`` and stays retired, so an old command line is refused, not given
another bot).

One tree of the searching seat's information (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", 2012: SO-ISMCTS). Each simulation

1. draws a determinization from the seat's view (the game's ``determinize``,
   as the flat :mod:`cardtable.bots.search` does), so no hidden card is ever
   read;
2. walks down the tree, applying moves to that sample. A node is what the
   searching seat *knows*: its children are the moves of the seat to move
   there (every move of the built-in games and the fixtures is seen by all:
   a card played, a draw from a named pile), and a move's outcomes are keyed
   by the searching seat's view after it, so that what chance showed the
   seat (its own drawn card) tells nodes apart and nothing hidden from it
   does: an opponent's move leads to one node whatever the hidden cards
   were, and the tree grows past the root (a tree keyed by each opponent's
   own information, redrawn every simulation, does not). Where the seat to
   move has moves not yet tried from this node, one of them is expanded:
   the playout policy's own move for that seat in this sample if it is one
   of them (a small budget searches first what the policy would play),
   else one at random; else the move with the best upper confidence bound among those
   *available* in this sample, for the seat that moves there: its mean
   margin for that seat plus ``exploration`` times the spread of margins
   seen so far times ``sqrt(ln(availability) / visits)``;
3. plays the rest of the round out with the game's playout policy (its
   evaluator's, else its heuristic bot, else random: :mod:`cardtable.bots.playout`);
4. backs every seat's score margin at the end of the round (or the
   evaluator's cutoff) up the path: each node keeps the margin of the seat
   that moved into it.

The move played is the root's move visited most. The tree never leaves the
round of the decision: past it the deal is unknown to everyone alike.

``budget.iterations`` counts simulations; ``budget.seconds`` stops at the
first simulation past the time. With neither it thinks as long as the flat
search (:data:`cardtable.bots.search.DEFAULT_SECONDS`).
A seeded bot with an iteration budget repeats its choices exactly.

>>> import random, cardtable
>>> from cardtable.bots.base import Budget
>>> game = cardtable.load("marshmallow-test", players=3, target=5)
>>> state = game.new_game(random.Random(1))
>>> bot = IsmctsBot(0, game, random.Random(2), Budget(iterations=30))
>>> bot.choose(state.view(0), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from cardtable.bots.base import Budget
from cardtable.bots.playout import has_policy, margin, playouts_for, round_totals
from cardtable.bots.search import DEFAULT_SECONDS
from cardtable.core.game import Game, Move, State, View
from cardtable.core.registry import manifest

__all__ = ["EXPLORATION", "Edge", "IsmctsBot", "Node"]

# The UCB constant, in units of the spread of margins seen (so one constant
# serves games that score in ones and games that score in hundreds).
EXPLORATION = 0.7


@dataclass(eq=False, slots=True)
class Edge:
    """A move from one information set: visits, availability (the samples in
    which it was legal there), the summed margin of the seat that made it,
    and the information sets it led to, keyed by the searcher's view."""

    available: int = 0
    visits: int = 0
    total: float = 0.0
    outcomes: dict[Hashable, Node] = field(default_factory=dict)


@dataclass(eq=False, slots=True)
class Node:
    """An information set of the searching seat: its moves by index."""

    edges: dict[int, Edge] = field(default_factory=dict)


class IsmctsBot:
    """SO-ISMCTS over the seat's view (module doc).

    :class:`~cardtable.core.manifest.MissingPartError` if the game offers no
    ``determinize``.
    """

    def __init__(
        self,
        seat: int,
        game: Game,
        rng: random.Random,
        budget: Budget | None = None,
        exploration: float = EXPLORATION,
    ) -> None:
        self.seat = seat
        self.game = game
        self.rng = rng
        self.budget = budget if budget is not None else Budget()
        self.exploration = exploration
        self.determinize = manifest(game.name).part("determinize")
        self.playouts = playouts_for(game)
        self.lowest_wins = manifest(game.name).lowest_wins
        self.policied = has_policy(self.playouts)
        self.low, self.high = 0.0, 0.0  # the margins seen: their spread scales exploration

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        root = self.search(view)
        by_index = {move.index: move for move in legal}
        best = max(root.edges.items(), key=lambda item: (item[1].visits, item[1].total))
        return by_index[best[0]]

    def search(self, view: View) -> Node:
        """The tree grown from ``view`` within the budget."""
        iterations = self.budget.iterations
        deadline = self.budget.deadline(DEFAULT_SECONDS)
        root = Node()
        done = 0
        while True:
            sample = self.determinize(self.game, view, random.Random(self.rng.getrandbits(64)))
            self._simulate(root, sample.clone(random.Random(self.rng.getrandbits(64))))
            done += 1
            if iterations is not None and done >= iterations:
                return root
            if deadline is not None and time.perf_counter() >= deadline:
                return root

    def _simulate(self, root: Node, state: State) -> None:
        """One simulation on a determinized ``state`` (changed in place)."""
        round_number = state.round_number
        path: list[tuple[Edge, int]] = []  # each move made, with the seat that made it
        node = root
        while not state.finished and state.round_number == round_number:
            mover = state.to_move
            if mover is None:  # a deal between rounds: the round is over
                break
            legal = state.legal_moves()
            for move in legal:
                edge = node.edges.get(move.index)
                if edge is not None:
                    edge.available += 1
            untried = [move for move in legal if move.index not in node.edges]
            if untried:
                move = self._first_try(state, untried)
                edge = node.edges[move.index] = Edge(available=1)
            else:
                move = max(legal, key=lambda m: self._bound(node.edges[m.index]))
                edge = node.edges[move.index]
            state.apply(move)
            path.append((edge, mover))
            if untried:
                break  # expanded: play the rest out
            key = self._seen(state)
            following = edge.outcomes.get(key)
            if following is None:
                edge.outcomes[key] = Node()  # a new information set: play the rest out
                break
            node = following
        totals = round_totals(state, self.playouts, random.Random(self.rng.getrandbits(64)),
                              round_number, moves=len(path))  # fmt: skip
        for edge, mover in path:
            value = margin(totals, mover, self.lowest_wins)
            self.low, self.high = min(self.low, value), max(self.high, value)
            edge.visits += 1
            edge.total += value

    def _first_try(self, state: State, untried: Sequence[Move]) -> Move:
        """The move to expand: the playout policy's own where it is untried
        (the policy decides from the mover's view of this sample), else one
        at random."""
        if self.policied:
            move = self.playouts.policy(random.Random(self.rng.getrandbits(64)))(state)
            if move in untried:
                return move
        return untried[self.rng.randrange(len(untried))]

    def _seen(self, state: State) -> Hashable:
        """What the searching seat sees of ``state``: its view, or where a
        game's views cannot be hashed, their JSON."""
        view = state.view(self.seat)
        if isinstance(view, Hashable):
            return view
        return json.dumps(view.to_json(), sort_keys=True)

    def _bound(self, edge: Edge) -> float:
        spread = max(self.high - self.low, 1e-9)
        mean = edge.total / edge.visits
        return mean + self.exploration * spread * math.sqrt(
            math.log(max(edge.available, 1)) / edge.visits
        )
