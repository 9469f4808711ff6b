"""A rule-of-thumb MyRummy 111 player that sees only its view and the legal moves.

It picks a direction (ascending or descending) from its hand, and judges a
hand by (1) its longest subsequence sorted that way, the cards that can stay,
and (2) how far each card sits from where its value belongs in an ideal sorted
hand (card ``v`` at about ``(v - 2) / 110 * h``). It takes a face-up card when
that card improves the hand more than a blind draw is worth, refreshes when no
face-up card helps, places the taken card where the hand gains most (so the
card that fits worst goes), and declares as soon as the hand is sorted.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from cardtable.bots.base import Budget
from cardtable.core.game import Game, Move
from cardtable.games.myrummy_111.cards import HIGHEST, LOWEST, NUM_CARDS
from cardtable.games.myrummy_111.exchange import hand_after_place
from cardtable.games.myrummy_111.game import MyRummy111
from cardtable.games.myrummy_111.moves import Place, Take
from cardtable.games.myrummy_111.options import MAX_HAND
from cardtable.games.myrummy_111.scoring import is_sorted

__all__ = [
    "HeuristicBot",
    "best_placement",
    "direction",
    "hand_quality",
    "lis_length",
    "placement_qualities",
    "prepared_quality",
    "qualities",
    "quality",
]

SPAN = float(NUM_CARDS)  # card v ideally sits at (v - LOWEST) / SPAN * h, rising


def lis_length(values: Sequence[int]) -> int:
    """Length of the longest strictly increasing subsequence."""
    tails: list[int] = []
    for v in values:
        i = bisect_left(tails, v)
        if i == len(tails):
            tails.append(v)
        else:
            tails[i] = v
    return len(tails)


def _ideal_tables() -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
    """Each card's ideal position in a sorted hand of ``h`` cards, rising and
    falling, minus half a place (a card at index ``i`` covers ``i … i + 1``)."""
    up, down = [], []
    for h in range(MAX_HAND + 1):
        up.append(tuple((v - LOWEST) / SPAN * h - 0.5 for v in range(HIGHEST + 1)))
        down.append(tuple((HIGHEST - v) / SPAN * h - 0.5 for v in range(HIGHEST + 1)))
    return tuple(up), tuple(down)


_IDEAL_UP, _IDEAL_DOWN = _ideal_tables()


def qualities(hand: Sequence[int]) -> tuple[float, float]:
    """The heuristic's judgement of a hand, ``(ascending, descending)``; bigger
    is better: the longest subsequence sorted that way (the cards that can
    stay) times the hand size, minus half the cards' total distance from
    their ideal places. The one definition every bot and playout uses; both
    directions in one pass because the playouts call it most (a compiled
    module: its examples are tests, ``tests/myrummy_111/test_mr_bot.py``).
    """
    h = len(hand)
    iu = _IDEAL_UP[h]
    idn = _IDEAL_DOWN[h]
    rise: list[int] = []
    fall: list[int] = []
    mu = md = 0.0
    for i, v in enumerate(hand):
        x = i - iu[v]
        mu += x if x > 0 else -x
        y = i - idn[v]
        md += y if y > 0 else -y
        j = bisect_left(rise, v)
        if j == len(rise):
            rise.append(v)
        else:
            rise[j] = v
        j = bisect_left(fall, -v)
        if j == len(fall):
            fall.append(-v)
        else:
            fall[j] = -v
    return len(rise) * h - mu / 2, len(fall) * h - md / 2


def quality(hand: Sequence[int], ascending: bool) -> float:
    """:func:`qualities` in one direction."""
    up, down = qualities(hand)
    return up if ascending else down


def hand_quality(hand: Sequence[int]) -> float:
    """:func:`qualities` in the better direction."""
    up, down = qualities(hand)
    return up if up > down else down


def direction(hand: Sequence[int]) -> bool:
    """True for ascending: the direction in which the hand is already better."""
    up, down = qualities(hand)
    return up >= down


# Judging every placement of a card (the playouts' hot spot) afresh costs h + 2
# calls of qualities(). A placement that replaces card k keeps every run
# ending before k and starting after it, and a shift keeps the patience tails
# of the h - 1 cards it keeps, so what a hand's placements share is prepared
# once per hand (_prepared) and each card then costs O(h). The distance sums
# are floats: to stay equal, bit for bit, to qualities(), best_placement()
# first screens the placements with sums in another order (off by far less
# than _SLACK) and then sums the best ones in qualities()' order.
_SLACK = 1e-9


def _without(ends: list[int], starts: list[int]) -> list[int]:
    """Per index the longest run once that card is gone: one less when the
    card is on every longest run (the only card on one at its level)."""
    n = max(ends)
    on = [e if e + s - 1 == n else 0 for e, s in zip(ends, starts, strict=True)]
    level = [0] * (n + 1)
    for e in on:
        level[e] += 1
    return [n - 1 if e and level[e] == 1 else n for e in on]


class _Prepared:
    """What every placement into one hand shares (module comment above); ``up``
    rising, ``down`` falling."""

    __slots__ = (
        "end_down",
        "end_up",
        "head_down",
        "head_up",
        "pre_down",
        "pre_up",
        "quality",
        "rest_down",
        "rest_up",
        "screen_down",
        "screen_up",
        "shift_down",
        "shift_sum_down",
        "shift_sum_up",
        "shift_up",
        "start_down",
        "start_up",
        "tail_down",
        "tail_md",
        "tail_mu",
        "tail_up",
        "term_down",
        "term_up",
        "wo_down",
        "wo_up",
    )

    def __init__(self, hand: tuple[int, ...]) -> None:
        # One pass each way (this runs once per hand a playout meets), with
        # patience sorting inlined: where a card lands in the tails is one
        # less than the longest run ending at it.
        h = len(hand)
        iu = _IDEAL_UP[h]
        idn = _IDEAL_DOWN[h]
        end_up: list[int] = []
        end_down: list[int] = []
        term_up: list[float] = []
        term_down: list[float] = []
        pre_up = [0.0]
        pre_down = [0.0]
        shift_up: list[float] = []  # hand[:-1] one place right (0 far)
        shift_down: list[float] = []
        rise: list[int] = []
        fall: list[int] = []
        tail_up: list[int] = []  # tails of hand[1:] (h far)
        tail_down: list[int] = []
        mu = md = tail_mu = tail_md = 0.0
        last = h - 1
        for i, v in enumerate(hand):
            j = bisect_left(rise, v)
            if j == len(rise):
                rise.append(v)
            else:
                rise[j] = v
            end_up.append(j + 1)
            j = bisect_left(fall, -v)
            if j == len(fall):
                fall.append(-v)
            else:
                fall[j] = -v
            end_down.append(j + 1)
            x = i - iu[v]
            x = x if x > 0 else -x
            term_up.append(x)
            mu += x
            pre_up.append(mu)
            x = i - idn[v]
            x = x if x > 0 else -x
            term_down.append(x)
            md += x
            pre_down.append(md)
            if i < last:
                x = i + 1 - iu[v]
                shift_up.append(x if x > 0 else -x)
                x = i + 1 - idn[v]
                shift_down.append(x if x > 0 else -x)
            if i:
                x = i - 1 - iu[v]
                tail_mu += x if x > 0 else -x
                x = i - 1 - idn[v]
                tail_md += x if x > 0 else -x
                j = bisect_left(tail_up, v)
                if j == len(tail_up):
                    tail_up.append(v)
                else:
                    tail_up[j] = v
                j = bisect_left(tail_down, -v)
                if j == len(tail_down):
                    tail_down.append(-v)
                else:
                    tail_down[j] = -v
        start_up = [0] * h
        start_down = [0] * h
        suf_up = [0.0] * (h + 1)  # any order: for screening
        suf_down = [0.0] * (h + 1)
        rise, fall = [], []
        head_up: list[int] = []  # hand[:-1] read backwards (0 far)
        head_down: list[int] = []
        mu = md = 0.0
        for i in range(last, -1, -1):
            v = hand[i]
            j = bisect_left(fall, -v)  # rising from here = falling read backwards
            if j == len(fall):
                fall.append(-v)
            else:
                fall[j] = -v
            start_up[i] = j + 1
            j = bisect_left(rise, v)
            if j == len(rise):
                rise.append(v)
            else:
                rise[j] = v
            start_down[i] = j + 1
            mu += term_up[i]
            suf_up[i] = mu
            md += term_down[i]
            suf_down[i] = md
            if i < last:
                j = bisect_left(head_up, -v)
                if j == len(head_up):
                    head_up.append(-v)
                else:
                    head_up[j] = -v
                j = bisect_left(head_down, v)
                if j == len(head_down):
                    head_down.append(v)
                else:
                    head_down[j] = v
        self.end_up, self.end_down = end_up, end_down
        self.start_up, self.start_down = start_up, start_down
        self.wo_up = _without(end_up, start_up)
        self.wo_down = _without(end_down, start_down)
        self.term_up, self.term_down = term_up, term_down
        self.pre_up, self.pre_down = pre_up, pre_down
        # the distances without card k's, for screening (in another order)
        self.rest_up = [pre_up[k] + suf_up[k + 1] for k in range(h)]
        self.rest_down = [pre_down[k] + suf_down[k + 1] for k in range(h)]
        self.head_up, self.head_down = head_up, head_down
        self.shift_up, self.shift_down = shift_up, shift_down
        self.shift_sum_up, self.shift_sum_down = sum(shift_up), sum(shift_down)
        self.tail_up, self.tail_down = tail_up, tail_down
        self.tail_mu, self.tail_md = tail_mu, tail_md
        lu, ld = max(end_up), max(end_down)
        up, down = lu * h - pre_up[h] / 2, ld * h - pre_down[h] / 2  # as qualities()
        self.quality = up if up > down else down
        # A card replacing one changes a longest run by at most one and the
        # distances by at most one card's (each under h): when one direction
        # trails whatever the card, screening leaves it out.
        low_up = (lu - 1) * h - (pre_up[h] + h) / 2
        high_up = (lu + 1) * h - (pre_up[h] - max(term_up)) / 2
        low_down = (ld - 1) * h - (pre_down[h] + h) / 2
        high_down = (ld + 1) * h - (pre_down[h] - max(term_down)) / 2
        self.screen_up = high_up + 1e-6 >= low_down
        self.screen_down = high_down + 1e-6 >= low_up


_prepared = lru_cache(maxsize=1 << 12)(_Prepared)  # about 6 kB each


def _replace_runs(prep: _Prepared, hand: Sequence[int], card: int, k: int) -> tuple[int, int]:
    """The longest rising and falling runs once ``card`` replaces card ``k``."""
    before_up = before_down = after_up = after_down = 0
    for i in range(k):
        v = hand[i]
        if v < card:
            e = prep.end_up[i]
            if e > before_up:
                before_up = e
        elif v > card:
            e = prep.end_down[i]
            if e > before_down:
                before_down = e
    for i in range(k + 1, len(hand)):
        v = hand[i]
        if v > card:
            e = prep.start_up[i]
            if e > after_up:
                after_up = e
        elif v < card:
            e = prep.start_down[i]
            if e > after_down:
                after_down = e
    wu = prep.wo_up[k]
    wd = prep.wo_down[k]
    run_up = before_up + 1 + after_up
    run_down = before_down + 1 + after_down
    return (wu if wu > run_up else run_up), (wd if wd > run_down else run_down)


def _exact(prep: _Prepared, hand: Sequence[int], card: int, index: int) -> float:
    """:func:`hand_quality` after placement ``index`` (of
    :func:`~cardtable.games.myrummy_111.exchange.distinct_places`), summed in
    :func:`qualities`' order."""
    h = len(hand)
    cu = _IDEAL_UP[h][card]
    cd = _IDEAL_DOWN[h][card]
    if index == 0:  # 0 far
        lu = bisect_left(prep.head_up, -card) + 1
        ld = bisect_left(prep.head_down, card) + 1
        lu = max(lu, len(prep.head_up))
        ld = max(ld, len(prep.head_down))
        x = 0.0 - cu
        mu = 0.0 + (x if x > 0 else -x)
        x = 0.0 - cd
        md = 0.0 + (x if x > 0 else -x)
        for t in prep.shift_up:
            mu += t
        for t in prep.shift_down:
            md += t
    elif index == h + 1:  # h far
        lu = max(bisect_left(prep.tail_up, card) + 1, len(prep.tail_up))
        ld = max(bisect_left(prep.tail_down, -card) + 1, len(prep.tail_down))
        x = h - 1 - cu
        mu = prep.tail_mu + (x if x > 0 else -x)
        x = h - 1 - cd
        md = prep.tail_md + (x if x > 0 else -x)
    else:  # the card replaces card k
        k = index - 1
        lu, ld = _replace_runs(prep, hand, card, k)
        x = k - cu
        mu = prep.pre_up[k] + (x if x > 0 else -x)
        x = k - cd
        md = prep.pre_down[k] + (x if x > 0 else -x)
        term_up = prep.term_up
        term_down = prep.term_down
        for i in range(k + 1, h):
            mu += term_up[i]
            md += term_down[i]
    up = lu * h - mu / 2
    down = ld * h - md / 2
    return up if up > down else down


