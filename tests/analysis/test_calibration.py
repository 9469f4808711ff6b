"""Estimates agree with exact values, within their standard errors, where exact values exist.

Exact: the mean over *every* deal consistent with the seat's view (each
equally likely) of the same playout the estimator runs: the same policy,
the same end-of-round win model. Near the end of a round there are few such
deals:

* Marshmallow Test, 2 players, the last two or three tricks of round 1: the
  unseen cards are the opponent's last one or two cards and the 36 set aside
  (MT-3.1); every choice of the opponent's cards that the round's plays allow
  (checked by replaying the round through the rules, which encode the voids
  of MT-5.3) is one consistent deal.
* MyRummy 111, 2 players, one round ending after one turn (``turn_limit`` 1,
  MR-6.4): a hand one exchange from sorted takes a face-down card, which is
  any card the seat has not seen, each equally likely (MR-5); the points
  follow from that card alone. (The win depends on the opponent's whole
  hidden hand, too many deals to list, so only points are checked here.)

Over many positions and alternatives, ``z = (estimate - exact) / se`` must
behave like a standard normal: none beyond 4.5, at least 85% within 2, mean
square below 2.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Any

import cardtable
from cardtable.analysis.estimate import Evaluation
from cardtable.analysis.evaluator import BotEvaluator
from cardtable.analysis.playout import play_out
from cardtable.analysis.run import Analyzer
from cardtable.core.errors import IllegalMoveError
from cardtable.core.game import Game, Move, State
from cardtable.core.replay import parse_record
from cardtable.games.marshmallow_test.cards import CARD_NAMES
from tests.analysis.conftest import play

MIN_SAMPLES = 20  # estimates from fewer samples are not compared (their SE is itself noisy)
Exact = list[list[tuple[float, float]]]  # per group, the (win, points) of every consistent deal


def _z(evaluation: Evaluation, exact: Exact, units: Sequence[int] = (0, 1)) -> Iterator[float]:
    """``(estimate - exact) / se`` per group and unit (0 win, 1 points).

    An estimate whose samples all agree has no standard error; it passes when
    the deals that disagree with it are rare enough to be missed by its
    samples (fewer than 4 in ``n`` expected: missed with chance above 2%).
    """
    for g, value in enumerate(evaluation.groups):
        if value.samples < MIN_SAMPLES:
            continue
        outcomes = exact[g]
        for unit in units:
            estimate = (value.win, value.points)[unit]
            truth = sum(o[unit] for o in outcomes) / len(outcomes)
            if estimate.se == 0:
                differ = sum(abs(o[unit] - estimate.mean) > 1e-9 for o in outcomes)
                assert differ / len(outcomes) < 4 / value.samples, (estimate, truth)
                continue
            yield (estimate.mean - truth) / estimate.se


def _check(zs: list[float]) -> None:
    assert len(zs) >= 20
    assert max(abs(z) for z in zs) < 4.5, zs
    assert sum(abs(z) < 2 for z in zs) >= 0.85 * len(zs), zs
    assert sum(z * z for z in zs) / len(zs) < 2, zs


def describe(name: str, zs: list[float]) -> str:
    """How ``zs`` are spread, in a line (the benchmarks print it)."""
    n = len(zs)
    if n == 0:
        return f"{name}: no comparisons (the positions asked for had none; ask for more)"
    within2 = sum(abs(z) < 2 for z in zs) / n
    within3 = sum(abs(z) < 3 for z in zs) / n
    square = sum(z * z for z in zs) / n
    mean = sum(zs) / n
    return (
        f"{name}: {n} comparisons, {100 * within2:.1f}% within 2 SE, {100 * within3:.1f}%"
        f" within 3, mean z {mean:+.2f}, mean z² {square:.2f}, max |z| {max(map(abs, zs)):.2f}"
    )


def _exact(
    analyzer: Analyzer,
    states: Sequence[State],
    seat: int,
    evaluation: Evaluation,
    legal: Sequence[Move],
) -> Exact:
    """Every state's (win, points) per group, with the estimator's playout."""
    out = []
    for value in evaluation.groups:
        outcomes = []
        for i, state in enumerate(states):
            outcome = play_out(
                state.clone(random.Random(i)),
                seat,
                legal[value.moves[0]],
                analyzer.evaluator.policy(random.Random(i)),
                analyzer.model.chance,
            )
            outcomes.append((outcome.win, float(outcome.points)))
        out.append(outcomes)
    return out


# --- Marshmallow Test ----------------------------------------------------------


def _mt_positions() -> Iterator[State]:
    """Round-1 decisions of 2-player games, random play, with at most 3
    cards in the mover's hand and 2 in the other's, and a choice to make."""
    for seed in range(400):
        state = play("marshmallow-test", 2, seed, moves=0)
        rng = random.Random(seed)
        while not state.finished and state.round_number == 1:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_moves()
            sizes = state.view(seat).hand_sizes  # type: ignore[attr-defined]
            if sizes[seat] <= 3 and sizes[1 - seat] <= 2 and len(legal) >= 2:
                yield state
                break
            state.apply(legal[rng.randrange(len(legal))])


def _mt_consistent_states(game: Game, state: State, seat: int) -> list[State]:
    """Every round-1 state whose view for ``seat`` is the one of ``state``."""
    record = state.record()
    deal = record["rounds"][0]["deal"]
    moves = parse_record(record).rounds[0].moves
    opp = 1 - seat
    played = {s: [CARD_NAMES[m.index] for t, m, _ in moves if t == s] for s in (0, 1)}
    view = state.view(seat)
    mine = set(deal["hands"][seat])
    unseen = [c for c in CARD_NAMES if c not in mine and c not in played[opp]]
    out = []
    for held in itertools.combinations(unseen, view.hand_sizes[opp]):  # type: ignore[attr-defined]
        hands: list[Any] = [None, None]
        hands[seat] = deal["hands"][seat]
        hands[opp] = [*played[opp], *held]
        candidate = game.new_state()
        candidate.deal(game.deal_from_json({"hands": hands}, "deal"))
        try:
            for s, move, chance in moves:
                candidate.apply_as(s, move, **chance)
        except IllegalMoveError:
            continue  # the opponent could not have played so holding these cards (MT-5.3)
        assert candidate.view(seat) == view
        out.append(candidate)
    return out


def mt_zs(positions: int, budget: float, bot: str | None = None) -> list[float]:
    """The z values of ``positions`` Marshmallow Test positions (module doc),
    played out by the game's evaluator or, with ``bot``, by that bot in every seat."""
    game = cardtable.load("marshmallow-test", players=2)
    analyzer = Analyzer(game) if bot is None else Analyzer(game, evaluator=BotEvaluator(game, bot))
    zs: list[float] = []
    done = 0
    for state in _mt_positions():
        seat = state.to_move
        assert seat is not None
        legal = tuple(state.legal_moves())
        evaluation = analyzer.evaluate_view(
            state.view(seat), legal, seat=seat, budget=budget, seed=done
        )
        exact = _exact(analyzer, _mt_consistent_states(game, state, seat), seat, evaluation, legal)
        zs.extend(_z(evaluation, exact))
        done += 1
        if done == positions:
            break
    assert done == positions
    return zs


