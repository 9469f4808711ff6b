"""Reading a MyRummy 111 view from JSON (the view format, MR-5/MR-8): each
field's exact range, with the path and the reason the error gives.

The generic refusals (wrong types, missing keys, ...) are tested for every
game in ``tests/conformance/test_view_json_refusals.py``; here is what only
MyRummy 111 knows: seats are 0 … players - 1, slots 0 … 2, cards 2 … 111
(MR-1.1), rounds count from 1, one entry per seat, the three middle slots,
and the keys of each event. Each bound is tried just outside (refused) and
just inside (read back unchanged).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cardtable.core.errors import RecordError
from cardtable.games.myrummy_111 import MyRummy111, MyRummyState
from tests.json_edits import Change, put

GAME = MyRummy111(players=3)
N = 3  # seats 0, 1, 2


def round_two_placing(seed: int, **options: Any) -> MyRummyState:
    """A 3-player game in round 2 (so ``last_round`` is set), in the place
    phase after both kinds of event (MR-4: a take, then a place). Round 1
    ends with a declaration after four turns, or by the turn limit if set."""
    game = MyRummy111(players=N, **options)
    rng = random.Random(seed)
    state = game.new_game(random.Random(seed))
    while not (state.round_number == 2 and state.phase == "place" and state.moves_in_round >= 3):
        declare = state.round_number == 1 and state.turns_in_round >= 4
        moves = [m for m in state.legal_moves() if getattr(m, "declare", False) == declare] or list(
            state.legal_moves()
        )
        state.apply(moves[rng.randrange(len(moves))])
    return state


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    """The seat to move's view: hand, taken card and slot, history, known cards
    and a declared last round are all filled in."""
    state = round_two_placing(0)
    view = state.view(state.to_move).to_json()
    assert view["hand"] and view["taken_card"] is not None and view["last_round"]["declared_hand"]
    return view


def event(kind: str, **fields: Any) -> Change:
    """Make the first ``kind`` event (``"take"`` or ``"place"``) of the
    history carry ``fields``."""

    def change(obj: dict[str, Any]) -> None:
        first = next(e for e in obj["history"] if kind in e)
        first.update(fields)

    return change


def history_at(obj: dict[str, Any], kind: str) -> int:
    return next(i for i, e in enumerate(obj["history"]) if kind in e)


REFUSED: list[tuple[str, Change, str, str]] = [
    # (what, change, where, reason)
    ("seat = players", put("seat", value=N), "view.seat", "must be an integer 0–2, not 3"),
    ("seat a bool", put("seat", value=True), "view.seat", "must be an integer 0–2, not True"),
    ("round 0", put("round", value=0), "view.round", "must be an integer 1 or more, not 0"),
    (
        "start_player = players",
        put("start_player", value=N),
        "view.start_player",
        "must be an integer 0–2, not 3",
    ),
    ("to_move = players", put("to_move", value=N), "view.to_move", "must be an integer 0–2, not 3"),
    (
        "phase",
        put("phase", value="deal"),
        "view.phase",
        "must be 'take', 'place' or null, not 'deal'",
    ),
    (
        "taken_card 1",
        put("taken_card", value=1),
        "view.taken_card",
        "a card is an integer 2–111, not 1",
    ),
    (
        "taken_card 112",
        put("taken_card", value=112),
        "view.taken_card",
        "a card is an integer 2–111, not 112",
    ),
    (
        "taken_slot 3",
        put("taken_slot", value=3),
        "view.taken_slot",
        "must be an integer 0–2, not 3",
    ),
    ("hand card", put("hand", 1, value=112), "view.hand[1]", "a card is an integer 2–111, not 112"),
    ("hand a dict", put("hand", value={}), "view.hand", "must be a list, not dict"),
    ("middle of 2", put("middle", value=[None, None]), "view.middle", "must hold 3 entries, not 2"),
    (
        "middle card",
        put("middle", 2, value=0),
        "view.middle[2]",
        "a card is an integer 2–111, not 0",
    ),
    (
        "discard_pile",
        put("discard_pile", value=[50, 1]),
        "view.discard_pile[1]",
        "a card is an integer 2–111, not 1",
    ),
    (
        "draw_size -1",
        put("draw_size", value=-1),
        "view.draw_size",
        "must be an integer 0 or more, not -1",
    ),
    (
        "hand_sizes of 2",
        put("hand_sizes", value=[12, 12]),
        "view.hand_sizes",
        "must hold 3 entries, not 2",
    ),
    (
        "hand_sizes -1",
        put("hand_sizes", 2, value=-1),
        "view.hand_sizes[2]",
        "must be an integer 0 or more, not -1",
    ),
    ("known of 4", put("known", value=[[]] * 4), "view.known", "must hold 3 entries, not 4"),
    (
        "known card",
        put("known", 1, value=[1]),
        "view.known[1][0]",
        "a card is an integer 2–111, not 1",
    ),
    ("known row", put("known", 2, value=7), "view.known[2]", "must be a list, not int"),
    ("scores of 2", put("scores", value=[0, 0]), "view.scores", "must hold 3 entries, not 2"),
    (
        "scores -1",
        put("scores", 1, value=-1),
        "view.scores[1]",
        "must be an integer 0 or more, not -1",
    ),
    (
        "round_scores",
        put("round_scores", value={}),
        "view.round_scores",
        "must be a list, not dict",
    ),
    (
        "round_scores row",
        put("round_scores", 0, value=[1]),
        "view.round_scores[0]",
        "must hold 3 entries, not 1",
    ),
    (
        "round_scores -1",
        put("round_scores", 0, 2, value=-1),
        "view.round_scores[0][2]",
        "must be an integer 0 or more, not -1",
    ),
    (
        "moves -1",
        put("moves_in_round", value=-1),
        "view.moves_in_round",
        "must be an integer 0 or more, not -1",
    ),
    (
        "turns -1",
        put("turns_in_round", value=-1),
        "view.turns_in_round",
        "must be an integer 0 or more, not -1",
    ),
    (
        "awaiting 0",
        put("awaiting_deal", value=0),
        "view.awaiting_deal",
        "must be true or false, not 0",
    ),
    ("finished 1", put("finished", value=1), "view.finished", "must be true or false, not 1"),
    (
        "winner = players",
        put("winners", value=[0, N]),
        "view.winners[1]",
        "must be an integer 0–2, not 3",
    ),
    ("winners a str", put("winners", value="0"), "view.winners", "must be a list, not str"),
    # options: named per option (MR-9), written out in full
    ("options a list", put("options", value=[]), "view.options", "must be a JSON object"),
    (
        "options.players",
        put("options", "players", value=6),
        "view.options.players",
        "must be an integer from 2 to 5, got 6",
    ),
    (
        "options.target",
        put("options", "target", value=0),
        "view.options.target",
        "must be an integer from 1 to 500, got 0",
    ),
    (
        "options.players null",
        put("options", "players", value=None),
        "view.options.players",
        "must be written out in full, not None",
    ),
    (
        "options.symbols null",
        put("options", "symbols", value=None),
        "view.options.symbols",
        "must be written out in full, not None",
    ),
    (
        "options.first_player",
        put("options", "first_player", value=3),
        "view.options.first_player",
        "must be a seat from 0 to 2, got 3",
    ),
    # history (MR-5.1): the keys of each kind, seats, slots, positions, sides
    (
        "take slot 3",
        event("take", take=3),
        "view.history[{take}].take",
        "must be an integer 0–2, not 3",
    ),
    (
        "take seat",
        event("take", seat=N),
        "view.history[{take}].seat",
        "must be an integer 0–2, not 3",
    ),
    (
        "take refresh",
        event("take", refresh=0),
        "view.history[{take}].refresh",
        "must be true or false, not 0",
    ),
    (
        "take card",
        event("take", card=1),
        "view.history[{take}].card",
        "a card is an integer 2–111, not 1",
    ),
    (
        "take reshuffled",
        event("take", reshuffled="no"),
        "view.history[{take}].reshuffled",
        "must be true or false, not 'no'",
    ),
    (
        "place seat",
        event("place", seat=-1),
        "view.history[{place}].seat",
        "must be an integer 0–2, not -1",
    ),
    (
        "place -1",
        event("place", place=-1),
        "view.history[{place}].place",
        "must be an integer 0 or more, not -1",
    ),
    (
        "place side",
        event("place", discard="up"),
        "view.history[{place}].discard",
        "must be 'left', 'right' or 'far', not 'up'",
    ),
    (
        "place side type",
        event("place", discard=["left"]),
        "view.history[{place}].discard",
        "must be 'left', 'right' or 'far', not ['left']",
    ),
    (
        "place card",
        event("place", card=None),
        "view.history[{place}].card",
        "a card is an integer 2–111, not None",
    ),
    (
        "place declare",
        event("place", declare=None),
        "view.history[{place}].declare",
        "must be true or false, not None",
    ),
    (
        "take keys",
        event("take", declare=False),
        "view.history[{take}]",
        "an event has the keys seat, take, refresh, card, reshuffled",
    ),
    (
        "place keys",
        event("place", refresh=False),
        "view.history[{place}]",
        "an event has the keys seat, place, discard, card, declare",
    ),
    ("event a list", put("history", 0, value=[]), "view.history[0]", "must be a JSON object"),
    # the last round (MR-6.2): its keys, a placement, the declared hand
    (
        "last_round keys",
        put("last_round", "extra", value=1),
        "view.last_round",
        "the last round has the keys round, last_place, declared_hand",
    ),
    ("last_round a list", put("last_round", value=[]), "view.last_round", "must be a JSON object"),
    (
        "last_round round 0",
        put("last_round", "round", value=0),
        "view.last_round.round",
        "must be an integer 1 or more, not 0",
    ),
    (
        "last_place a take",
        put(
            "last_round",
            "last_place",
            value={"seat": 0, "take": 1, "refresh": False, "card": None, "reshuffled": False},
        ),
        "view.last_round.last_place",
        "a round ends with a placement",
    ),
    (
        "last_place seat",
        put("last_round", "last_place", "seat", value=N),
        "view.last_round.last_place.seat",
        "must be an integer 0–2, not 3",
    ),
    (
        "last_place keys",
        put("last_round", "last_place", value={}),
        "view.last_round.last_place",
        "an event has the keys seat, take, refresh, card, reshuffled",
    ),
    (
        "last_place side",
        put("last_round", "last_place", "discard", value="up"),
        "view.last_round.last_place.discard",
        "must be 'left', 'right' or 'far', not 'up'",
    ),
    (
        "declared card",
        put("last_round", "declared_hand", 0, value=1),
        "view.last_round.declared_hand[0]",
        "a card is an integer 2–111, not 1",
    ),
]


@pytest.mark.parametrize(
    ("change", "where", "reason"),
    [pytest.param(c, w, r, id=what) for what, c, w, r in REFUSED],
)
def test_mr_view_fields_out_of_range_are_refused_saying_where_and_why(
    base: dict[str, Any], change: Change, where: str, reason: str
) -> None:
    obj = copy.deepcopy(base)
    change(obj)
    where = where.format(take=history_at(obj, "take"), place=history_at(obj, "place"))
    with pytest.raises(RecordError) as info:
        GAME.view_from_json(obj)
    assert (info.value.where, info.value.reason) == (where, reason)
    assert str(info.value) == f"{where}: {reason}"


ACCEPTED: list[tuple[str, Change]] = [
    ("seat: the last seat", put("seat", value=N - 1)),
    ("seat: a spectator", put("seat", value=None)),
    ("round 1", put("round", value=1)),
    ("start_player: the last seat", put("start_player", value=N - 1)),
    ("to_move: the last seat", put("to_move", value=N - 1)),
    ("to_move: nobody", put("to_move", value=None)),
    ("phase take", put("phase", value="take")),
    ("phase null", put("phase", value=None)),
    ("taken_card 2", put("taken_card", value=2)),
    ("taken_card 111", put("taken_card", value=111)),
    ("taken_slot 2", put("taken_slot", value=2)),
    ("taken_slot 0", put("taken_slot", value=0)),
    ("draw_size 0", put("draw_size", value=0)),
    ("scores 0", put("scores", 1, value=0)),
    ("winners: the last seat", put("winners", value=[0, N - 1])),
    ("take slot 2, seat 2", event("take", take=2, seat=N - 1)),
    ("take slot 0, seat 0", event("take", take=0, seat=0)),
    ("place at 0, far", event("place", place=0, discard="far")),
    ("last_round round 1", put("last_round", "round", value=1)),
    ("last_round by turn limit", put("last_round", "declared_hand", value=None)),
    ("no last round", put("last_round", value=None)),
]


@pytest.mark.parametrize("change", [pytest.param(c, id=what) for what, c in ACCEPTED])
def test_mr_view_fields_at_their_bounds_read_back_unchanged(
    base: dict[str, Any], change: Change
) -> None:
    obj = copy.deepcopy(base)
    change(obj)
    assert GAME.view_from_json(obj).to_json() == obj


def test_mr_view_that_is_not_an_object_or_misses_keys(base: dict[str, Any]) -> None:
    def refused(obj: Any) -> tuple[str, str]:
        with pytest.raises(RecordError) as info:
            GAME.view_from_json(obj)
        return info.value.where, info.value.reason

    assert refused([1, 2]) == ("view", "a view is a JSON object")
    missing = {k: v for k, v in base.items() if k != "known"}
    assert refused(missing) == ("view", "missing keys ['known'], unknown keys []")
    assert refused({**base, "x": 1}) == ("view", "missing keys [], unknown keys ['x']")
    options = {k: v for k, v in base["options"].items() if k != "rounds"}
    assert refused({**base, "options": options}) == (
        "view.options",
        "the options are players, hand_sizes, target, rounds, turn_limit, symbols, first_player",
    )


def test_mr_6_4_a_round_ended_by_the_turn_limit_shows_no_declared_hand() -> None:
    """MR-6.2/6.4: only a declaration shows the declarer's hand; a round that
    the turn limit ended keeps ``declared_hand`` null in the view's JSON."""
    state = round_two_placing(1, turn_limit=2)
    end = state.view(0).last_round
    assert end is not None and end.declarer is None and end.declared_hand is None
    obj = state.view(0).to_json()
    assert obj["last_round"]["declared_hand"] is None
    assert obj["last_round"]["last_place"]["declare"] is False
    assert state.game.view_from_json(obj) == state.view(0)
