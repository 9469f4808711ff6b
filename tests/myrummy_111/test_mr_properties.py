"""Invariants over random games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.myrummy_111 import MyRummy111, Take

SEEDS = st.integers(0, 2**32)
PLAYERS = st.integers(2, 5)


def _walk(seed: int, players: int, check, turn_limit: int = 40, steps: int = 400) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    sizes = [rng.randint(12, 14) for _ in range(players)]
    game = MyRummy111(players=players, hand_sizes=sizes, turn_limit=turn_limit, rounds=2)
    state = game.new_game(random.Random(seed))
    for _ in range(steps):
        if state.finished:
            break
        check(state, sizes)
        moves = state.legal_moves()
        # prefer refreshes so that MR-4.6 reshuffles happen too
        refresh = [m for m in moves if isinstance(m, Take) and m.refresh]
        declare = [m for m in moves if not isinstance(m, Take) and not m.declare]
        pool = refresh or declare or moves
        state.apply(pool[rng.randrange(len(pool))])


@settings(max_examples=25, deadline=None)
@given(SEEDS, PLAYERS)
def test_mr_1_1_cards_conserved_and_sizes_fixed(seed: int, players: int) -> None:
    def check(state, sizes):  # type: ignore[no-untyped-def]
        cards = (
            [c for h in state.hands for c in h] + list(state.draw_pile) + list(state.discard_pile)
        )
        middle = [c for c in state.middle if c is not None]
        if state.phase == "place":
            middle.append(state.taken_card)
        assert len(middle) == 3  # MR-3.2
        assert sorted(cards + middle) == list(range(2, 112))
        assert [len(h) for h in state.hands] == sizes  # MR-4.4
        assert state.legal_moves()  # never empty before the end

    _walk(seed, players, check, turn_limit=200, steps=600)


@settings(max_examples=25, deadline=None)
@given(SEEDS, PLAYERS)
def test_mr_5_2_views_never_leak(seed: int, players: int) -> None:
    def check(state, sizes):  # type: ignore[no-untyped-def]
        face_down = {
            c
            for c, up in zip(state.middle, state.middle_face_up, strict=True)
            if c is not None and not up
        }
        hidden_taken = None
        if state.phase == "place" and state.view(None).history[-1].card is None:
            hidden_taken = state.taken_card
        for seat in [None, *range(players)]:
            view = state.view(seat)
            own = set(view.hand or ())
            seen = _public_cards(view)
            assert not face_down & (seen | own)  # MR-5.2: face-down middle cards
            assert not set(state.draw_pile) & (seen | own)  # MR-5.2: the draw pile
            for other in range(players):
                if other != seat:  # others' hands: only what actions revealed
                    revealed = {c for c in view.known[other] if c is not None}
                    assert (set(state.hands[other]) & seen) <= revealed
            if hidden_taken is not None:
                assert hidden_taken not in seen
                assert view.taken_card == (hidden_taken if seat == state.to_move else None)
            for other, known in enumerate(view.known):
                for pos, card in enumerate(known):
                    assert card is None or state.hands[other][pos] == card  # MR-8

    _walk(seed, players, check, steps=150)


def _public_cards(view) -> set[int]:  # type: ignore[no-untyped-def]
    """Every card a view shows outside its own hand and own taken card."""
    cards = {c for c in view.middle if c is not None} | set(view.discard_pile)
    cards |= {e.card for e in view.history if e.card is not None}
    cards |= {c for k in view.known for c in k if c is not None}
    return cards


@settings(max_examples=15, deadline=None)
@given(SEEDS, PLAYERS)
def test_mr_9_records_with_options_and_reshuffles_replay(seed: int, players: int) -> None:
    """Refresh-heavy play, so records hold MR-4.6 reshuffles (the generic
    record round trip is in tests/conformance)."""
    rng = random.Random(seed)
    game = MyRummy111(
        players=players, turn_limit=rng.choice([None, 30]), rounds=rng.choice([None, 2])
    )
    state = game.new_game(random.Random(seed))
    for _ in range(rng.randrange(300)):
        if state.finished:
            break
        moves = state.legal_moves()
        refresh = [m for m in moves if isinstance(m, Take) and m.refresh]
        pool = refresh if refresh and rng.random() < 0.8 else moves
        state.apply(pool[rng.randrange(len(pool))])
    rec = state.record()
    again = MyRummy111(**rec["options"])
    replay = again.new_state()
    for rnd in rec["rounds"]:
        replay.deal(again.deal_from_json(rnd["deal"], "deal"))
        for m in rnd["moves"]:
            seat, move, chance = again.move_from_json(m, "move")
            replay.apply_as(seat, move, **chance)
    assert replay.scores == state.scores and replay.round_scores == state.round_scores
    assert replay.winners == state.winners and replay.record() == rec
    if not state.awaiting_deal:
        for seat in [None, *range(players)]:
            assert replay.view(seat) == state.view(seat)