def _screen(prep: _Prepared, hand: Sequence[int], card: int) -> list[float]:
    """:func:`placement_qualities` give or take far less than ``_SLACK``: the
    distance sums in another order."""
    h = len(hand)
    cu = _IDEAL_UP[h][card]
    cd = _IDEAL_DOWN[h][card]
    end_up, end_down = prep.end_up, prep.end_down
    start_up, start_down = prep.start_up, prep.start_down
    # 0 far
    lu = max(bisect_left(prep.head_up, -card) + 1, len(prep.head_up))
    ld = max(bisect_left(prep.head_down, card) + 1, len(prep.head_down))
    up = lu * h - (abs(cu) + prep.shift_sum_up) / 2
    down = ld * h - (abs(cd) + prep.shift_sum_down) / 2
    out = [up if up > down else down]
    # The best runs through the card after each k: rising (cards above it),
    # falling (below).
    after_up = [0] * h
    after_down = [0] * h
    best_up = best_down = 0
    for k in range(h - 1, -1, -1):
        after_up[k] = best_up
        after_down[k] = best_down
        v = hand[k]
        if v > card:
            e = start_up[k]
            if e > best_up:
                best_up = e
        elif v < card:
            e = start_down[k]
            if e > best_down:
                best_down = e
    before_up = before_down = 0
    screen_up = prep.screen_up
    screen_down = prep.screen_down
    for k, (v, wu, wd, ru, rd, au, ad) in enumerate(
        zip(
            hand,
            prep.wo_up,
            prep.wo_down,
            prep.rest_up,
            prep.rest_down,
            after_up,
            after_down,
            strict=True,
        )
    ):
        if screen_up:
            run = before_up + 1 + au
            x = k - cu
            up = (wu if wu > run else run) * h - (ru + (x if x > 0 else -x)) / 2
            if screen_down:
                run = before_down + 1 + ad
                x = k - cd
                down = (wd if wd > run else run) * h - (rd + (x if x > 0 else -x)) / 2
                out.append(up if up > down else down)
            else:
                out.append(up)
        else:
            run = before_down + 1 + ad
            x = k - cd
            out.append((wd if wd > run else run) * h - (rd + (x if x > 0 else -x)) / 2)
        if v < card:
            e = end_up[k]
            if e > before_up:
                before_up = e
        elif v > card:
            e = end_down[k]
            if e > before_down:
                before_down = e
    # h far: exact, as in _exact
    lu = max(bisect_left(prep.tail_up, card) + 1, len(prep.tail_up))
    ld = max(bisect_left(prep.tail_down, -card) + 1, len(prep.tail_down))
    x = h - 1 - cu
    up = lu * h - (prep.tail_mu + (x if x > 0 else -x)) / 2
    x = h - 1 - cd
    down = ld * h - (prep.tail_md + (x if x > 0 else -x)) / 2
    out.append(up if up > down else down)
    return out


