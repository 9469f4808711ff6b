"""The public doors of the MyRummy 111 engine that search, adapters and
faces use (issue 8): the exchange and the declaration defined once, the
round's public end in every view, resuming, detaching the generator,
re-dealing hidden cards, and the game object's value semantics."""

from __future__ import annotations

import importlib.util
import random

import pytest

from cardtable.core.errors import RecordError
from cardtable.core.manifest import resolve
from cardtable.core.registry import manifest
from cardtable.games.myrummy_111 import (
    Deal,
    MyRummy111,
    MyRummyState,
    Place,
    PlaceEvent,
    RoundEnd,
    Take,
)
from cardtable.games.myrummy_111.cards import DEFAULT_SYMBOLS, symbol_lookup
from cardtable.games.myrummy_111.determinize import determinize
from cardtable.games.myrummy_111.exchange import distinct_places, exchange, hand_after_place
from cardtable.games.myrummy_111.moves import legal_places
from cardtable.games.myrummy_111.scoring import (
    declaration_score,
    declared_points,
    max_round_points,
    round_scores,
)

SYM = symbol_lookup(DEFAULT_SYMBOLS)
SORTED = tuple(range(10, 22))  # seat 0: sorted once 10 goes (MR-6.1)
OTHER = tuple(range(30, 42))
MIDDLE = (50, 99, 60)


def dealt(game: MyRummy111) -> MyRummyState:
    used = {*SORTED, *OTHER, *MIDDLE}
    state = game.new_state()
    state.deal(Deal((SORTED, OTHER), MIDDLE, tuple(c for c in range(2, 112) if c not in used)))
    return state


def declare_face_down(state: MyRummyState) -> None:
    """Seat 0 takes face-down 99 and puts it last, dropping far-left 10: 11 … 21, 99."""
    state.apply(Take(1))
    state.apply(Place(12, "far", True))


# ------------------------------------------------------------------ rules once
def test_mr_4_4_one_exchange_for_cards_and_unknowns() -> None:
    known: list[int | None] = [None, 7, None]
    assert exchange(known, 40, 3, 2) is None and known == [7, None, 40]
    assert hand_after_place([47, 60, 90], 105, 0, 1) == [105, 60, 90]


@pytest.mark.parametrize("size", [12, 13, 14])
def test_mr_4_4_distinct_places_leave_every_hand_a_placement_can(size: int) -> None:
    rng = random.Random(size)
    hand = rng.sample(range(2, 112), size)
    card = next(c for c in range(2, 112) if c not in hand)
    legal = {tuple(hand_after_place(hand, card, m.position, m.side)) for m in legal_places(size)}
    distinct = [tuple(hand_after_place(hand, card, p, s)) for p, s in distinct_places(size)]
    assert len(set(distinct)) == len(distinct) and set(distinct) == legal


def test_mr_6_2_declaration_score_is_symbols_plus_5() -> None:
    assert declaration_score(SYM[c] for c in SORTED) == sum(SYM[c] for c in SORTED) + 5
    assert declared_points(SORTED, SYM) == declaration_score(SYM[c] for c in SORTED)
    assert declared_points((5, 3, 9), SYM) == 0  # unsorted: 0 (MR-6.2)
    assert round_scores([SORTED, OTHER], SYM, 0)[0] == declared_points(SORTED, SYM)
    # The best a 14-card hand can score: the 14 richest cards, sorted, plus 5.
    assert max_round_points(DEFAULT_SYMBOLS, 14) == sum(sorted(DEFAULT_SYMBOLS)[-14:]) + 5


# --------------------------------------------------------- the round's end
def test_mr_6_2_the_declarer_shows_the_hand_and_the_discard_stays_public() -> None:
    game = MyRummy111(players=2, rounds=2)
    state = dealt(game)
    state.apply(Take(1))
    assert all(99 not in (state.view(s).hand or ()) for s in (1, None))  # still hidden
    state.apply(Place(12, "far", True))
    shown = (*range(11, 22), 99)
    for seat in (0, 1, None):
        view = state.view(seat)
        # MR-4.4: seat 0 put 99 last and discarded the far card, 10, face up.
        assert view.last_round == RoundEnd(1, PlaceEvent(0, 12, "far", 10, True), shown)
        assert view.last_round.declarer == 0
        assert game.view_from_json(view.to_json()) == view


def test_mr_6_4_a_turn_limit_shows_no_hand() -> None:
    game = MyRummy111(players=2, rounds=2, turn_limit=1)
    state = dealt(game)
    state.apply(Take(0))
    state.apply(Place(0, "right"))
    end = state.view(1).last_round
    assert end is not None and end.declared_hand is None and end.declarer is None
    assert end.last_place.card == 10  # the discard replaced by 50 at position 0


def test_the_round_end_replays_from_the_record() -> None:
    game = MyRummy111(players=2, rounds=2)
    state = dealt(game).clone(random.Random(3))  # deals round 2 by itself
    declare_face_down(state)
    assert state.round_number == 2 and state.phase == "take"
    replay = game.new_state()
    for rnd in state.record()["rounds"]:
        replay.deal(game.deal_from_json(rnd["deal"], "deal"))
        for obj in rnd["moves"]:
            seat, move, chance = game.move_from_json(obj, "move")
            replay.apply_as(seat, move, **chance)
    assert all(replay.view(s) == state.view(s) for s in (0, 1, None))


# ------------------------------------------------------------------ the doors
def test_detach_rng_leaves_the_next_deal_to_the_caller() -> None:
    game = MyRummy111(players=2, rounds=2)
    kept = dealt(game).clone(random.Random(1))
    detached = kept.clone()
    detached.detach_rng()
    declare_face_down(kept)
    declare_face_down(detached)
    assert kept.phase == "take" and not kept.awaiting_deal  # MR-3: dealt at once
    assert detached.awaiting_deal and detached.phase is None
    with pytest.raises(ValueError, match="no generator"):
        detached.deal()


