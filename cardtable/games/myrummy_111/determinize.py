"""Determinization: full MyRummy 111 states consistent with one seat's view.

The game's public door for resampling hidden cards (OpenSpiel keeps the same
knowledge in the game, as ``ResampleFromInfostate``); the manifest names
:func:`determinize` for every search bot and adapter.

A search bot receives only ``view(seat)`` (MR-5) and must imagine the hidden
cards. :func:`determinize` samples one complete :class:`MyRummyState` whose
``view(seat)`` equals the given view: the seat's own hand, the cards others
took face up at their tracked positions (``view.known``, MR-8), the face-up
middle cards, the discard pile and every size are kept; every other card
(others' unknown positions, face-down middle slots, the draw pile, and the
order of a discard pile reshuffled by MR-4.6) is drawn uniformly from the
cards that could be there.

How: :class:`Skeleton` replays the round's public history (``view.history``)
on *tokens*, one per dealt position, binding a token to a card whenever the
history reveals it (a face-up take, a discard, the seat's own hand). Every
token never revealed is free; a sample assigns the unseen cards to the free
tokens at random, which gives a concrete :class:`Deal`, and the history is
replayed through the engine's own ``apply`` (so the rules are the engine's).
A reshuffle (MR-4.6) starts new tokens whose cards are a permutation of the
(public) pile that was shuffled.

The skeleton depends only on the view, so a bot builds it once per decision
and samples it many times (:meth:`Skeleton.sample`).

>>> import random
>>> from cardtable.games.myrummy_111 import MyRummy111
>>> game = MyRummy111(players=3)
>>> state = game.new_game(random.Random(1))
>>> for _ in range(9):
...     _ = state.apply(state.legal_moves()[0])
>>> view = state.view(1)
>>> determinize(game, view, random.Random(2)).view(1) == view
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.games.myrummy_111.cards import CARDS
from cardtable.games.myrummy_111.codec import Deal
from cardtable.games.myrummy_111.exchange import exchange
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.moves import Move, place
from cardtable.games.myrummy_111.moves import Take as TakeMove
from cardtable.games.myrummy_111.state import MyRummyState
from cardtable.games.myrummy_111.view import MyRummyView, PlaceEvent, TakeEvent

__all__ = ["InconsistentViewError", "Skeleton", "determinize", "resume_state"]


class InconsistentViewError(ValueError):
    """The view contradicts itself (a card revealed in two places)."""


@dataclass(frozen=True, slots=True)
class _Step:
    """One decision of the public history, ready to replay; ``reshuffle`` is the
    index of the reshuffle group whose sampled order the refresh needs (MR-4.6)."""

    move: Move
    reshuffle: int | None


class Skeleton:
    """The view's round replayed on tokens: what is known, what is free.

    Token ``t < 110`` is dealt position ``t`` (hands seat by seat, then the
    three middle slots, then the draw pile top first, as
    :func:`~cardtable.games.myrummy_111.codec.deal_from_cards`). A reshuffle
    ``g`` (MR-4.6) adds tokens for the new draw-pile positions it creates.
    """

    __slots__ = (
        "_bound",
        "_final",
        "_free_cards",
        "_free_tokens",
        "_group_tokens",
        "_ntok",
        "_steps",
        "_template",
        "game",
        "view",
    )

    def __init__(self, game: MyRummy111, view: MyRummyView) -> None:
        self.game = game
        self.view = view
        sizes = game.options.hand_sizes
        value: dict[int, int] = {}
        # tokens of each reshuffle group, their card set (the pile, all public)
        groups: list[list[int]] = []
        group_cards: list[list[int]] = []

        def bind(token: int, card: int) -> None:
            old = value.get(token)
            if old is not None and old != card:
                raise InconsistentViewError(f"one card position shows both {old} and {card} (MR-5)")
            value[token] = card

        # MR-3.1/3.2: dealt positions in deal order
        hands: list[list[int]] = []
        at = 0
        for size in sizes:
            hands.append(list(range(at, at + size)))
            at += size
        middle = [at, at + 1, at + 2]
        draw = list(range(at + 3, len(CARDS)))
        ntok = len(CARDS)
        discard: list[int] = []  # bottom first, as the engine keeps it
        steps: list[_Step] = []
        slot = -1
        for event in view.history:
            if isinstance(event, TakeEvent):
                group: int | None = None
                if event.refresh:  # MR-4.1
                    pile = discard + middle
                    if event.reshuffled:  # MR-4.6: the pile goes under the draw pile
                        cards = []
                        for token in pile:
                            if token not in value:  # every discarded card was shown
                                raise InconsistentViewError("a reshuffled card was never shown")
                            cards.append(value[token])
                        new = list(range(ntok, ntok + len(pile)))
                        ntok += len(pile)
                        group = len(groups)
                        groups.append(new)
                        group_cards.append(cards)
                        draw = draw + new
                        discard = []
                    else:
                        discard = pile
                    middle = draw[:3]  # slot 0 first
                    draw = draw[3:]
                slot = event.slot
                if event.card is not None:  # MR-5.1: a face-up card is public
                    bind(middle[slot], event.card)
                steps.append(_Step(TakeMove(event.slot, event.refresh), group))
            else:
                assert isinstance(event, PlaceEvent)
                # MR-4.3/4.4 on tokens, as the engine does on cards
                out = exchange(hands[event.seat], middle[slot], event.position, event.side)
                middle[slot] = out
                bind(out, event.card)  # MR-4.4: the discard is face up
                steps.append(_Step(place(event.position, event.discard, event.declare), None))
        seat = view.seat
        if seat is not None and view.hand is not None:
            for token, card in zip(hands[seat], view.hand, strict=True):
                bind(token, card)  # MR-5.2: the seat sees its own hand
            if view.taken_card is not None and view.taken_slot is not None:
                bind(middle[view.taken_slot], view.taken_card)
        # Face-up middle cards and the discard pile are bound already (discards).
        # Where every token is now (hands, middle, draw pile top first):
        self._final = (tuple(tuple(h) for h in hands), tuple(middle), tuple(draw))
        self._template: MyRummyState | None = None
        self._bound = value
        self._steps = tuple(steps)
        self._ntok = ntok
        # Group 0: the deal; the cards no token of the deal shows are free.
        dealt_shown = {c for t, c in value.items() if t < len(CARDS)}
        free_tokens = [[t for t in range(len(CARDS)) if t not in value]]
        free_cards = [[c for c in CARDS if c not in dealt_shown]]
        for new, cards in zip(groups, group_cards, strict=True):
            shown = [value[t] for t in new if t in value]
            rest = list(cards)
            for c in shown:
                rest.remove(c)
            free_tokens.append([t for t in new if t not in value])
            free_cards.append(rest)
        for tokens, cards in zip(free_tokens, free_cards, strict=True):
            if len(tokens) != len(cards):
                raise InconsistentViewError("the view shows more cards than there are")
        self._free_tokens = tuple(tuple(t) for t in free_tokens)
        self._free_cards = tuple(tuple(c) for c in free_cards)
        self._group_tokens = tuple(tuple(g) for g in groups)

    @property
    def unseen(self) -> tuple[int, ...]:
        """The cards of the deal whose place the view does not show (sorted)."""
        return self._free_cards[0]

    def assignment(self, rng: random.Random) -> list[int]:
        """A uniform sample: the card of every token (index = token)."""
        cards = [0] * self._ntok
        for token, card in self._bound.items():
            cards[token] = card
        rand = rng.random
        for tokens, pool in zip(self._free_tokens, self._free_cards, strict=True):
            # Shuffled by sorting on random keys, as the engine deals (MR-3.1):
            # uniform up to ties of 53-bit floats, and faster than rng.shuffle.
            shuffled = sorted(pool, key=lambda _card: rand())
            for token, card in zip(tokens, shuffled, strict=True):
                cards[token] = card
        return cards

    def sample(
        self,
        rng: random.Random,
        state_rng: random.Random | None = None,
        cards: Sequence[int] | None = None,
    ) -> MyRummyState:
        """One determinized state (uniform over the free cards, or from the
        token assignment ``cards``). Its generator is ``state_rng`` (default
        ``rng``): it deals later rounds and MR-4.6 reshuffles in simulations."""
        if cards is None:
            cards = self.assignment(rng)
        view = self.view
        game = self.game
        state = resume_state(game, view, rng if state_rng is None else state_rng)
        if view.phase is None:
            return state
        sizes = game.options.hand_sizes
        n = len(CARDS)
        hands = []
        at = 0
        for size in sizes:
            hands.append(tuple(cards[at : at + size]))
            at += size
        state.deal(Deal(tuple(hands), tuple(cards[at : at + 3]), tuple(cards[at + 3 : n])))
        for step in self._steps:
            if step.reshuffle is None:
                state.apply(step.move)
            else:
                order = [cards[t] for t in self._group_tokens[step.reshuffle]]
                state.apply(step.move, reshuffle=order)
        return state

    def sample_fast(
        self, rng: random.Random, state_rng: random.Random | None = None
    ) -> MyRummyState:
        """Like :meth:`sample`, but replays the history once (a template) and
        then only rewrites where the cards are *now*: the hands, the middle and
        the draw pile. The state plays on exactly like a sampled one; only its
        internal log of hidden face-down takes is the template's (no seat's view
        ``view.seat`` shows those, so ``view(view.seat)`` is unchanged)."""
        if self._template is None:
            self._template = self.sample(rng)
        if self.view.phase is None:
            return self._template.clone(rng if state_rng is None else state_rng)
        cards = self.assignment(rng)
        hands, middle, draw = self._final
        return self._template.with_cards(
            [[cards[t] for t in hand] for hand in hands],
            [cards[t] for t in middle],
            [cards[t] for t in draw],
            rng if state_rng is None else state_rng,
        )


def resume_state(game: MyRummy111, view: MyRummyView, rng: random.Random | None) -> MyRummyState:
    """A state awaiting the deal of ``view``'s round: same round number, start
    player (MR-2.2), totals and past round scores (MR-7).

    Past deals are not known to a seat and are not needed to play on, so
    ``record()`` of such a state lists only the current round."""
    state = game.new_state()
    # MyRummy scores a round only at its end: round_scores are the past rounds
    # (all of them once the game is finished, which needs only its result).
    state.resume(
        round_number=view.round_number,
        start_player=view.start_player,
        scores=view.scores,
        past_round_scores=view.round_scores,
        last_round=view.last_round,
        finished=view.finished,
    )
    if rng is not None:
        state = state.clone(rng)
    return state


def determinize(game: MyRummy111, view: MyRummyView, rng: random.Random) -> MyRummyState:
    """A full state consistent with ``view``, hidden cards uniform (see module doc).

    ``determinize(game, view, rng).view(view.seat) == view`` holds for every
    view a state produced; the state uses ``rng`` for its own later chance."""
    return Skeleton(game, view).sample(rng)
