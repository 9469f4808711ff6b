"""The rules of Marshmallow Test: every legality check and score lives here.

The state is compact for speed: hands are 60-bit masks, legal moves come from
precomputed tuples of move singletons (one table per colour, indexed by that
colour's 12-bit mask) and ``apply`` validates with bit tests. History is kept
as tuples shared between clones, so ``clone`` copies only a few short lists.
Trick strength and the words of a refusal come from :mod:`.tricks`, where
each trick rule is defined once; ``apply`` and :meth:`refusal` (the check
without applying) raise and report through the same methods. ``apply``
returns a shared :class:`~cardtable.core.game.Applied` singleton per seat
and move, so the hot path allocates nothing for its answer. Rule numbers
(``MT-5.4``) refer to ``shared/spec/marshmallow-test.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.core.engine import NO_CHANCE, Engine, Refusal, applied_by_seat, explanation
from cardtable.core.errors import IllegalMoveError, RefusalParam
from cardtable.core.game import Applied, Explanation, Game
from cardtable.core.shuffle import shuffle
from cardtable.games.marshmallow_test.cards import (
    BIT,
    CARD_NAMES,
    COLOUR_MASKS,
    COLOUR_NAMES,
    COLOUR_OF,
    COLOUR_SHIFT,
    NUM_CARDS,
    cards_of,
)
from cardtable.games.marshmallow_test.codec import Deal
from cardtable.games.marshmallow_test.moves import MOVES, PLAYS, TRUMPS, MTMove, NameTrump, Play
from cardtable.games.marshmallow_test.options import TRICKS_TO_GO_OUT, Options
from cardtable.games.marshmallow_test.tricks import STRENGTH, TRICKS_PER_ROUND, must_play
from cardtable.games.marshmallow_test.view import MarshmallowView

# Phases. PLAYING is 0 so the hot path tests ``if self._phase`` only.
PLAYING, TRUMP_DUE, AWAITING_DEAL, FINISHED = range(4)


def _colour_table(colour: int) -> tuple[tuple[Play, ...], ...]:
    """``table[m]``: the Play singletons of ``colour`` whose bits are set in the
    12-bit mask ``m``, lowest first."""
    base = colour * 12
    table: list[tuple[Play, ...]] = [()]
    for m in range(1, 4096):
        low = (m & -m).bit_length() - 1
        table.append((PLAYS[base + low], *table[m & (m - 1)]))
    return tuple(table)


_T = tuple(_colour_table(c) for c in range(5))
_T0, _T1, _T2, _T3, _T4 = _T
# ``_APPLIED[seat][move.index]``: what ``apply`` returns for a move without a deal after it.
_APPLIED = applied_by_seat(max(TRICKS_TO_GO_OUT), MOVES)
# The same for card plays by the stored play code ``seat << 6 | card`` (one
# subscript on the hot path; cards are below 64).
_APPLIED_PLAY = tuple(
    _APPLIED[code >> 6][code & 63] if code & 63 < NUM_CARDS else None
    for code in range(max(TRICKS_TO_GO_OUT) << 6)
)


def _not_held(seat: int, card: int) -> Refusal:
    name = CARD_NAMES[card]
    # MT-5.1: only a held card
    return Refusal(
        f"seat {seat} does not hold {name}",
        "MT-5.1",
        key="MT-5.1.not-held",
        params={"seat": seat, "card": name},
    )


# What ``explain`` answers during play for a legal card and a card not held.
_LEGAL_PLAY = tuple(explanation(move, None) for move in PLAYS)
_NOT_HELD = tuple(
    tuple(explanation(PLAYS[c], _not_held(s, c)) for c in range(NUM_CARDS))
    for s in range(max(TRICKS_TO_GO_OUT))
)


def _full_hand(hand: int) -> tuple[Play, ...]:
    return (
        _T0[hand & 0xFFF]
        + _T1[(hand >> 12) & 0xFFF]
        + _T2[(hand >> 24) & 0xFFF]
        + _T3[(hand >> 36) & 0xFFF]
        + _T4[hand >> 48]
    )


# A trick as stored: (winner, plays) with each play encoded ``seat << 6 | card``.
StoredTrick = tuple[int, tuple[int, ...]]
# A finished round: (deal, dealer, trump or -1, tricks, unfinished trick, points).
StoredRound = tuple[Deal, int, int, tuple[StoredTrick, ...], tuple[int, ...], tuple[int, ...]]


# A state's fields, grouped by meaning: its ``__slots__``, and what pickling keeps.
_FIELDS = (
    "game", "_opts", "_n", "_need", "_target", "_must", "_rng",
    "_phase", "_to_move", "_dealer", "_next_dealer", "_trump", "_round_no",
    "_hands", "_counts", "_in", "_num_in", "_next",
    "_lead", "_ruffed", "_best", "_best_seat", "_cur", "_tricks",
    "_scores", "_round_pts", "_winner", "_deal", "_past", "_seen",
)  # fmt: skip


class MarshmallowState(Engine[MarshmallowView]):
    """A game of Marshmallow Test in progress; changed only by :meth:`apply`
    and :meth:`deal`. Build one with ``MarshmallowTest.new_game(rng)``."""

    turn_rule = "MT-5.1"

    __slots__ = _FIELDS

    def __init__(
        self,
        game: Game,
        options: Options,
        rng: random.Random | None = None,
        *,
        _for_clone: bool = False,
    ) -> None:
        if _for_clone:
            return  # clone() sets every field; a compiled class has no bare __new__
        n = options.players
        opts = options
        self.game: Game = game
        self._opts = opts
        self._n = n
        self._need = TRICKS_TO_GO_OUT[n]  # MT-6.1
        self._target = opts.target
        self._must = opts.trump_after_ruff == "must"
        self._rng = rng
        self._phase = AWAITING_DEAL
        self._to_move = -1
        self._dealer = -1
        self._next_dealer = opts.first_dealer  # MT-2.2
        self._round_no = 0
        self._best = -1  # the trick's winning strength and seat so far, set by its lead
        self._best_seat = -1
        self._scores = [0] * n
        self._winner = -1
        self._deal: Deal | None = None
        self._past: tuple[StoredRound, ...] = ()
        self._clear_table([0] * n)
        if rng is not None:
            self._deal_from_rng(rng)

    # ------------------------------------------------------------------ dealing
    def _deal_from_rng(self, rng: random.Random) -> None:
        # MT-3.1: shuffle all 60 cards, 12 to each player, the rest set aside.
        deck = list(range(NUM_CARDS))
        shuffle(rng, deck)  # rng.shuffle's deal, drawn faster
        self._start_round(
            Deal(tuple(tuple(sorted(deck[12 * s : 12 * s + 12])) for s in range(self._n)))
        )

    def deal(self, deal: Deal | Any = None) -> dict[str, Any]:
        """Deal the next round when :attr:`awaiting_deal`: from an explicit deal
        (a :class:`Deal` or one sequence of 12 cards per seat), or with
        ``None`` from this state's own generator. Returns the deal as the
        record writes it."""
        if self._phase == FINISHED:
            raise IllegalMoveError("the game is over; no round follows its end", "MT-8.1")
        if self._phase != AWAITING_DEAL:
            raise IllegalMoveError(
                f"round {self._round_no} is still in progress; it ends when one player is left",
                "MT-7.1",
            )
        if deal is None:
            if self._rng is None:
                raise ValueError("this state has no generator: pass an explicit deal")
            self._deal_from_rng(self._rng)
        else:
            if not isinstance(deal, Deal):
                deal = Deal.of(deal, self._n)
            else:
                deal.check(self._n)
            self._start_round(deal)
        assert self._deal is not None
        return self._deal.to_json()

    def resume(
        self,
        *,
        round_number: int,
        dealer: int,
        scores: Sequence[int],
        past_round_scores: Sequence[Sequence[int]],
    ) -> None:
        """Set a new state, before its first deal, to the start of round
        ``round_number`` of a game in progress: ``dealer`` deals it, ``scores``
        are the totals before it and ``past_round_scores`` the points of the
        earlier rounds.

        For search bots that rebuild a position from a view: they know the
        earlier rounds' points but not their deals, so such a state's
        ``record()`` holds empty deals for those rounds.
        """
        n = self._n
        if self._phase != AWAITING_DEAL or self._deal is not None:
            raise ValueError("resume() needs a new state that has not been dealt")
        if not 0 <= dealer < n or round_number < 1 or len(scores) != n:
            raise ValueError(f"bad resume: round {round_number}, dealer {dealer}, scores {scores}")
        if len(past_round_scores) != round_number - 1:
            raise ValueError(f"round {round_number} follows {round_number - 1} earlier rounds")
        self._round_no = round_number - 1
        self._next_dealer = dealer
        self._scores = list(scores)
        unknown = Deal(())
        self._past = tuple((unknown, -1, -1, (), (), tuple(r)) for r in past_round_scores)

    def detach_rng(self) -> None:
        """Forget this state's generator: from now on every round waits for an
        explicit :meth:`deal` (``awaiting_deal``). For callers that bring
        their own chance, such as the OpenSpiel adapter, whose deals are
        chance nodes."""
        self._rng = None

    def _start_round(self, deal: Deal) -> None:
        if self._deal is not None:
            self._past = (*self._past, self._stored_round())
        self._deal = deal
        self._round_no += 1
        self._clear_table([sum(map(BIT.__getitem__, hand)) for hand in deal.hands])
        self._dealer = self._next_dealer
        self._to_move = self._dealer
        # MT-4.1: no trump in round 1; MT-4.2: from round 2 the dealer names it first.
        # MT-5.1: then the dealer leads the first trick.
        self._phase = TRUMP_DUE if self._round_no >= 2 else PLAYING

    def _clear_table(self, hands: list[int]) -> None:
        """A round's table before its first move: ``hands`` dealt, everyone
        in, no trick, no trump, no points."""
        n = self._n
        self._hands = hands
        self._counts = [0] * n
        self._in = [True] * n
        self._num_in = n
        self._next = [(s + 1) % n for s in range(n)]
        self._lead = -1
        self._ruffed = False
        self._cur: list[int] = []
        self._tricks: list[StoredTrick] = []
        # This round's completed tricks as views show them, decoded lazily by
        # view() and shared between clones (a prefix of the round's tricks).
        self._seen: tuple[tuple[tuple[int, int], ...], ...] = ()
        self._round_pts = [0] * n
        self._trump = -1

    def _stored_round(self) -> StoredRound:
        assert self._deal is not None
        return (
            self._deal,
            self._dealer,
            self._trump,
            tuple(self._tricks),
            tuple(self._cur),
            tuple(self._round_pts),
        )

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> tuple[MTMove, ...]:
        """Every legal move, lowest index first; empty only when no one is to move."""
        if self._phase:
            return TRUMPS if self._phase == TRUMP_DUE else ()
        hand = self._hands[self._to_move]
        lead = self._lead
        if lead >= 0:
            if self._ruffed:
                return self._legal_after_ruff(hand, lead)
            follow = (hand >> COLOUR_SHIFT[lead]) & 0xFFF
            if follow:  # MT-5.3: must follow the lead colour
                return _T[lead][follow]
        # MT-5.2 leader, or MT-5.3 void in the lead colour: any card.
        return _full_hand(hand)

    def _legal_after_ruff(self, hand: int, lead: int) -> tuple[Play, ...]:
        trump = self._trump
        trumps = (hand >> COLOUR_SHIFT[trump]) & 0xFFF
        if self._must:
            # MT-5.4 [variant must]: whoever holds a trump must play one; else anything.
            return _T[trump][trumps] if trumps else _full_hand(hand)
        follow = (hand >> COLOUR_SHIFT[lead]) & 0xFFF
        if not follow:
            return _full_hand(hand)
        if not trumps:
            return _T[lead][follow]
        # MT-5.4: may follow or trump in.
        if trump < lead:
            return _T[trump][trumps] + _T[lead][follow]
        return _T[lead][follow] + _T[trump][trumps]

    def apply(self, move: MTMove, **chance: Any) -> Applied:
        """Make the decision due now and return what it appended to the
        record; IllegalMoveError cites the rule it breaks."""
        if self._phase or move.__class__ is not Play or chance:
            return self._apply_other(move, chance)
        card = move.card
        seat = self._to_move
        hand = self._hands[seat]
        if not (hand >> card) & 1:
            self._refuse(card)  # MT-5.1: only a held card
        colour = COLOUR_OF[card]
        trump = self._trump
        lead = self._lead
        if lead < 0:
            # MT-5.2: the leader plays any card; its colour is the lead colour.
            self._lead = colour
            self._best = STRENGTH[trump][colour][card]  # trump -1: the no-trump table
            self._best_seat = seat
        else:
            if self._ruffed:
                if self._must:
                    # MT-5.4 [variant must]: holding a trump, a later player must play one.
                    if colour != trump and hand & COLOUR_MASKS[trump]:
                        self._refuse(card)
                elif colour != lead and colour != trump and hand & COLOUR_MASKS[lead]:
                    self._refuse(card)  # MT-5.4: after a ruff, follow or trump in
            elif colour != lead and hand & COLOUR_MASKS[lead]:
                self._refuse(card)  # MT-5.3: must follow the lead colour
            if colour == trump and lead != trump:
                self._ruffed = True  # MT-5.4: a trump in a non-trump trick is a ruff
            strength = STRENGTH[trump][lead][card]  # MT-5.6
            if strength > self._best:
                self._best = strength
                self._best_seat = seat
        self._hands[seat] = hand ^ (1 << card)
        cur = self._cur
        code = seat << 6 | card
        cur.append(code)
        if len(cur) == self._num_in:
            deal = self._deal
            self._end_trick()
            if self._deal is not deal:  # the round ended and this state dealt the next
                assert self._deal is not None
                return Applied(seat, move, NO_CHANCE, self._deal)
        else:
            self._to_move = self._next[seat]  # MT-5.1: clockwise among those still in
        return _APPLIED_PLAY[code]  # type: ignore[return-value]  # a card's entry is set

    def _refuse(self, card: int) -> None:
        """Raise the error for a card play the bit tests of :meth:`apply`
        refused, in the words :meth:`refusal` gives."""
        error = self._play_refusal(card)
        assert error is not None, "apply refused a card play the rules allow"
        raise IllegalMoveError.from_refusal(error)

    def _play_refusal(self, card: int) -> Refusal | None:
        """Why the seat to move may not play ``card`` now (MT-5), naming only
        what the player may do instead (the legal moves), or None."""
        seat = self._to_move
        hand = self._hands[seat]
        if not (hand >> card) & 1:
            return _not_held(seat, card)
        allowed = self._allowed_cards()
        if (allowed >> card) & 1:
            return None
        return self._held_refusal(hand, allowed)

    def _allowed_cards(self) -> int:
        """The mask of the cards the seat to move may play (its legal moves)."""
        allowed = 0
        for move in self.legal_moves():
            if isinstance(move, Play):
                allowed |= 1 << move.card
        return allowed

    def _held_refusal(self, hand: int, allowed: int) -> Refusal:
        """The words for any held card off ``allowed`` (they name only what
        the player may play, not the card tried)."""
        trump = None if self._trump < 0 else self._trump
        what, rule, key = must_play(allowed, self._lead, trump, self._ruffed, self._must)
        cards = [CARD_NAMES[c] for c in cards_of(hand & allowed)]
        params: dict[str, RefusalParam] = {"lead": COLOUR_NAMES[self._lead], "cards": cards}
        if trump is not None:
            params["trump"] = COLOUR_NAMES[trump]
        return Refusal(f"must {what}: holds {', '.join(cards)}", rule, key=key, params=params)

    def _other_refusal(self, move: MTMove) -> Refusal | None:
        """Why ``move`` is refused when it is not a card play during play:
        the game is over, a deal is due, or trump is (not) to be named."""
        phase = self._phase
        if phase == FINISHED:
            winner, score = self._winner, self._scores[self._winner]
            return Refusal(
                f"the game is over: seat {winner} reached {score}",
                "MT-8.1",
                key="MT-8.1.game-over",
                params={"winner": winner, "score": score},
            )
        if phase == AWAITING_DEAL:
            round_no = self._round_no + 1
            return Refusal(
                f"round {round_no} must be dealt first",
                "MT-3.1",
                key="MT-3.1.deal-first",
                params={"round": round_no},
            )
        if phase == TRUMP_DUE:
            if isinstance(move, Play):
                return Refusal(
                    f"seat {self._dealer} (the dealer) must name trump before the first card",
                    "MT-4.2",
                    key="MT-4.2.trump-first",
                    params={"dealer": self._dealer},
                )
            return None  # MT-4.2: any of the five colours
        # PLAYING and a NameTrump
        if self._round_no == 1:
            return Refusal("round 1 has no trump", "MT-4.1", key="MT-4.1.no-trump", params={})
        trump = COLOUR_NAMES[self._trump]
        return Refusal(
            f"trump is {trump} this round; it is named only by the dealer before the first card",
            "MT-4.2",
            key="MT-4.2.trump-named",
            params={"trump": trump},
        )

    def _move_refusal(self, move: MTMove) -> Refusal | None:
        if not isinstance(move, (Play, NameTrump)):
            raise TypeError(f"not a Marshmallow Test move: {move!r}")
        if self._phase == PLAYING and move.__class__ is Play:
            return self._play_refusal(move.card)
        return self._other_refusal(move)

    def _apply_other(self, move: Any, chance: dict[str, Any]) -> Applied:
        """Everything but a card play during play: naming trump and the errors."""
        if chance:
            raise TypeError(f"Marshmallow Test has no chance outcomes inside a round: {chance}")
        if not isinstance(move, (Play, NameTrump)):
            raise TypeError(f"not a Marshmallow Test move: {move!r}")
        error = self._other_refusal(move)
        if error is not None:
            raise IllegalMoveError.from_refusal(error)
        assert isinstance(move, NameTrump)  # the only move refused nowhere above
        self._trump = move.colour  # MT-4.2: any of the five colours
        self._phase = PLAYING
        return _APPLIED[self._dealer][move.index]

    def _seat_refusal(self, seat: int) -> Refusal | None:
        if self._phase == TRUMP_DUE and seat != self._to_move:
            dealer = self._to_move
            return Refusal(
                f"seat {dealer} (the dealer) names trump, not seat {seat}",
                "MT-4.2",
                key="MT-4.2.dealer-names",
                params={"dealer": dealer, "seat": seat},
            )
        return super()._seat_refusal(seat)

    def _action_space(self) -> tuple[MTMove, ...]:
        return MOVES

    def _explain_due(self) -> tuple[Explanation, ...]:
        # During play the words depend on the card only through whether it is
        # held or allowed, and on the colour not at all for naming trump: the
        # same answers as _move_refusal's, built once per kind, not per action.
        if self._phase != PLAYING:
            return super()._explain_due()
        seat = self._to_move
        hand = self._hands[seat]
        allowed = self._allowed_cards()
        held_words = self._held_refusal(hand, allowed) if hand & ~allowed else None
        not_held = _NOT_HELD[seat]
        out: list[Explanation] = []
        for card in range(NUM_CARDS):
            if (allowed >> card) & 1:
                out.append(_LEGAL_PLAY[card])
            elif (hand >> card) & 1:
                assert held_words is not None
                out.append(explanation(PLAYS[card], held_words))
            else:
                out.append(not_held[card])
        trump_words = self._other_refusal(TRUMPS[0])
        assert trump_words is not None  # MT-4.1/4.2: no trump is named during play
        out.extend(explanation(move, trump_words) for move in TRUMPS)
        return tuple(out)

    # ------------------------------------------------------------------ tricks
    def _end_trick(self) -> None:
        winner = self._best_seat  # MT-5.7
        tricks = self._tricks
        tricks.append((winner, tuple(self._cur)))
        self._cur = []
        self._lead = -1
        self._ruffed = False
        counts = self._counts
        counts[winner] += 1
        if counts[winner] == self._need:
            self._go_out(winner)
        elif len(tricks) == TRICKS_PER_ROUND:
            self._end_round(winner)  # MT-7.2: hands exhausted, the winner is still in
        else:
            self._to_move = winner  # MT-6.3

    def _go_out(self, seat: int) -> None:
        # MT-6.2: score every other player's tricks, those already out included.
        points = len(self._tricks) - self._counts[seat]
        self._scores[seat] += points
        self._round_pts[seat] = points  # a seat goes out once a round
        self._in[seat] = False
        self._num_in -= 1
        self._hands[seat] = 0  # discarded unseen (MT-9.2)
        nxt = self._next
        after = nxt[seat]
        prev = after
        while nxt[prev] != seat:
            prev = nxt[prev]
        nxt[prev] = after
        if self._scores[seat] >= self._target:
            # MT-8.1: the game ends at once; the round is abandoned.
            self._winner = seat
            self._phase = FINISHED
            self._to_move = -1
        elif self._num_in == 1:
            self._end_round(after)  # MT-7.1: the last one in scores nothing and deals
        elif len(self._tricks) == TRICKS_PER_ROUND:
            self._end_round(after)  # MT-7.2: first player clockwise still in deals
        else:
            self._to_move = after  # MT-6.3: next player clockwise still in leads

    def _end_round(self, next_dealer: int) -> None:
        self._next_dealer = next_dealer
        self._hands = [0] * self._n  # the remaining cards go back to the deck
        if self._rng is not None:
            self._deal_from_rng(self._rng)
        else:
            self._phase = AWAITING_DEAL
            self._to_move = -1

    # ------------------------------------------------------------------ queries
    @property
    def finished(self) -> bool:
        return self._phase == FINISHED

    @property
    def awaiting_deal(self) -> bool:
        return self._phase == AWAITING_DEAL

    @property
    def to_move(self) -> int | None:
        return None if self._to_move < 0 else self._to_move

    @property
    def trump_due(self) -> bool:
        return self._phase == TRUMP_DUE

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def round_scores(self) -> list[list[int]]:
        """Points per seat for each round dealt, the current one so far."""
        rows = [list(r[5]) for r in self._past]
        if self._deal is not None:
            rows.append(list(self._round_pts))
        return rows

    @property
    def winners(self) -> tuple[int, ...]:
        return (self._winner,) if self._phase == FINISHED else ()

    @property
    def round_number(self) -> int:
        return self._round_no

    @property
    def moves_in_round(self) -> int:
        named = 1 if self._trump >= 0 else 0
        return named + sum(len(t[1]) for t in self._tricks) + len(self._cur)

    @property
    def dealer(self) -> int | None:
        return None if self._dealer < 0 else self._dealer

    @property
    def trump(self) -> int | None:
        return None if self._trump < 0 else self._trump

    @property
    def lead_colour(self) -> int | None:
        return None if self._lead < 0 else self._lead

    @property
    def trick_counts(self) -> tuple[int, ...]:
        return tuple(self._counts)

    @property
    def out(self) -> tuple[bool, ...]:
        """Who has gone out this round (MT-6.2)."""
        return tuple(not x for x in self._in)

    @property
    def players_in(self) -> tuple[int, ...]:
        return tuple(s for s in range(self._n) if self._in[s])

    @property
    def current_trick(self) -> tuple[tuple[int, int], ...]:
        return tuple((e >> 6, e & 63) for e in self._cur)

    @property
    def tricks_played(self) -> int:
        return len(self._tricks)

    def hand(self, seat: int) -> tuple[int, ...]:
        """``seat``'s cards, lowest first. Privileged: bots get views instead."""
        return cards_of(self._hands[seat])

    def position_key(self) -> tuple[object, ...]:
        """Everything the rest of the round in play depends on, hashable: two
        states of one round with equal keys play on alike (the endgame
        solver's transposition key). The hands, the trick on the table (its
        cards fix the lead, a ruff and who leads the trick), the seat to
        move, the tricks each seat holds (their sum is the tricks played, and
        who has gone out) and the scores. Privileged: it holds every hand."""
        return (
            tuple(self._hands),
            tuple(self._cur),
            self._to_move,
            tuple(self._counts),
            tuple(self._scores),
        )

    def _view(self, seat: int | None) -> MarshmallowView:
        """What ``seat`` may know (MT-9); ``None`` is a spectator."""
        opts = self._opts
        return MarshmallowView(
            seat=seat,
            players=self._n,
            target=opts.target,
            trump_after_ruff=opts.trump_after_ruff,
            round_number=self._round_no,
            dealer=self.dealer,
            trump=self.trump,
            to_move=self.to_move,
            hand=() if seat is None else cards_of(self._hands[seat]),
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            tricks=self._decoded_tricks(),
            trick_winners=tuple(t[0] for t in self._tricks),
            current_trick=self.current_trick,
            trick_counts=tuple(self._counts),
            out=self.out,
            scores=tuple(self._scores),
            round_scores=tuple(tuple(r) for r in self.round_scores),
            finished=self.finished,
            winners=self.winners,
        )

    def _decoded_tricks(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """This round's completed tricks as (seat, card) pairs, decoding only
        the tricks completed since the last call."""
        seen = self._seen
        tricks = self._tricks
        if len(seen) < len(tricks):
            seen += tuple(tuple((e >> 6, e & 63) for e in t[1]) for t in tricks[len(seen) :])
            self._seen = seen
        return seen

    # ------------------------------------------------------------------ copies, records
    def clone(self, rng: random.Random | None = None) -> MarshmallowState:
        """An independent copy (history tuples are shared, lists copied);
        it keeps this state's generator unless given another."""
        c = MarshmallowState(self.game, self._opts, _for_clone=True)
        c.game = self.game
        c._opts = self._opts
        c._n = self._n
        c._need = self._need
        c._target = self._target
        c._must = self._must
        c._rng = self._rng if rng is None else rng
        c._phase = self._phase
        c._to_move = self._to_move
        c._dealer = self._dealer
        c._next_dealer = self._next_dealer
        c._trump = self._trump
        c._round_no = self._round_no
        c._hands = self._hands[:]
        c._counts = self._counts[:]
        c._in = self._in[:]
        c._num_in = self._num_in
        c._next = self._next[:]
        c._lead = self._lead
        c._ruffed = self._ruffed
        c._best = self._best
        c._best_seat = self._best_seat
        c._cur = self._cur[:]
        c._tricks = self._tricks[:]
        c._scores = self._scores[:]
        c._round_pts = self._round_pts[:]
        c._winner = self._winner
        c._deal = self._deal
        c._past = self._past
        c._seen = self._seen
        return c

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the fields, rebuilt through ``__init__`` (OpenSpiel's
        serialization, process pools): a compiled class has no bare
        ``__new__`` for pickle's default to call."""
        return (_unpickle, (tuple(getattr(self, name) for name in _FIELDS),))

    def _rounds_json(self) -> list[dict[str, Any]]:
        stored = list(self._past)
        if self._deal is not None:
            stored.append(self._stored_round())
        return [_round_json(r) for r in stored]


def _unpickle(fields: tuple[Any, ...]) -> MarshmallowState:
    state = MarshmallowState(fields[0], fields[1], _for_clone=True)  # game, options
    for name, value in zip(_FIELDS, fields, strict=True):
        setattr(state, name, value)
    return state


def _round_json(stored: StoredRound) -> dict[str, Any]:
    deal, dealer, trump, tricks, cur, _ = stored
    moves: list[dict[str, Any]] = []
    if trump >= 0:
        moves.append({"seat": dealer, "trump": COLOUR_NAMES[trump]})
    for _, plays in tricks:
        moves.extend({"seat": e >> 6, "play": CARD_NAMES[e & 63]} for e in plays)
    moves.extend({"seat": e >> 6, "play": CARD_NAMES[e & 63]} for e in cur)
    return {"deal": deal.to_json(), "moves": moves}