def test_resume_a_game_in_progress_and_a_finished_one() -> None:
    game = MyRummy111(players=3)
    state = game.new_state()
    end = RoundEnd(2, PlaceEvent(1, 0, "far", 111, True), tuple(range(3, 15)))
    state.resume(
        round_number=3,
        start_player=2,
        scores=(30, 20, 10),
        past_round_scores=((20, 10, 5), (10, 10, 5)),
        last_round=end,
    )
    assert (state.round_number, state.start_player, state.scores) == (3, 2, (30, 20, 10))
    assert state.view(0).last_round == end and state.awaiting_deal
    state.deal(game.new_game(random.Random(0)).record()["rounds"][0]["deal"])
    assert state.to_move == 2  # MR-2.2
    done = game.new_state()
    done.resume(
        round_number=2,
        start_player=1,
        scores=(61, 61, 10),
        past_round_scores=((30, 31, 5), (31, 30, 5)),
        finished=True,
    )
    assert done.finished and done.winners == (0,)  # MR-7.1: the last round breaks the tie
    with pytest.raises(ValueError, match="earlier rounds"):
        game.new_state().resume(
            round_number=3, start_player=0, scores=(0, 0, 0), past_round_scores=()
        )
    with pytest.raises(ValueError, match="not been dealt"):
        state.resume(round_number=1, start_player=0, scores=(0, 0, 0), past_round_scores=())


def test_with_cards_moves_only_hidden_cards() -> None:
    game = MyRummy111(players=2)
    state = dealt(game)
    state.apply(Take(0))
    state.apply(Place(0, "right"))  # 10 face up in slot 0
    draw = list(state.draw_pile)
    hands = [list(state.hands[0]), [draw[0], *state.hands[1][1:]]]
    middle = [state.middle[0], state.hands[1][0], state.middle[2]]
    rest = [state.middle[1], *draw[1:]]
    twin = state.with_cards(hands, middle, rest)  # type: ignore[arg-type]
    assert twin.view(0) == state.view(0)  # seat 0 cannot tell them apart (MR-5)
    assert twin.hands[1] != state.hands[1] and state.hands[1][0] == OTHER[0]
    twin.apply(Take(1))  # plays on from its own cards
    assert twin.taken_card == OTHER[0]
    with pytest.raises(ValueError, match="face-up"):
        state.with_cards(hands, [middle[1], middle[0], middle[2]], rest)  # type: ignore[arg-type, list-item]
    with pytest.raises(ValueError, match="same cards"):
        state.with_cards(hands, middle, [1, *rest[1:]])  # type: ignore[arg-type, list-item]
    with pytest.raises(ValueError, match="sizes"):
        state.with_cards(hands, middle, rest[1:])  # type: ignore[arg-type]


def test_clone_copies_every_slot_and_shares_no_list() -> None:
    state = MyRummy111(players=3).new_game(random.Random(2))
    state.apply(state.legal_moves()[0])
    twin = state.clone()
    for name in MyRummyState.__slots__:
        mine, theirs = getattr(state, name), getattr(twin, name)
        assert mine == theirs, name
        if isinstance(mine, list):
            assert mine is not theirs, name  # lists are copied, tuples shared


# ----------------------------------------------------------------- the game
def test_games_are_equal_by_options_and_new_game_checks_its_rng() -> None:
    a, b, c = MyRummy111(players=3), MyRummy111(players=3), MyRummy111(players=3, target=50)
    assert a == b and hash(a) == hash(b) and a != c and len({a, b, c}) == 2
    assert a != "myrummy-111"
    for bad in (7, None, random):
        with pytest.raises(TypeError, match=r"random\.Random"):
            a.new_game(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda o: o.update(seat=9), "view.seat"),
        (lambda o: o.update(hand=[1, 2]), "view.hand[0]"),
        (lambda o: o.update(phase="deal"), "view.phase"),
        (lambda o: o.update(middle=[None, None]), "view.middle"),
        (lambda o: o["history"].append({"seat": 0, "take": 5}), "view.history[0]"),
        (lambda o: o.update(options={"players": 7}), "view.options"),
        (lambda o: o.update(finished="no"), "view.finished"),
        (lambda o: o.pop("known"), "view"),
        (lambda o: o.update(last_round={"round": 1}), "view.last_round"),
    ],
)
def test_view_from_json_says_where_a_view_is_malformed(change: object, where: str) -> None:
    game = MyRummy111(players=2)
    obj = game.new_game(random.Random(0)).view(0).to_json()
    change(obj)  # type: ignore[operator]
    with pytest.raises(RecordError) as info:
        game.view_from_json(obj)
    assert info.value.where == where
    with pytest.raises(RecordError, match="JSON object"):
        game.view_from_json([1, 2])


# -------------------------------------------------------------- the package
def test_every_manifest_target_resolves() -> None:
    m = manifest("myrummy-111")
    for part in ("game", "terminal_ui", "determinize"):
        assert callable(resolve(getattr(m, part))), part
    assert m.determinize is not None and resolve(m.determinize) is determinize
    for name, entry in m.bots.items():
        if entry.extra is None:
            assert callable(resolve(entry.target)), name


@pytest.mark.parametrize(
    "module",
    [
        "cardtable.bots.myrummy_111",
        "cardtable.cli.ui_myrummy_111",
        "cardtable.cli.render_myrummy_111",
        "cardtable.games.myrummy_111.bots.ismcts",
    ],
)
def test_the_old_homes_are_gone(module: str) -> None:
    assert importlib.util.find_spec(module) is None