def test_marshmallow_test_estimates_match_exact_values_over_the_last_tricks() -> None:
    _check(mt_zs(12, budget=0.1))


# --- MyRummy 111 ---------------------------------------------------------------


def _near_sorted_deal(rng: random.Random) -> dict[str, object]:
    cards = list(range(2, 112))
    rng.shuffle(cards)
    hand = sorted(cards[:12])
    moved = hand.pop(rng.randrange(12))
    hand.insert(rng.randrange(12), moved)  # one card out of place: one exchange from sorted
    return {"hands": [hand, cards[12:24]], "middle": cards[24:27], "draw": cards[27:]}


def _deal_with(hand: list[int], unseen: list[int], card: int, slot: int) -> dict[str, object]:
    """A deal with ``card`` face down in ``slot``; the other cards anywhere."""
    others = [c for c in unseen if c != card]
    middle = others[:3]
    middle[slot] = card
    rest = [c for c in others if c not in middle]
    return {"hands": [hand, rest[:12]], "middle": middle, "draw": rest[12:]}


def mr_zs(hands: int, budget: float) -> list[float]:
    """The z values (points) of ``hands`` MyRummy 111 hands (module doc)."""
    game = cardtable.load("myrummy-111", players=2, rounds=1, turn_limit=1)
    analyzer = Analyzer(game)
    zs: list[float] = []
    for seed in range(hands):
        deal = _near_sorted_deal(random.Random(seed))
        state = game.new_state()
        state.deal(game.deal_from_json(deal, "deal"))
        legal = tuple(state.legal_moves())  # MR-4.2: take one of three face-down cards
        evaluation = analyzer.evaluate_view(state.view(0), legal, seat=0, budget=budget, seed=seed)
        hand: list[int] = deal["hands"][0]  # type: ignore[index]
        unseen = [c for c in range(2, 112) if c not in hand]
        exact: Exact = []
        for value in evaluation.groups:
            take = legal[value.moves[0]]
            slot: int = take.slot  # type: ignore[attr-defined]
            outcomes = []
            for card in unseen:  # the face-down card, any unseen card alike (MR-5)
                fixed = game.new_state()
                fixed.deal(game.deal_from_json(_deal_with(hand, unseen, card, slot), "deal"))
                outcome = play_out(
                    fixed.clone(random.Random(0)),
                    0,
                    take,
                    analyzer.evaluator.policy(random.Random(0)),
                    analyzer.model.chance,
                )
                outcomes.append((outcome.win, float(outcome.points)))
            exact.append(outcomes)
        zs.extend(_z(evaluation, exact, units=(1,)))  # points only (module doc)
    return zs


def test_myrummy_estimates_match_exact_points_one_exchange_from_sorted() -> None:
    _check(mr_zs(12, budget=0.3))