def _place_of(index: int, h: int) -> tuple[int, int]:
    """``(position, side)`` of :func:`~cardtable.games.myrummy_111.exchange.distinct_places`'
    placement ``index``."""
    if index == 0:
        return 0, 2  # 0 far
    if index == h + 1:
        return h, 2  # h far
    return index - 1, 1  # right


def placement_qualities(hand: Sequence[int], card: int) -> list[float]:
    """:func:`hand_quality` of the hand each placement of ``card`` leaves, in
    the order of :func:`~cardtable.games.myrummy_111.exchange.distinct_places`;
    equal, float for float, to judging each such hand afresh."""
    hand = tuple(hand)
    prep = _prepared(hand)
    return [_exact(prep, hand, card, i) for i in range(len(hand) + 2)]


def prepared_quality(hand: tuple[int, ...]) -> float:
    """:func:`hand_quality`, read off the tables :func:`best_placement` keeps
    per hand (cached): cheaper than judging the hand afresh when placements
    into it are judged too."""
    return _prepared(hand).quality


def best_placement(hand: Sequence[int], card: int) -> tuple[float, int, int]:
    """The placement of ``card`` (MR-4.3/4.4) that leaves the best
    :func:`hand_quality`: ``(quality, position, side)``, the first best of
    :func:`~cardtable.games.myrummy_111.exchange.distinct_places`."""
    hand = tuple(hand)
    prep = _prepared(hand)
    rough = _screen(prep, hand, card)
    floor = max(rough) - _SLACK
    best_q, best_i = -1e18, 0
    for i, r in enumerate(rough):
        if r >= floor:  # only these can be (or tie) the best
            q = _exact(prep, hand, card, i)
            if q > best_q:
                best_q, best_i = q, i
    p, s = _place_of(best_i, len(hand))
    return best_q, p, s


class HeuristicBot:
    """``choose(view, legal)`` from the view only (MR-5): no search, no state."""

    def __init__(
        self, seat: int, game: Game, rng: random.Random, budget: Budget | None = None
    ) -> None:
        if not isinstance(game, MyRummy111):
            raise TypeError(f"HeuristicBot plays myrummy-111, not {getattr(game, 'name', game)!r}")
        self.seat = seat
        self.game = game
        self.rng = rng
        self.take_margin = 1.0  # how much a face-up card must gain over keeping the hand

    def choose(self, view: Any, legal: Sequence[Move]) -> Move:
        hand: tuple[int, ...] = view.hand
        if view.phase == "place":
            return self._place(hand, view.taken_card, legal)
        return self._take(hand, view.middle, view.taken_slot, legal)

    def _best_place(
        self, hand: Sequence[int], card: int, legal: Sequence[Move], ascending: bool
    ) -> tuple[float, Place]:
        best: tuple[float, Place] | None = None
        for move in legal:
            if not isinstance(move, Place) or move.declare:
                continue
            q = quality(hand_after_place(hand, card, move.position, move.side), ascending)
            if best is None or q > best[0]:
                best = (q, move)
        assert best is not None
        return best

    def _place(self, hand: Sequence[int], card: int, legal: Sequence[Move]) -> Move:
        ascending = direction(hand)
        _, move = self._best_place(hand, card, legal, ascending)
        after = hand_after_place(hand, card, move.position, move.side)
        if is_sorted(after):  # MR-4.5: declare as soon as it is sorted
            for m in legal:
                if (
                    isinstance(m, Place)
                    and m.declare
                    and m.position == move.position
                    and m.side == move.side
                ):
                    return m
        return move

    def _take(
        self,
        hand: Sequence[int],
        middle: Sequence[int | None],
        taken: int | None,
        legal: Sequence[Move],
    ) -> Move:
        ascending = direction(hand)
        h = len(hand)
        now = quality(hand, ascending)
        places = self.game.places_by_seat[self.seat]
        best_gain, best_slot = 0.0, -1
        for slot, card in enumerate(middle):
            if card is None:
                continue
            q, _ = self._best_place(hand, card, places, ascending)
            gain = q - now
            if gain > best_gain:
                best_gain, best_slot = gain, slot
        takes = [m for m in legal if isinstance(m, Take)]
        if best_slot >= 0 and best_gain >= self.take_margin * h / 2:
            return next(m for m in takes if m.slot == best_slot and not m.refresh)
        face_down = [m for m in takes if not m.refresh and middle[m.slot] is None]
        refresh = [m for m in takes if m.refresh]
        if refresh and best_gain < h / 4:  # MR-4.1: nothing face up fits
            return refresh[self.rng.randrange(len(refresh))]
        if face_down:
            return face_down[self.rng.randrange(len(face_down))]
        if best_slot >= 0:
            return next(m for m in takes if m.slot == best_slot and not m.refresh)
        return takes[self.rng.randrange(len(takes))]
